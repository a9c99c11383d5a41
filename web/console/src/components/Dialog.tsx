// A modal dialog on the native <dialog> element: the browser traps focus in it, closes it with
// Escape, makes the page behind it inert, and gives focus back to the button that opened it.
import { useEffect, useRef, type ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  /** Called however the dialog closes: its own buttons, or Escape. */
  onClose: () => void;
  /** The id of the dialog's heading, which names it. */
  labelledBy: string;
  describedBy?: string;
  children: ReactNode;
}

export function Dialog({ open, onClose, labelledBy, describedBy, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={labelledBy} aria-describedby={describedBy} onClose={onClose}>
      {open ? children : null}
    </dialog>
  );
}
