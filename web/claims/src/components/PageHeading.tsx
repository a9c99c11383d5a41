// A page's h1, which takes the focus when the page opens (and when its address changes), so a
// screen reader announces the new page and Tab starts from its top. It is not a control: no ring.
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';

export function PageHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const href = useRouterState({ select: (state) => state.location.href });
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, [href]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}
