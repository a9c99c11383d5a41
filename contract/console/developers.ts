// The console's developers page: the store's webhook endpoints and each one's delivery log (the
// same objects as the merchant API answers), and the platforms connected to the store.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string } from '../common.js';
import { pickErrors } from '../errors.js';
import { WebhookDeliveryList, WebhookEndpointList } from '../webhook-endpoints.js';
import { sessionRoute } from '../policy.js';

const c = initContract();

export const consoleDevelopersContract = c.router({
  endpoints: {
    method: 'GET',
    path: '/console/api/webhook_endpoints',
    responses: { 200: WebhookEndpointList, ...pickErrors(401, 500) },
    metadata: sessionRoute('viewer'),
    summary: "The store's webhook endpoints",
  },
  deliveries: {
    method: 'GET',
    path: '/console/api/webhook_endpoints/:id/deliveries',
    pathParams: z.object({ id: z.string().max(100) }),
    query: z.object({ starting_after: string(100).optional().describe('The id of the last delivery of the previous page.') }),
    responses: { 200: WebhookDeliveryList, ...pickErrors(400, 401, 404, 500) },
    metadata: sessionRoute('viewer'),
    summary: "An endpoint's deliveries, newest first, a page at a time, every attempt",
  },
  requestLog: {
    method: 'GET',
    path: '/console/api/request_log',
    query: z.object({ cursor: z.string().regex(/^[0-9]{1,19}$/, 'must be a next_cursor of an earlier page').optional() }),
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            at: DateTime,
            mode: z.enum(['live', 'test']),
            method: z.string(),
            path: z.string().describe('Without the query: no body, header or query is ever kept.'),
            status: z.number().int(),
            request_id: z.string(),
            duration_ms: z.number().int(),
          }),
        ),
        next_cursor: z.string().nullable(),
      }),
      ...pickErrors(400, 401, 500),
    },
    metadata: sessionRoute('viewer'),
    summary: "The requests the store's keys made in the last 24 hours, newest first",
  },
  platforms: {
    method: 'GET',
    path: '/console/api/platforms',
    responses: { 200: z.object({ data: z.array(z.object({ slug: z.string(), connected_at: DateTime, webhook_path: z.string() })) }), ...pickErrors(401, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'The commerce platforms connected to the store',
  },
});
