// What the orders pages read: a page of the search, and one order with everything that happened to it.
import { queryOptions } from '@tanstack/react-query';
import { api, bodyOf, pathParam } from '../../api';

/**
 * How long a read is shown again without asking the server: Back to a page just seen shows it at
 * once. A change made in the console invalidates what it changed.
 */
export const ORDERS_STALE_MS = 30_000;

export const orderSearchQuery = (q: string, cursor: string | undefined) =>
  queryOptions({
    queryKey: ['orders', 'search', q, cursor ?? null] as const,
    staleTime: ORDERS_STALE_MS,
    queryFn: async () => bodyOf(await api.orders.search({ query: { ...(q === '' ? {} : { q }), ...(cursor === undefined ? {} : { cursor }) } }), 200),
  });

export const orderQuery = (sourceOrderId: string) =>
  queryOptions({
    queryKey: ['orders', 'detail', sourceOrderId] as const,
    staleTime: ORDERS_STALE_MS,
    queryFn: async () => bodyOf(await api.orders.get({ params: { source_order_id: pathParam(sourceOrderId) } }), 200),
  });
