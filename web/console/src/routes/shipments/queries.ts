// What the shipments pages read: a page of the list with its counts, and one shipment.
import { queryOptions } from '@tanstack/react-query';
import { api, bodyOf, pathParam } from '../../api';
import { ORDERS_STALE_MS } from '../orders/queries';
import type { ShipmentsSearch } from './search-params';

export const shipmentQuery = (trackingNumber: string) =>
  queryOptions({
    queryKey: ['shipments', trackingNumber] as const,
    staleTime: ORDERS_STALE_MS,
    queryFn: async () => bodyOf(await api.shipments.get({ params: { tracking_number: pathParam(trackingNumber) } }), 200),
  });

export const shipmentListQuery = (filters: Omit<ShipmentsSearch, 'cursors'>, cursor: string | undefined) =>
  queryOptions({
    // Not under ['shipments', …]: a tracking number could be any word.
    queryKey: ['shipment-list', filters.status ?? null, filters.carrier ?? null, filters.silent_days ?? null, filters.carrier_unknown ?? null, cursor ?? null] as const,
    staleTime: ORDERS_STALE_MS,
    queryFn: async () =>
      bodyOf(
        await api.shipments.list({
          query: {
            ...(filters.status === undefined ? {} : { status: filters.status }),
            ...(filters.carrier === undefined ? {} : { carrier: filters.carrier }),
            ...(filters.silent_days === undefined ? {} : { silent_days: String(filters.silent_days) }),
            ...(filters.carrier_unknown === undefined ? {} : { carrier_unknown: filters.carrier_unknown ? 'true' : 'false' }),
            ...(cursor === undefined ? {} : { cursor }),
          },
        }),
        200,
      ),
  });
