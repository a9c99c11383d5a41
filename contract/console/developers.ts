// The console's developers page: the store's webhook endpoints, managed here as over the API (the
// same objects, the same domain operations), each one's delivery log with a resend, a test event,
// the request log and the platforms connected to the store. Owners and admins only: an endpoint's
// URL may carry the receiver's own token, and a secret is shown once.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, oneOf, string, text } from '../common.js';
import { pickErrors } from '../errors.js';
import { EVENT_TYPES, WebhookDelivery } from '../merchant-events.js';
import {
  DeletedWebhookEndpoint,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointRequest,
  WebhookEndpointRotation,
  WebhookEndpointUpdateRequest,
  WebhookEndpointWithSecret,
} from '../webhook-endpoints.js';
import { sessionRoute } from '../policy.js';

const c = initContract();

/** How many request log lines a page holds. */
export const REQUEST_LOG_PAGE_LIMIT = 50;

const EndpointIdParams = z.object({ id: string(100) });
const writeErrors = pickErrors(400, 401, 403, 404, 409, 500);

export const consoleDevelopersContract = c.router({
  endpoints: {
    method: 'GET',
    path: '/console/api/webhook_endpoints',
    responses: { 200: WebhookEndpointList, ...pickErrors(401, 403, 500) },
    metadata: sessionRoute('admin'),
    summary: "The store's webhook endpoints",
  },
  createEndpoint: {
    method: 'POST',
    path: '/console/api/webhook_endpoints',
    body: WebhookEndpointRequest,
    responses: { 201: WebhookEndpointWithSecret, ...pickErrors(400, 401, 403, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Add an endpoint; its signing secret is answered once',
  },
  updateEndpoint: {
    method: 'PATCH',
    path: '/console/api/webhook_endpoints/:id',
    pathParams: EndpointIdParams,
    body: WebhookEndpointUpdateRequest,
    responses: { 200: WebhookEndpoint, ...writeErrors },
    metadata: sessionRoute('admin'),
    summary: "Change an endpoint's URL, events or description, or disable and enable it",
  },
  deleteEndpoint: {
    method: 'DELETE',
    path: '/console/api/webhook_endpoints/:id',
    pathParams: EndpointIdParams,
    body: c.noBody(),
    responses: { 200: DeletedWebhookEndpoint, ...pickErrors(400, 401, 403, 404, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Delete an endpoint and its pending deliveries',
  },
  rotateSecret: {
    method: 'POST',
    path: '/console/api/webhook_endpoints/:id/rotate_secret',
    pathParams: EndpointIdParams,
    body: c.noBody(),
    responses: { 200: WebhookEndpointRotation, ...pickErrors(400, 401, 403, 404, 500) },
    metadata: sessionRoute('admin'),
    summary: 'A new signing secret, answered once; the old one keeps signing beside it for a while',
  },
  sendTestEvent: {
    method: 'POST',
    path: '/console/api/webhook_endpoints/:id/test',
    pathParams: EndpointIdParams,
    body: z.object({
      type: oneOf(EVENT_TYPES).optional().describe("The type to send; by default the first the endpoint receives."),
    }),
    responses: { 202: WebhookDelivery, ...writeErrors },
    metadata: sessionRoute('admin'),
    summary: 'Queue a test event (mode "test", sample data) to this endpoint only',
  },
  resendEvent: {
    method: 'POST',
    path: '/console/api/webhook_endpoints/:id/resend',
    pathParams: EndpointIdParams,
    body: z.object({ event_id: text(100, 'The event of one of the deliveries listed.') }),
    responses: { 202: WebhookDelivery, ...writeErrors },
    metadata: sessionRoute('admin'),
    summary: 'Send an event to this endpoint again, with its id',
  },
  deliveries: {
    method: 'GET',
    path: '/console/api/webhook_endpoints/:id/deliveries',
    pathParams: z.object({ id: z.string().max(100) }),
    query: z.object({ starting_after: string(100).optional().describe('The id of the last delivery of the previous page.') }),
    responses: { 200: WebhookDeliveryList, ...pickErrors(400, 401, 403, 404, 500) },
    metadata: sessionRoute('admin'),
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
      ...pickErrors(400, 401, 403, 500),
    },
    metadata: sessionRoute('admin'),
    summary: "The requests the store's keys made in the last 24 hours, newest first, a page at a time",
  },
  platforms: {
    method: 'GET',
    path: '/console/api/platforms',
    responses: { 200: z.object({ data: z.array(z.object({ slug: z.string(), connected_at: DateTime, webhook_path: z.string() })) }), ...pickErrors(401, 403, 500) },
    metadata: sessionRoute('admin'),
    summary: 'The commerce platforms connected to the store',
  },
});
