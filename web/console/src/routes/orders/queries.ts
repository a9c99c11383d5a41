// What the orders pages read and change: a page of the list (searched and filtered), one order with
// everything that happened to it, and the owner's erasure of its personal data.
import { queryOptions } from '@tanstack/react-query';
import { api, bodyOf, pathParam } from '../../api';
import type { OrdersQuery } from './search-params';

/**
 * How long a read is shown again without asking the server: Back to a page just seen shows it at
 * once. A change made in the console invalidates what it changed.
 */
export const ORDERS_STALE_MS = 30_000;

/** Every page of the list, whatever its search: what an erasure makes stale. */
export const ORDER_SEARCH_KEY = ['orders', 'search'] as const;

export const orderSearchQuery = (query: OrdersQuery, cursor: string | undefined) =>
  queryOptions({
    queryKey: [...ORDER_SEARCH_KEY, query, cursor ?? null] as const,
    staleTime: ORDERS_STALE_MS,
    queryFn: async () => bodyOf(await api.orders.search({ query: { ...query, ...(cursor === undefined ? {} : { cursor }) } }), 200),
  });

export const orderQuery = (sourceOrderId: string) =>
  queryOptions({
    queryKey: ['orders', 'detail', sourceOrderId] as const,
    staleTime: ORDERS_STALE_MS,
    queryFn: async () => bodyOf(await api.orders.get({ params: { source_order_id: pathParam(sourceOrderId) } }), 200),
  });

/** Erases the shopper's personal data from the order (owners only); the answer is the order page, refreshed. */
export const redactOrder = async (sourceOrderId: string) => bodyOf(await api.orders.redact({ params: { source_order_id: pathParam(sourceOrderId) } }), 200);
