// The orders list in the URL, so a reload or Back shows the same page: the text searched for, the
// filters (status, protection, placed between two days) and the trail of cursors that led to the
// page shown (its last one is the page's own; the one before it, the previous page's). Each value is
// judged by the contract's own ConsoleOrderSearchQuery; anything malformed is left out, and that
// filter is off.

import { ConsoleOrderSearchQuery, type ORDER_PROTECTION_FILTERS, type ORDER_STATUS_FILTERS } from '../../../../../contract/console/index.js';
import { cursorTrailOf } from '../../components/CursorPager';

const fields = ConsoleOrderSearchQuery.shape;

export type OrderStatusFilter = (typeof ORDER_STATUS_FILTERS)[number];
export type OrderProtectionFilter = (typeof ORDER_PROTECTION_FILTERS)[number];

export interface OrdersSearch {
  q?: string;
  status?: OrderStatusFilter;
  protection?: OrderProtectionFilter;
  /** YYYY-MM-DD, a UTC day, inclusive. */
  placed_from?: string;
  placed_to?: string;
  cursors?: string[];
}

/** The filters and the search of a list, without its page: a new filter starts at the first page. */
export type OrdersQuery = Omit<OrdersSearch, 'cursors'>;

/** The value when the contract takes it, else undefined. */
function valid<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function validateOrdersSearch(search: Record<string, unknown>): OrdersSearch {
  // The router reads "?q=1001" as the number 1001; the text was "1001".
  const raw = typeof search.q === 'number' && Number.isFinite(search.q) ? String(search.q) : search.q;
  const q = typeof raw === 'string' ? valid(fields.q, raw.trim()) : undefined;
  const from = valid(fields.placed_from, search.placed_from);
  const to = valid(fields.placed_to, search.placed_to);
  // Every key always, undefined for the default: the router lays this over the raw search, whose
  // junk would otherwise show through a key left out.
  return {
    q: q === '' ? undefined : q,
    status: valid(fields.status, search.status),
    protection: valid(fields.protection, search.protection),
    placed_from: from,
    // A last day before the first is no range the server takes (it names placed_to): that end is off.
    placed_to: to !== undefined && from !== undefined && to < from ? undefined : to,
    cursors: cursorTrailOf(search.cursors),
  };
}

/** The search and filters set, without the page, and without the keys left at their default. */
export function queryOf(search: OrdersSearch): OrdersQuery {
  const query: OrdersQuery = {};
  if (search.q !== undefined) query.q = search.q;
  if (search.status !== undefined) query.status = search.status;
  if (search.protection !== undefined) query.protection = search.protection;
  if (search.placed_from !== undefined) query.placed_from = search.placed_from;
  if (search.placed_to !== undefined) query.placed_to = search.placed_to;
  return query;
}

/** Whether any filter (not the search text) is set. */
export const isFiltered = (query: OrdersQuery) =>
  query.status !== undefined || query.protection !== undefined || query.placed_from !== undefined || query.placed_to !== undefined;

/** The query with some keys changed (undefined: that key off), as a link or a form navigates to it. */
export const withChange = (query: OrdersQuery, change: OrdersQuery): OrdersQuery => queryOf({ ...query, ...change });
