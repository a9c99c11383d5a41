// Step 3 of the integration: register shipments (README, Concepts, "Shipments").
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string, text } from './common.js';
import { keyRoute } from './policy.js';
import { pickErrors } from './errors.js';

const c = initContract();

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

export const ShipmentRequest = extendApi(
  z.object({
    tracking_number: TrackingNumber,
    source_order_id: text(255, 'The order must already exist.'),
    courier_id: string(100)
      .optional()
      .describe(
        'Carrier slug or a known alias (docs/carriers.md lists them, e.g. ups, usps, fedex, "UPS Ground"); an unknown ' +
          'carrier is 400. Resolved from the tracking number when omitted.',
      ),
    source_product_ids: z.array(text(255)).max(1000).optional(),
    line_items: z
      .array(
        z.object({
          source_id: text(255),
          source_product_id: string(255).optional(),
          quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'),
        }),
      )
      .max(1000)
      .optional()
      .describe('Used when a shipment carries part of the order.'),
  }),
  {
    title: 'ShipmentRequest',
    example: { tracking_number: '1Z 999 AA1 01 2345 6784', source_order_id: '1001', courier_id: 'ups' },
  },
);

export const Checkpoint = extendApi(
  z.object({
    status: z.enum(['Active', 'Delivered', 'Exception', 'Cancelled']),
    subtag: z.string().nullable(),
    message: z.string(),
    location: z.object({
      city: z.string().nullable(),
      state: z.string().nullable(),
      zip: z.string().nullable(),
      country: z.string().nullable(),
    }),
    occurred_at: DateTime,
    source: z.string(),
  }),
  { title: 'Checkpoint' },
);

export const ShipmentResponse = extendApi(
  z.object({
    id: z.string(),
    merchant_id: z.string(),
    tracking_number: z.string().describe('Normalised.'),
    courier: z.string().describe('Carrier slug.'),
    delivery_status: z.enum(['Active', 'Delivered', 'Exception', 'Cancelled']),
    tracking_registration_status: z.literal('registered'),
    tracking_url: z.string().nullable(),
    expected_delivery_date: z.string().nullable(),
    checkpoints: z.array(Checkpoint).describe('Up to 100 carrier scans, oldest first; empty on create.'),
    merchant_messages: z
      .array(z.object({ code: z.string(), message: z.string(), created_on: DateTime }))
      .describe('Notes for the merchant about this shipment, e.g. carrier_unknown. Empty on create.'),
    created_on: DateTime,
    updated_on: DateTime,
    cancelled_on: DateTime.nullable(),
  }),
  { title: 'ShipmentResponse' },
);

const TrackingNumberParams = z.object({ tracking_number: TrackingNumber });
const ShipmentUpdateRequest = extendApi(z
    .object({ courier_id: text(100) })
    .strict('only courier_id can be changed; correct a tracking number by cancelling and creating a new shipment'), {
  title: 'ShipmentUpdateRequest',
});

const updateRoute = {
  path: '/v1/shipments/:tracking_number',
  pathParams: TrackingNumberParams,
  body: ShipmentUpdateRequest,
  responses: { 200: ShipmentResponse, ...pickErrors(400, 401, 403, 404, 413, 429, 500) },
  metadata: keyRoute('orders', 'not_found'),
  description:
    'Only courier_id can change (any other field is 400); the new carrier is used from the next poll. A tracking ' +
    'number is corrected by cancelling and creating a new shipment. Test keys answer 404.',
} as const;

export const shipmentsContract = c.router({
  create: {
    method: 'POST',
    path: '/v1/shipments',
    body: ShipmentRequest,
    responses: { 201: ShipmentResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 429, 500) },
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
    responses: { 200: ShipmentResponse, ...pickErrors(400, 401, 403, 404, 409, 429, 500) },
    metadata: keyRoute('orders', 'not_found'),
    summary: 'Cancel a shipment',
    description:
      'Sets cancelled_on and delivery_status Cancelled, keeps the tracking history and stops polling. Cancelling ' +
      'twice succeeds. 409 while an open claim names this shipment or the whole order. Test keys answer 404.',
  },
});
