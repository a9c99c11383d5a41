// What the shipment page reads.
import { queryOptions } from '@tanstack/react-query';
import { api, bodyOf, pathParam } from '../../api';
import { ORDERS_STALE_MS } from '../orders/queries';

export const shipmentQuery = (trackingNumber: string) =>
  queryOptions({
    queryKey: ['shipments', trackingNumber] as const,
    staleTime: ORDERS_STALE_MS,
    queryFn: async () => bodyOf(await api.shipments.get({ params: { tracking_number: pathParam(trackingNumber) } }), 200),
  });
