// The orders search in the URL, so a reload or Back shows the same page: the text searched for, and
// the trail of cursors that led to the page shown (its last one is the page's own; the one before
// it, the previous page's). Anything else in the URL, or anything malformed, means the first page
// of every order.

/** The contract's longest search text and cursor. */
const MAX_Q = 254;
const MAX_CURSOR = 200;
/** A trail longer than this was not made by clicking "Next page". */
const MAX_TRAIL = 200;

export interface OrdersSearch {
  q?: string;
  cursors?: string[];
}

export function validateOrdersSearch(search: Record<string, unknown>): OrdersSearch {
  // The router reads "?q=1001" as the number 1001; the text was "1001".
  const raw = typeof search.q === 'number' && Number.isFinite(search.q) ? String(search.q) : search.q;
  const q = typeof raw === 'string' ? raw.trim() : '';
  const trail = search.cursors;
  const cursors =
    Array.isArray(trail) && trail.length <= MAX_TRAIL && trail.every((cursor): cursor is string => typeof cursor === 'string' && cursor !== '' && cursor.length <= MAX_CURSOR)
      ? trail
      : [];
  // Both keys always, undefined for the default: the router lays this over the raw search, whose
  // junk would otherwise show through a key left out.
  return { q: q === '' || q.length > MAX_Q ? undefined : q, cursors: cursors.length === 0 ? undefined : cursors };
}
