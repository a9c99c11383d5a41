// Previous and next page of a list paged by cursor (the console's orders and claims). The trail of
// cursors that led to the page lives in the URL, so each page is its own address: Back and a reload
// come back to it. The area draws the links, typed by its own route.
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import './CursorPager.css';

/** The contract's longest cursor, and a trail longer than anyone clicks "Next page". */
const MAX_CURSOR = 200;
const MAX_TRAIL = 200;

/** A cursor trail from the URL, or undefined (the first page) for anything malformed. */
export function cursorTrailOf(value: unknown): string[] | undefined {
  const valid =
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= MAX_TRAIL &&
    value.every((cursor): cursor is string => typeof cursor === 'string' && cursor !== '' && cursor.length <= MAX_CURSOR);
  return valid ? value : undefined;
}

/**
 * The table of a paged list, focused after "Next page", "Previous page" or Back: the link pressed may
 * be gone, and the table's caption says which page it is. Not on the first load, which focuses the
 * page's h1. `loaded`: the new page's rows are shown.
 */
export function usePageFocus(cursors: readonly string[], loaded: boolean): RefObject<HTMLTableElement | null> {
  const tableRef = useRef<HTMLTableElement>(null);
  const trail = cursors.join(' ');
  const shownTrail = useRef(trail);
  useEffect(() => {
    if (!loaded || trail === shownTrail.current) return;
    shownTrail.current = trail;
    tableRef.current?.focus();
  }, [trail, loaded]);
  return tableRef;
}

interface CursorPagerProps {
  /** The navigation's accessible name, e.g. "Pages of orders". */
  label: string;
  cursors: readonly string[];
  nextCursor: string | null;
  /** A link to the page of this trail (undefined: the first page), with this text. */
  link: (cursors: string[] | undefined, text: string) => ReactNode;
}

export function CursorPager({ label, cursors, nextCursor, link }: CursorPagerProps) {
  if (cursors.length === 0 && nextCursor === null) return null;
  const previous = cursors.slice(0, -1);
  return (
    <nav className="cursor-pager" aria-label={label}>
      {cursors.length === 0 ? <span /> : link(previous.length === 0 ? undefined : previous, 'Previous page')}
      <span className="cursor-pager-number">Page {cursors.length + 1}</span>
      {nextCursor === null ? <span /> : link([...cursors, nextCursor], 'Next page')}
    </nav>
  );
}
