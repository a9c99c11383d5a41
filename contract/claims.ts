// Claims (README, Concepts, "Claims"): a shopper's claim on a protected order. An open claim blocks
// cancelling the order and the shipment it names.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string, text } from './common.js';
import { keyRoute } from './policy.js';
import { pickErrors } from './errors.js';
import { TrackingNumber } from './shipments.js';

const c = initContract();

export const CLAIM_REASONS = ['lost', 'damaged', 'stolen', 'missing_items', 'wrong_address', 'other'] as const;
export const CLAIM_STATUSES = ['open', 'in_review', 'approved', 'denied', 'paid', 'closed'] as const;
/** Where a claim was filed: the merchant's API, the shoppers' claim page, or the operator's CLI. */
export const CLAIM_CHANNELS = ['api', 'shopper_page', 'cli'] as const;

const ClaimItem = z.object({
  source_id: text(255, 'source_id of a line item of the order.'),
  quantity: z
    .number({ invalid_type_error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000_000, 'must be at most 1000000')
    .describe('Units claimed, at most the quantity ordered.'),
});

export const ClaimRequest = extendApi(
  z.object({
    source_order_id: text(255, 'The protected order claimed on.'),
    tracking_number: TrackingNumber.optional().describe('A shipment of that order, when the claim is about one shipment.'),
    reason: z
      .enum(CLAIM_REASONS, { errorMap: () => ({ message: `must be one of ${CLAIM_REASONS.join(', ')}` }) })
      .describe('What went wrong.'),
    description: string(5000, z.string(), { description: 'What happened, in free text.' }).optional(),
    items: z
      .array(ClaimItem)
      .max(1000, 'must have at most 1000 items')
      .optional()
      .describe('The line items claimed, when not the whole order.'),
  }),
  {
    title: 'ClaimRequest',
    example: { source_order_id: '1001', tracking_number: '1Z999AA10123456784', reason: 'lost', description: 'Never arrived.' },
  },
);

export const ClaimResponse = extendApi(
  z.object({
    id: z.string().describe('Claim id (test-key claims start with test_).'),
    merchant_id: z.string().describe('Store id.'),
    source_order_id: z.string().describe('The order claimed on.'),
    tracking_number: z.string().nullable().describe('The shipment claimed on (normalised), or null for the whole order.'),
    reason: z.enum(CLAIM_REASONS).describe('What went wrong.'),
    description: z.string().nullable().describe('What happened, as sent, or null.'),
    items: z
      .array(
        z.object({
          source_id: z.string().describe('A line item of the order.'),
          quantity: z.number().int().describe('Units claimed.'),
        }),
      )
      .describe('The line items claimed; empty for the whole order.'),
    status: z.enum(CLAIM_STATUSES).describe('open until denied, paid or closed.'),
    channel: z.enum(CLAIM_CHANNELS).describe('Where it was filed: api, shopper_page (the claim page) or cli (the operator).'),
    photos: z
      .array(
        z.object({
          id: z.string().describe('Photo id.'),
          url: z.string().describe('Where to download it with the store\'s key (GET, image/jpeg).'),
          width: z.number().int().describe('Pixels.'),
          height: z.number().int().describe('Pixels.'),
          bytes: z.number().int().describe('Size of the JPEG.'),
        }),
      )
      .describe('Photos the shopper attached (damaged parcels), metadata removed; empty once the claim\'s texts are erased.'),
    created_on: DateTime.describe('When the claim was filed.'),
    updated_on: DateTime.describe('When it last changed.'),
    resolved_on: DateTime.nullable().describe('When it was denied, paid or closed, or null.'),
  }),
  { title: 'ClaimResponse' },
);

export const ClaimList = extendApi(z.object({ data: z.array(ClaimResponse).describe('Every claim of the order, oldest first.') }), {
  title: 'ClaimList',
});

/** The claim and photo the document's example names (the contract test seeds them). */
export const EXAMPLE_CLAIM_ID = '5b2e7c1a-8f3d-4c6b-9a0e-2d4f6b8c0e1a';
export const EXAMPLE_PHOTO_ID = '9c4a2e6f-1b3d-4e5f-8a7b-6c5d4e3f2a1b';

export const claimsContract = c.router({
  create: {
    method: 'POST',
    path: '/v1/claims',
    body: ClaimRequest,
    responses: { 201: ClaimResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
    metadata: keyRoute('other', 'simulate'),
    summary: 'File a claim',
    description:
      'Files a claim on a protected order of the store, optionally about one of its shipments and some of its line ' +
      'items. 409 when the order is cancelled or was not protected. Items must name line items of the order, with ' +
      'at most the quantity ordered. Test keys validate the body only and answer a test_ claim.',
  },
  get: {
    method: 'GET',
    path: '/v1/claims/:id',
    pathParams: z.object({ id: text(100) }),
    responses: { 200: ClaimResponse, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Read a claim',
    description: 'Test keys answer 404.',
  },
  photo: {
    method: 'GET',
    path: '/v1/claims/:id/photos/:photo_id',
    pathParams: z.object({ id: extendApi(text(100), { example: EXAMPLE_CLAIM_ID }), photo_id: extendApi(text(100), { example: EXAMPLE_PHOTO_ID }) }),
    responses: { 200: c.otherResponse({ contentType: 'image/jpeg', body: z.unknown() }), ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: "Download a claim's photo",
    description: "A photo the shopper attached, as JPEG with its metadata removed. Only the store's own keys can read it. Test keys answer 404.",
  },
  list: {
    method: 'GET',
    path: '/v1/claims',
    query: z.object({ source_order_id: text(255) }),
    responses: { 200: ClaimList, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: "List an order's claims",
    description: 'Every claim of the order, oldest first. 404 when the store has no such order. Test keys answer 404.',
  },
});
