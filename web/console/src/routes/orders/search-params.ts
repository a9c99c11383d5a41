// The orders search in the URL, so a reload or Back shows the same page: the text searched for, and
// the trail of cursors that led to the page shown (its last one is the page's own; the one before
// it, the previous page's). Anything else in the URL, or anything malformed, means the first page
// of every order.

import { cursorTrailOf } from '../../components/CursorPager';

/** The contract's longest search text. */
const MAX_Q = 254;

export interface OrdersSearch {
  q?: string;
  cursors?: string[];
}

export function validateOrdersSearch(search: Record<string, unknown>): OrdersSearch {
  // The router reads "?q=1001" as the number 1001; the text was "1001".
  const raw = typeof search.q === 'number' && Number.isFinite(search.q) ? String(search.q) : search.q;
  const q = typeof raw === 'string' ? raw.trim() : '';
  // Both keys always, undefined for the default: the router lays this over the raw search, whose
  // junk would otherwise show through a key left out.
  return { q: q === '' || q.length > MAX_Q ? undefined : q, cursors: cursorTrailOf(search.cursors) };
}
