// A form's submit button that is disabled while its request runs (a double tap sends one request),
// by aria-disabled rather than the disabled attribute: a disabled button drops the keyboard focus
// to the page's start, and the shopper who pressed it would have to find their place again. The
// form's submit handler refuses while `busy` (it must check, as a click still reaches it).
import type { ReactNode } from 'react';

interface SubmitButtonProps {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
}

export function SubmitButton({ busy, busyLabel, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="button primary wide" aria-disabled={busy ? true : undefined}>
      {busy ? busyLabel : children}
    </button>
  );
}
