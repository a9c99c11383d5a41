import { initServer } from '@ts-rest/express';
import { DEFAULT_PAGE_LIMIT, eventsContract, webhookEndpointsContract } from '../../contract/index.js';
import type { AppDeps } from '../deps.js';
import { createEndpoint, deleteEndpoint, getEndpoint, getEvent, listDeliveries, listEndpoints, listEvents, resendEvent, rotateEndpointSecret, updateEndpoint } from '../domain/events/index.js';


import { scopeOf } from '../http/route-policy.js';
import { toWebhookDeliveryResponse, toWebhookEndpointResponse } from '../wire/merchant-events.js';

const s = initServer();

const pageOf = (query: { limit?: string | undefined; starting_after?: string | undefined }) => ({
  limit: query.limit === undefined ? DEFAULT_PAGE_LIMIT : Number(query.limit),
  ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
});

export const webhookEndpointsRouter = ({ db, clock, events }: AppDeps) =>
  s.router(webhookEndpointsContract, {
    create: async ({ body, req }) => {
      const endpoint = await createEndpoint(db, scopeOf(req), body, clock.now(), events);
      return { status: 201, body: { ...toWebhookEndpointResponse(endpoint), secret: endpoint.secret } };
    },
    list: async ({ req }) => {
      const endpoints = await listEndpoints(db, scopeOf(req));
      return { status: 200, body: { data: endpoints.map(toWebhookEndpointResponse) } };
    },
    get: async ({ params, req }) => ({ status: 200, body: toWebhookEndpointResponse(await getEndpoint(db, scopeOf(req), params.id)) }),
    update: async ({ params, body, req }) => {
      const endpoint = await updateEndpoint(db, scopeOf(req), params.id, body, clock.now(), events);
      return { status: 200, body: toWebhookEndpointResponse(endpoint) };
    },
    delete: async ({ params, req }) => {
      await deleteEndpoint(db, scopeOf(req), params.id, clock.now());
      return { status: 200, body: { id: params.id, deleted: true as const } };
    },
    rotateSecret: async ({ params, req }) => {
      const endpoint = await rotateEndpointSecret(db, scopeOf(req), params.id, clock.now());
      return {
        status: 200,
        body: { ...toWebhookEndpointResponse(endpoint), secret: endpoint.secret, previous_secret_expires_on: endpoint.previousSecretExpiresAt.toISOString() },
      };
    },
    deliveries: async ({ params, query, req }) => {
      const page = await listDeliveries(db, scopeOf(req), params.id, pageOf(query));
      return { status: 200, body: { data: page.data.map(toWebhookDeliveryResponse), has_more: page.hasMore } };
    },
  });

export const eventsRouter = ({ db, clock }: AppDeps) =>
  s.router(eventsContract, {
    list: async ({ query, req }) => {
      const page = await listEvents(db, scopeOf(req), { ...pageOf(query), ...(query.type === undefined ? {} : { type: query.type }) });
      return { status: 200, body: { data: page.data, has_more: page.hasMore } };
    },
    get: async ({ params, req }) => ({ status: 200, body: await getEvent(db, scopeOf(req), params.id) }),
    resend: async ({ params, body, req }) => {
      const deliveries = await resendEvent(db, scopeOf(req), params.id, body.endpoint_id, clock.now());
      return { status: 202, body: { data: deliveries.map(toWebhookDeliveryResponse) } };
    },
  });
