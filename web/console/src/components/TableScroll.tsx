// A table wider than the space it has scrolls sideways inside this frame rather than widening the
// page. Only while it does is the frame a named, focusable region, so a keyboard can scroll it; a
// table that fits adds no tab stop.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import './TableScroll.css';

interface TableScrollProps {
  /** Names the region while it scrolls: what the table holds. */
  label: string;
  children: ReactNode;
}

export function TableScroll({ label, children }: TableScrollProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const frame = ref.current;
    if (frame === null) return;
    const measure = () => setScrolls(frame.scrollWidth > frame.clientWidth);
    // The frame narrows with the window; the table widens with its rows.
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    if (frame.firstElementChild !== null) observer.observe(frame.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="table-scroll-frame" {...(scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}>
      {children}
    </div>
  );
}
