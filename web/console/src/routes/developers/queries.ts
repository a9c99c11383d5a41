// What the developers pages read: the store's webhook endpoints, one endpoint's deliveries, the
// connected platforms, and the request log a page at a time (older pages on "Load more").
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { ClientInferResponseBody } from '@ts-rest/core';
import type { z } from 'zod';
import type { consoleContract } from '../../../../../contract/console/index.js';
import type { WebhookDelivery } from '../../../../../contract/merchant-events.js';
import type { WebhookEndpoint } from '../../../../../contract/webhook-endpoints.js';
import { api, bodyOf, pathParam } from '../../api';

export type Endpoint = z.infer<typeof WebhookEndpoint>;
export type Delivery = z.infer<typeof WebhookDelivery>;
export type Platform = ClientInferResponseBody<typeof consoleContract.developers.platforms, 200>['data'][number];
export type RequestLogPage = ClientInferResponseBody<typeof consoleContract.developers.requestLog, 200>;
export type RequestLogLine = RequestLogPage['data'][number];

export const endpointsQuery = queryOptions({
  queryKey: ['developers', 'endpoints'] as const,
  queryFn: async () => bodyOf(await api.developers.endpoints(), 200).data,
});

export type DeliveriesPage = ClientInferResponseBody<typeof consoleContract.developers.deliveries, 200>;

/** An endpoint's deliveries, newest first, a page at a time (older pages on "Load more"). */
export const deliveriesQuery = (endpointId: string) =>
  infiniteQueryOptions({
    queryKey: ['developers', 'endpoints', endpointId, 'deliveries'] as const,
    queryFn: async ({ pageParam }): Promise<DeliveriesPage> =>
      bodyOf(await api.developers.deliveries({ params: { id: pathParam(endpointId) }, query: pageParam === null ? {} : { starting_after: pageParam } }), 200),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? (last.data.at(-1)?.id ?? null) : null),
  });

export const platformsQuery = queryOptions({
  queryKey: ['developers', 'platforms'] as const,
  queryFn: async () => bodyOf(await api.developers.platforms(), 200).data,
});

export const requestLogQuery = infiniteQueryOptions({
  queryKey: ['developers', 'request-log'] as const,
  queryFn: async ({ pageParam }): Promise<RequestLogPage> =>
    bodyOf(await api.developers.requestLog({ query: pageParam === null ? {} : { cursor: pageParam } }), 200),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.next_cursor,
});
