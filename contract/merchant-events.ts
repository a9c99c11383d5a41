// Events the service sends to the merchant (README, "Events and outbound webhooks"): what changed in
// the store, as signed HTTP POSTs to the store's webhook endpoints (the Standard Webhooks format),
// and readable afterwards through the events API. Each event's data is the object as the API
// returns it, after the change, with what the change adds (a cause, a reversal, a history entry).
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ClaimResponse, CLAIM_STATUSES } from './claims.js';
import { DateTime, text, oneOf } from './common.js';
import { liveOnly, pageQuery, readErrors, writeErrors } from './events-shared.js';
import { RestAmountOut } from './money.js';
import { OrderResponse } from './orders.js';
import { keyRoute } from './policy.js';
import { Checkpoint, DeliveryStatusSchema, ShipmentResponse } from './shipments.js';

/** The default page size of the events list and of an endpoint's deliveries (events-shared.ts). */
export { DEFAULT_PAGE_LIMIT } from './events-shared.js';

const c = initContract();

export const EVENT_TYPES = [
  'order.created',
  'order.repriced',
  'order.cancelled',
  'premium.reversed',
  'shipment.created',
  'shipment.delivery_status_changed',
  'shipment.cancelled',
  'claim.created',
  'claim.status_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An endpoint subscribed to this receives every event type, including ones added later. */
export const ALL_EVENTS = '*';

/** The headers of a delivery (the Standard Webhooks specification). */
export const EVENT_ID_HEADER = 'webhook-id';
export const EVENT_TIMESTAMP_HEADER = 'webhook-timestamp';
export const EVENT_SIGNATURE_HEADER = 'webhook-signature';
/** A receiver refuses a timestamp further than this from its clock (replays). */
export const EVENT_TOLERANCE_SECONDS = 300;

export const CANCELLATION_CAUSES = ['api', 'refund', 'platform'] as const;

const OrderCancelledData = extendApi(
  OrderResponse.extend({
    cancellation_cause: z
      .enum(CANCELLATION_CAUSES)
      .describe('api: the merchant cancelled it over the API; refund: a refund reversed its whole premium; platform: the commerce platform cancelled it.'),
  }),
  { title: 'OrderCancelledData' },
);

const PremiumReversedData = extendApi(
  OrderResponse.extend({
    reversal: z
      .object({
        refund_id: z.string().describe("The platform's refund id."),
        amount_reversed: RestAmountOut.describe('Premium given back by this refund, in major units.'),
        premium_remaining: RestAmountOut.describe('Premium the order still holds, in major units (paid_to_insure).'),
      })
      .describe('What this refund reversed.'),
  }),
  { title: 'PremiumReversedData' },
);

const DeliveryStatusChangedData = extendApi(
  ShipmentResponse.extend({
    previous_delivery_status: DeliveryStatusSchema.describe('The delivery status before this change.'),
    latest_checkpoint: extendApi(Checkpoint.nullable(), {
      title: 'LatestCheckpoint',
      description: 'The newest carrier scan, or null (a cancel has none).',
    }),
  }),
  { title: 'DeliveryStatusChangedData' },
);

const ClaimStatusChangedData = extendApi(
  ClaimResponse.extend({
    status_change: z
      .object({
        from_status: z.enum(CLAIM_STATUSES).describe('The status before.'),
        to_status: z.enum(CLAIM_STATUSES).describe('The status after (the claim\'s status).'),
        note: z.string().nullable().describe("The operator's note, or null."),
        changed_on: DateTime.describe('When the status changed.'),
      })
      .describe("The claim history's new entry."),
  }),
  { title: 'ClaimStatusChangedData' },
);

const eventMember = <T extends EventType, D extends z.ZodTypeAny>(type: T, data: D, title: string, description: string) =>
  extendApi(
    z.object({
      id: z.string().describe('Event id, evt_...; the webhook-id header of every delivery of it. Receivers drop an id seen before.'),
      type: z.literal(type).describe('What happened.'),
      created_at: DateTime.describe('When the change was committed.'),
      mode: z.enum(['live', 'test']).describe("live for every change (test keys write nothing, so they cause none); test only for a test event sent from the console's Developers page, whose data is a sample with test_ ids."),
      // Not described here: the data's own component (Order, Shipment, ...) says what it is.
      data,
    }),
    { title, description: `${description} data: the object as the API returns it, after the change.` },
  );

export const OrderCreatedEvent = eventMember('order.created', OrderResponse, 'OrderCreatedEvent', 'An order was registered: over REST or by a platform.');
export const OrderRepricedEvent = eventMember('order.repriced', OrderResponse, 'OrderRepricedEvent', 'An update changed the subtotal or insurance_selected, and so the premium.');
export const OrderCancelledEvent = eventMember('order.cancelled', OrderCancelledData, 'OrderCancelledEvent', 'An order was cancelled; data.cancellation_cause says why.');
export const PremiumReversedEvent = eventMember('premium.reversed', PremiumReversedData, 'PremiumReversedEvent', 'A refund of the protection line gave premium back.');
export const ShipmentCreatedEvent = eventMember('shipment.created', ShipmentResponse, 'ShipmentCreatedEvent', 'A tracking number was registered: over REST or by a platform fulfilment.');
export const ShipmentDeliveryStatusChangedEvent = eventMember(
  'shipment.delivery_status_changed',
  DeliveryStatusChangedData,
  'ShipmentDeliveryStatusChangedEvent',
  "A shipment's delivery_status changed (Active, Delivered, Exception, or Cancelled by a cancel).",
);
export const ShipmentCancelledEvent = eventMember('shipment.cancelled', ShipmentResponse, 'ShipmentCancelledEvent', 'A shipment was cancelled.');
export const ClaimCreatedEvent = eventMember('claim.created', ClaimResponse, 'ClaimCreatedEvent', 'A claim was filed.');
export const ClaimStatusChangedEvent = eventMember('claim.status_changed', ClaimStatusChangedData, 'ClaimStatusChangedEvent', 'A claim moved to a new status.');

export const MerchantEvent = extendApi(
  z.discriminatedUnion('type', [
    OrderCreatedEvent,
    OrderRepricedEvent,
    OrderCancelledEvent,
    PremiumReversedEvent,
    ShipmentCreatedEvent,
    ShipmentDeliveryStatusChangedEvent,
    ShipmentCancelledEvent,
    ClaimCreatedEvent,
    ClaimStatusChangedEvent,
  ]),
  {
    title: 'MerchantEvent',
    description: 'Any event, told apart by type. The body of every delivery to a webhook endpoint.',
    discriminator: { propertyName: 'type' },
  },
);
export type MerchantEvent = z.infer<typeof MerchantEvent>;
/** The data of each event type, as the server writes it. */
export type EventData<T extends EventType> = Extract<z.input<typeof MerchantEvent>, { type: T }>['data'];

// A delivery, one event to one endpoint: here with the events, which a resend answers with; an
// endpoint's delivery log (webhook-endpoints.ts) lists them too.
export const DeliveryAttempt = extendApi(
  z.object({
    attempted_on: DateTime.describe('When the request was sent.'),
    succeeded: z.boolean().describe('true for a 2xx answer.'),
    status_code: z.number().int().nullable().describe('The HTTP status answered, or null when none came (see error).'),
    duration_ms: z.number().int().describe('From sending to the end of the answer (or the failure).'),
    error: z
      .string()
      .nullable()
      .describe('Why no 2xx came, e.g. timeout, refused_address, connection_failed, redirect_not_followed, http_status; null on success.'),
    response_body: z.string().nullable().describe('The first 4 KiB of the answer, as text, or null.'),
  }),
  { title: 'DeliveryAttempt' },
);

export const WebhookDelivery = extendApi(
  z.object({
    id: z.string().describe('Delivery id, del_...: one event to one endpoint, with its attempts.'),
    event_id: z.string().describe('The event delivered.'),
    event_type: z.enum(EVENT_TYPES).describe('Its type.'),
    status: z.enum(['pending', 'succeeded', 'failed']).describe('pending while attempts remain; failed once the retry schedule is over.'),
    attempt_count: z.number().int().describe('Attempts made so far.'),
    next_attempt_on: DateTime.nullable().describe('When the next attempt is due, or null when none is.'),
    created_on: DateTime.describe('When the delivery was queued (the event, or a resend).'),
    attempts: z.array(DeliveryAttempt).describe('Every attempt, newest first.'),
  }),
  { title: 'WebhookDelivery' },
);

export const EXAMPLE_EVENT_ID = 'evt_4f0c6a2e8d4b4b8e9a513c2d7e6f1a90';

export const EventList = extendApi(
  z.object({
    data: z.array(MerchantEvent).describe('Events, newest first.'),
    has_more: z.boolean().describe('Whether a page follows: ask again with starting_after the last id.'),
  }),
  { title: 'EventList' },
);

export const EventResendRequest = extendApi(
  z.object({
    endpoint_id: text(100, 'Resend to this endpoint only; without it, to every enabled endpoint subscribed to the type.').optional(),
  }),
  { title: 'EventResendRequest', example: {} },
);

export const EventResendResponse = extendApi(
  z.object({ data: z.array(WebhookDelivery).describe('The deliveries queued, one per endpoint.') }),
  { title: 'EventResendResponse' },
);

const EventIdParams = z.object({ id: extendApi(text(100), { example: EXAMPLE_EVENT_ID }) });

export const eventsContract = c.router({
  list: {
    method: 'GET',
    path: '/v1/events',
    query: pageQuery(EXAMPLE_EVENT_ID).extend({
      type: extendApi(oneOf(EVENT_TYPES), { example: 'order.created' })
        .optional()
        .describe('Only events of this type.'),
    }),
    responses: { 200: EventList, ...readErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'List events',
    description: `The store's events, newest first, whether or not an endpoint received them. ${liveOnly}`,
  },
  get: {
    method: 'GET',
    path: '/v1/events/:id',
    pathParams: EventIdParams,
    responses: { 200: MerchantEvent, ...readErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Read an event',
    description: `The event as it was delivered. ${liveOnly}`,
  },
  resend: {
    method: 'POST',
    path: '/v1/events/:id/resend',
    pathParams: EventIdParams,
    body: EventResendRequest,
    responses: { 202: EventResendResponse, ...writeErrors },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Resend an event',
    description:
      'Queues a new delivery of the event, with the same webhook-id, to one endpoint or to every enabled endpoint subscribed ' +
      `to its type. 409 when the endpoint named is disabled or not subscribed. ${liveOnly}`,
  },
});
