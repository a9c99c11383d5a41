// What the developers pages read: the store's webhook endpoints, a page of one endpoint's
// deliveries, the connected platforms, and a page of the request log. Every one of them is for
// owners and admins only (the contract's route policy): a viewer's page asks for none.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ClientInferResponseBody } from '@ts-rest/core';
import type { z } from 'zod';
import { consoleContract } from '../../../../../contract/console/index.js';
import type { WebhookDelivery } from '../../../../../contract/merchant-events.js';
import type { WebhookEndpoint } from '../../../../../contract/webhook-endpoints.js';
import { api, bodyOf, mayCall, pathParam } from '../../api';
import type { ConsoleRole } from '../../../../../contract/policy.js';

export type Endpoint = z.infer<typeof WebhookEndpoint>;
export type Delivery = z.infer<typeof WebhookDelivery>;
export type Platform = ClientInferResponseBody<typeof consoleContract.developers.platforms, 200>['data'][number];
export type RequestLogPage = ClientInferResponseBody<typeof consoleContract.developers.requestLog, 200>;
export type RequestLogLine = RequestLogPage['data'][number];
export type DeliveriesPage = ClientInferResponseBody<typeof consoleContract.developers.deliveries, 200>;

/** Whether a role may use the developers pages: every route of them, by the contract's policy (owners and admins). */
export const mayUseDevelopers = (role: ConsoleRole): boolean => Object.values(consoleContract.developers).every((route) => mayCall(route, role));

export const endpointsQuery = queryOptions({
  queryKey: ['developers', 'endpoints'] as const,
  queryFn: async () => bodyOf(await api.developers.endpoints(), 200).data,
});

/** How often a page of deliveries is read again while one of them waits for an attempt. */
const PENDING_POLL_MS = 1000;

/** A page of an endpoint's deliveries, newest first (`startingAfter`: the last delivery of the page before). */
export const deliveriesQuery = (endpointId: string, startingAfter: string | undefined) =>
  queryOptions({
    queryKey: ['developers', 'endpoints', endpointId, 'deliveries', startingAfter ?? null] as const,
    queryFn: async (): Promise<DeliveriesPage> =>
      bodyOf(
        await api.developers.deliveries({ params: { id: pathParam(endpointId) }, query: startingAfter === undefined ? {} : { starting_after: startingAfter } }),
        200,
      ),
    // A delivery still pending gets its attempt within seconds: the page follows it until none is.
    refetchInterval: (query) => (query.state.data?.data.some((delivery) => delivery.status === 'pending') ? PENDING_POLL_MS : false),
  });

/** Every page of an endpoint's deliveries is read again: after a test event or a resend, a new one heads the list. */
export const refreshDeliveries = (queryClient: QueryClient, endpointId: string) =>
  queryClient.invalidateQueries({ queryKey: ['developers', 'endpoints', endpointId, 'deliveries'] });

export const platformsQuery = queryOptions({
  queryKey: ['developers', 'platforms'] as const,
  queryFn: async () => bodyOf(await api.developers.platforms(), 200).data,
});

/** A page of the request log, newest first (`cursor`: the next_cursor of the page before). */
export const requestLogQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: ['developers', 'request-log', cursor ?? null] as const,
    queryFn: async (): Promise<RequestLogPage> => bodyOf(await api.developers.requestLog({ query: cursor === undefined ? {} : { cursor } }), 200),
  });
