// Step 3 of the integration: register shipments (README, Concepts, "Shipments").
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { CARRIERS } from './carriers.js';
import { DateTime, string, text } from './common.js';
import { keyRoute } from './policy.js';
import { pickErrors } from './errors.js';

const c = initContract();

/** A shipment's delivery status: the one list, for the API, the events, the claim page and the domain. */
export const DELIVERY_STATUSES = ['Active', 'Delivered', 'Exception', 'Cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DeliveryStatusSchema = z.enum(DELIVERY_STATUSES);

/** A tracking number: spaces and dashes are stripped and the value upper-cased; anything else must be a letter or digit. */
export const TrackingNumber = string(
  100,
  // Letters and digits once spaces and dashes are removed, at least one: a pattern the OpenAPI
  // document publishes, so generators make valid numbers.
  z.string({ invalid_type_error: 'must be a string' }).regex(/^[\s-]*[A-Za-z0-9][A-Za-z0-9\s-]*$/, {
    message: 'must contain only letters and digits once spaces and dashes are removed (no suffixes such as "-(SHIPSTATION)")',
  }),
)
  .transform((value) => value.replace(/[\s-]+/g, '').toUpperCase());

const SourceProductIds = z.array(text(255)).max(1000).optional().describe('Product ids this shipment carries, when it carries part of the order.');

const ShipmentLineItems = z
  .array(
    z.object({
      source_id: text(255, 'source_id of a line item of the order.'),
      source_product_id: string(255, z.string(), { description: "Merchant's product id." }).optional(),
      quantity: z
        .number()
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(1_000_000, 'must be at most 1000000')
        .describe('Units of that line item in this shipment.'),
    }),
  )
  .max(1000)
  .optional()
  .describe('Used when a shipment carries part of the order.');

export const ShipmentRequest = extendApi(
  z.object({
    // A described copy of TrackingNumber, which loses the example TrackingNumberParams gives the original.
    tracking_number: extendApi(TrackingNumber.describe('As the carrier prints it; spaces and dashes are removed and letters upper-cased.'), {
      example: '1Z999AA10123456784',
    }),
    source_order_id: text(255, 'The order must already exist.'),
    courier_id: string(100, z.string(), {
      description:
        `Carrier slug or a known alias. The slugs: ${CARRIERS.map((carrier) => `${carrier.slug} for ${carrier.name}`).join(', ')}. ` +
        'docs/carriers.md lists the aliases, e.g. "UPS Ground", and the codes of WooCommerce Shipment Tracking, ShipStation, ' +
        'AfterShip and EasyPost. Resolved from the tracking number when omitted; an unknown, empty or null value counts as ' +
        'omitted, and a merchant message records the name sent.',
    })
      .nullable()
      .optional(),
    source_product_ids: SourceProductIds,
    line_items: ShipmentLineItems,
  }),
  {
    title: 'ShipmentRequest',
    example: { tracking_number: '1Z 999 AA1 01 2345 6784', source_order_id: '1001', courier_id: 'ups' },
  },
);

export const Checkpoint = extendApi(
  z.object({
    status: DeliveryStatusSchema.describe('Delivery status this scan reports.'),
    subtag: z.string().nullable().describe("The carrier's finer status, or null."),
    message: z.string().describe("The carrier's words for the scan."),
    location: z
      .object({
        city: z.string().nullable(),
        state: z.string().nullable(),
        zip: z.string().nullable(),
        country: z.string().nullable(),
      })
      .describe('Where the scan happened; any part may be null.'),
    occurred_at: DateTime.describe('When the scan happened.'),
    source: z.string().describe('Which tracking provider reported it.'),
  }),
  { title: 'Checkpoint' },
);

export const ShipmentResponse = extendApi(
  z.object({
    id: z.string().describe('Shipment id (test-key shipments start with test_).'),
    merchant_id: z.string().describe('Store id.'),
    tracking_number: z.string().describe('Normalised.'),
    courier: z.string().describe('Carrier slug.'),
    delivery_status: DeliveryStatusSchema.describe('Latest delivery status, from the carrier scans.'),
    tracking_registration_status: z.literal('registered').describe('Always registered: the number is followed.'),
    tracking_url: z.string().nullable().describe("The carrier's public tracking page, once known, or null."),
    expected_delivery_date: z.string().nullable().describe("The carrier's estimated delivery date, or null."),
    checkpoints: z.array(Checkpoint).describe('Up to 100 carrier scans, oldest first; empty on create.'),
    merchant_messages: z
      .array(
        z.object({
          code: z.string().describe('Stable code, e.g. carrier_unknown.'),
          message: z.string().describe('Plain words.'),
          created_on: DateTime.describe('When it was recorded.'),
        }),
      )
      .describe('Notes for the merchant about this shipment, e.g. carrier_unknown. Empty on create.'),
    created_on: DateTime.describe('When the shipment was registered.'),
    updated_on: DateTime.describe('When it last changed.'),
    cancelled_on: DateTime.nullable().describe('When it was cancelled, or null.'),
  }),
  { title: 'ShipmentResponse' },
);

const TrackingNumberParams = z.object({ tracking_number: extendApi(TrackingNumber, { example: '1Z999AA10123456784' }) });
export const ShipmentUpdateRequest = extendApi(
  z
    .object({
      courier_id: string(100, z.string(), {
        description: 'The new carrier. An unknown, empty or null value leaves the carrier as it is; a merchant message records a name we do not know.',
      }).nullable(),
      tracking_number: TrackingNumber.optional().describe('An echo of the stored value, accepted when unchanged.'),
      source_order_id: text(255, 'An echo of the stored value, accepted when unchanged.').optional(),
      source_product_ids: SourceProductIds.describe('An echo of the stored value (in any order), accepted when unchanged.'),
      line_items: ShipmentLineItems.describe('An echo of the stored value, accepted when unchanged.'),
    })
    .strict('only courier_id can be changed; correct a tracking number by cancelling and creating a new shipment'),
  { title: 'ShipmentUpdateRequest', example: { courier_id: 'fedex' } },
);

const updateRoute = {
  path: '/v1/shipments/:tracking_number',
  pathParams: TrackingNumberParams,
  body: ShipmentUpdateRequest,
  responses: { 200: ShipmentResponse, 201: ShipmentResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
  metadata: keyRoute('orders', 'not_found'),
  description:
    'Only courier_id can change; the new carrier is used from the next poll. Clients that send the whole shipment ' +
    'again may echo tracking_number, source_order_id, source_product_ids and line_items: unchanged, they are ' +
    'accepted; changed, or any other field, 400. A tracking number is corrected by cancelling and creating a new ' +
    'shipment. For a store with client_profile route, a whole shipment sent here for a tracking number the store ' +
    'does not have creates it (201), as Route\'s PrestaShop module expects. Test keys answer 404.',
} as const;

export const shipmentsContract = c.router({
  create: {
    method: 'POST',
    path: '/v1/shipments',
    body: ShipmentRequest,
    responses: { 201: ShipmentResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
    metadata: keyRoute('orders', 'simulate'),
    summary: 'Create a shipment',
    description:
      'Registers a tracking number of an existing order of the store; every shipment of a protected order is covered. ' +
      'The tracking number is normalised (spaces and dashes removed, upper-cased). Without courier_id the carrier is ' +
      'detected from the number; an undetectable number is stored with courier "unknown" and not tracked until ' +
      'courier_id is set by an update. The same active tracking number twice in a store is 409. Test keys validate ' +
      'the body only and answer a test_ object.',
  },
  get: {
    method: 'GET',
    path: '/v1/shipments/:tracking_number',
    pathParams: TrackingNumberParams,
    responses: { 200: ShipmentResponse, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('orders', 'not_found'),
    summary: 'Read a shipment',
    description: 'The shipment with its latest 100 carrier scans, oldest first. Test keys answer 404.',
  },
  update: { ...updateRoute, method: 'POST', summary: 'Update a shipment' },
  updatePatch: { ...updateRoute, method: 'PATCH', summary: 'Update a shipment (PATCH)' },
  cancel: {
    method: 'POST',
    path: '/v1/shipments/:tracking_number/cancel',
    pathParams: TrackingNumberParams,
    body: c.noBody(),
    responses: { 200: ShipmentResponse, ...pickErrors(400, 401, 403, 404, 409, 422, 429, 500) },
    metadata: keyRoute('orders', 'not_found'),
    summary: 'Cancel a shipment',
    description:
      'Sets cancelled_on and delivery_status Cancelled, keeps the tracking history and stops polling. Cancelling ' +
      'twice succeeds. 409 while an open claim names this shipment or the whole order. Test keys answer 404.',
  },
});
