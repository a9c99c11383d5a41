// A store's webhook endpoints (README, "Events and outbound webhooks"): where its events are POSTed,
// which types, the secret that signs them, and each endpoint's delivery log. The events themselves,
// and the shape of one delivery, are in merchant-events.ts.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string, text } from './common.js';
import { liveOnly, pageQuery, readErrors, writeErrors } from './events-shared.js';
import { ALL_EVENTS, EVENT_TYPES, WebhookDelivery } from './merchant-events.js';
import { keyRoute } from './policy.js';

const c = initContract();

/** The prefix of an endpoint's signing secret; the rest is the base64 key. */
export const ENDPOINT_SECRET_PREFIX = 'whsec_';
/** How long the previous secret keeps signing beside the new one after a rotation. */
export const SECRET_ROTATION_OVERLAP_HOURS = 24;
/** Attempts an endpoint has in flight at once, unless it says otherwise, and the most it may say. */
export const DEFAULT_MAX_IN_FLIGHT = 10;
export const MAX_IN_FLIGHT_LIMIT = 50;

const MaxInFlight = extendApi(
  z
    .number({ invalid_type_error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_IN_FLIGHT_LIMIT, `must be at most ${MAX_IN_FLIGHT_LIMIT}`),
  {
    description:
      `How many deliveries may be in flight to the endpoint at once, 1 to ${MAX_IN_FLIGHT_LIMIT} (default ${DEFAULT_MAX_IN_FLIGHT}). ` +
      'Events about one object (an order, a shipment, a claim) are never in flight together, whatever this says. ' +
      '1 sends one event at a time, oldest first.',
    example: DEFAULT_MAX_IN_FLIGHT,
  },
);

const EventTypeList = z
  .array(
    z.enum([...EVENT_TYPES, ALL_EVENTS], { errorMap: () => ({ message: `must be one of ${[...EVENT_TYPES, ALL_EVENTS].join(', ')}` }) }),
    { invalid_type_error: 'must be an array' },
  )
  .min(1, 'must name at least one event type')
  .max(EVENT_TYPES.length + 1, `must have at most ${EVENT_TYPES.length + 1} items`)
  .describe(`The event types sent to the endpoint, or ["${ALL_EVENTS}"] for all of them.`);

const EndpointUrl = string(2048, z.string().url('must be an absolute URL'), {
  description: 'Where events are POSTed: https (http only where the operator allows it, for local development).',
});

export const WebhookEndpointRequest = extendApi(
  z.object({
    url: EndpointUrl,
    events: EventTypeList,
    description: string(500, z.string(), { description: 'A note for the store, e.g. what receives the events.' }).optional(),
    max_in_flight: MaxInFlight.optional(),
  }),
  { title: 'WebhookEndpointRequest', example: { url: 'https://shop.example.com/hooks/order-protection', events: ['order.created', 'claim.status_changed'] } },
);

export const WebhookEndpointUpdateRequest = extendApi(
  z.object({
    url: EndpointUrl.optional(),
    events: EventTypeList.optional(),
    description: string(500, z.string(), { description: 'A note for the store.' }).nullable().optional(),
    enabled: z.boolean().optional().describe('false stops deliveries (kept until it is true again); true re-enables an endpoint, also one disabled for failing.'),
    max_in_flight: MaxInFlight.optional(),
  }),
  { title: 'WebhookEndpointUpdateRequest', example: { enabled: true } },
);

export const WebhookEndpoint = extendApi(
  z.object({
    id: z.string().describe('Endpoint id, we_...'),
    url: z.string().describe('Where events are POSTed.'),
    description: z.string().nullable().describe('The store\'s note, or null.'),
    events: z.array(z.string()).describe('The event types it receives, or ["*"].'),
    status: z.enum(['enabled', 'disabled']).describe('disabled endpoints receive nothing.'),
    disabled_reason: z
      .enum(['merchant', 'failing'])
      .nullable()
      .describe('merchant: disabled by an update; failing: every attempt of a delivery failed for about three days. null when enabled.'),
    failing_since: DateTime.nullable().describe('When its attempts started failing with no success since, or null.'),
    secret_rotated_on: DateTime.nullable().describe('When the secret was last rotated, or null.'),
    max_in_flight: z.number().int().describe('How many deliveries may be in flight to it at once; never two about one object.'),
    created_on: DateTime.describe('When it was created.'),
    updated_on: DateTime.describe('When it last changed.'),
  }),
  { title: 'WebhookEndpoint' },
);

export const WebhookEndpointWithSecret = extendApi(
  WebhookEndpoint.extend({
    secret: z.string().describe('The signing secret, whsec_...: shown only in this answer. Keep it; it cannot be read again.'),
  }),
  { title: 'WebhookEndpointWithSecret' },
);

export const WebhookEndpointRotation = extendApi(
  WebhookEndpointWithSecret.extend({
    previous_secret_expires_on: DateTime.describe(`Until then (${SECRET_ROTATION_OVERLAP_HOURS} hours) every delivery is signed with both secrets.`),
  }),
  { title: 'WebhookEndpointRotation' },
);

export const WebhookEndpointList = extendApi(z.object({ data: z.array(WebhookEndpoint).describe('Every endpoint of the store, oldest first.') }), {
  title: 'WebhookEndpointList',
});

export const DeletedWebhookEndpoint = extendApi(
  z.object({ id: z.string().describe('The endpoint deleted.'), deleted: z.literal(true).describe('Always true.') }),
  { title: 'DeletedWebhookEndpoint' },
);

export const EXAMPLE_ENDPOINT_ID = 'we_4f0c6a2e8d4b4b8e9a513c2d7e6f1a90';
export const EXAMPLE_DELIVERY_ID = 'del_4f0c6a2e8d4b4b8e9a513c2d7e6f1a90';

export const WebhookDeliveryList = extendApi(
  z.object({
    data: z.array(WebhookDelivery).describe('Deliveries, newest first.'),
    has_more: z.boolean().describe('Whether a page follows: ask again with starting_after the last id.'),
  }),
  { title: 'WebhookDeliveryList' },
);

const IdParams = z.object({ id: extendApi(text(100), { example: EXAMPLE_ENDPOINT_ID }) });

export const webhookEndpointsContract = c.router({
  create: {
    method: 'POST',
    path: '/v1/webhook_endpoints',
    body: WebhookEndpointRequest,
    responses: { 201: WebhookEndpointWithSecret, ...writeErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Create a webhook endpoint',
    description:
      'Events of the listed types are POSTed to the URL from now on, signed with the secret in this answer (shown once). ' +
      `The URL must be https; its host must not resolve to a private, loopback or link-local address. ${liveOnly}`,
  },
  list: {
    method: 'GET',
    path: '/v1/webhook_endpoints',
    responses: { 200: WebhookEndpointList, ...readErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'List webhook endpoints',
    description: `Every endpoint of the store, oldest first, without secrets. ${liveOnly}`,
  },
  get: {
    method: 'GET',
    path: '/v1/webhook_endpoints/:id',
    pathParams: IdParams,
    responses: { 200: WebhookEndpoint, ...readErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Read a webhook endpoint',
    description: `Its status tells whether it was disabled for failing. ${liveOnly}`,
  },
  update: {
    method: 'PATCH',
    path: '/v1/webhook_endpoints/:id',
    pathParams: IdParams,
    body: WebhookEndpointUpdateRequest,
    responses: { 200: WebhookEndpoint, ...writeErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Update a webhook endpoint',
    description: `Changes its url, events, description, or enabled. ${liveOnly}`,
  },
  delete: {
    method: 'DELETE',
    path: '/v1/webhook_endpoints/:id',
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 200: DeletedWebhookEndpoint, ...readErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Delete a webhook endpoint',
    description: `Nothing more is sent to it, and its delivery log goes with it. ${liveOnly}`,
  },
  rotateSecret: {
    method: 'POST',
    path: '/v1/webhook_endpoints/:id/rotate_secret',
    pathParams: IdParams,
    body: c.noBody(),
    responses: { 200: WebhookEndpointRotation, ...writeErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: "Rotate a webhook endpoint's secret",
    description:
      `Answers a new secret (shown once). For ${SECRET_ROTATION_OVERLAP_HOURS} hours every delivery carries a signature with each ` +
      `secret, so the receiver can switch without losing an event. ${liveOnly}`,
  },
  deliveries: {
    method: 'GET',
    path: '/v1/webhook_endpoints/:id/deliveries',
    pathParams: IdParams,
    query: pageQuery(EXAMPLE_DELIVERY_ID),
    responses: { 200: WebhookDeliveryList, ...readErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: "List a webhook endpoint's deliveries",
    description: `Each event sent to it, newest first, with every attempt: status code, duration and error. ${liveOnly}`,
  },
});
