// Claims (README, Concepts, "Claims"): a shopper's claim on a protected order. An open claim blocks
// cancelling the order and the shipment it names.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string, text, oneOf } from './common.js';
import { keyRoute } from './policy.js';
import { pickErrors } from './errors.js';
import { RestAmountOut, restAmount } from './money.js';
import { DELIVERY_STATUSES, TrackingNumber } from './shipments.js';

const c = initContract();

export const CLAIM_REASONS = ['lost', 'damaged', 'stolen', 'missing_items', 'wrong_address', 'other'] as const;
export const CLAIM_STATUSES = ['open', 'in_review', 'approved', 'denied', 'paid', 'closed'] as const;
/** Where a claim was filed: the merchant's API, the shoppers' claim page, or the operator's CLI. */
export const CLAIM_CHANNELS = ['api', 'shopper_page', 'cli'] as const;
/** How an approved claim is made good: money back, the goods sent again, or credit at the store. */
export const RESOLUTION_TYPES = ['refund', 'reorder', 'store_credit'] as const;
/** A claim's reference: CLM- and six of these characters (no 0, O, 1, I or L, so it reads aloud). */
export const CLAIM_REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const CLAIM_REFERENCE_PATTERN = /^CLM-[0-9A-Z]{6}$/;
/** Who changed a claim's status; rule is a store's claim rule deciding on its own. */
export const CLAIM_ACTOR_KINDS = ['api_key', 'platform', 'console_user', 'operator', 'system', 'shopper', 'rule'] as const;
/** The address verdicts, as POST /v1/addresses/verify answers them. */
export const ADDRESS_VERDICTS = ['deliverable', 'corrected', 'unit_required', 'undeliverable', 'unknown'] as const;

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
    reason: oneOf(CLAIM_REASONS).describe('What went wrong.'),
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


// Inline rather than named components: OpenAPI 3.0 ignores nullable beside a $ref, and both are null
// until the claim is decided.
export const ClaimResolution = z.object({
  type: z.enum(RESOLUTION_TYPES).describe('refund, reorder (the goods sent again) or store_credit.'),
  amount: RestAmountOut.describe('What the resolution is worth, in major units; a refund or store credit is at most amount_claimed.'),
  note: z.string().nullable().describe('What the merchant told the shopper, or null.'),
});

export const ClaimPayout = z.object({
  amount: RestAmountOut.describe("What the merchant actually paid out, at most the resolution's amount."),
  paid_on: DateTime.describe('When it was paid.'),
  reference: z.string().nullable().describe("The merchant's own reference (a refund id, a gift card number), or null."),
});

export const ClaimEvidence = extendApi(
  z.object({
    delivery_status: z.enum(DELIVERY_STATUSES).nullable().describe('The claimed parcel\'s status (the worst of the order\'s parcels for a whole-order claim), or null when the order has none.'),
    last_scan_at: DateTime.nullable().describe("When the carrier last scanned that parcel, or null before any scan."),
    days_without_scan: z.number().int().nullable().describe('Whole days since the last scan (or since the parcel was registered, before any scan); null without a parcel.'),
    delivered_at: DateTime.nullable().describe('When the carrier marked it delivered, or null.'),
    within_window: z.boolean().nullable().describe("Whether it was filed inside the store's claim window for its reason; null without a parcel to judge by."),
    photos: z.number().int().describe('Photos that came with the claim.'),
    prior_claims: z.number().int().describe("The same shopper's other claims at this store in the 365 days before this one, matched by the keyed hash of their email (erased orders do not count)."),
    address_verdict: z.enum(ADDRESS_VERDICTS).nullable().describe("The verification verdict of the order's shipping address, when it was verified and the answer is still kept; else null."),
  }),
  { title: 'ClaimEvidence', description: 'Computed from what the service holds, never typed in.' },
);

/** The evidence a rule read, as its history entry records it. */
export type ClaimEvidenceValues = z.infer<typeof ClaimEvidence>;

export const ClaimHistoryEntry = extendApi(
  z.object({
    from_status: z.enum(CLAIM_STATUSES).nullable().describe('null for the filing.'),
    to_status: z.enum(CLAIM_STATUSES),
    note: z.string().nullable(),
    changed_on: DateTime,
    by: z
      .object({
        kind: z.enum(CLAIM_ACTOR_KINDS).describe('Who changed it: a person (console_user), an API key, a rule, the shopper, the operator, a platform or the service.'),
        id: z.string().nullable().describe("The key's, user's or order's id, the platform's slug, the operator's name, the job; null for a rule."),
        rule: z
          .object({
            name: z.string(),
            version: z.number().int().describe('The version of the store\'s rule set it belongs to.'),
            // The component itself (describe would copy it inline): the evidence it read when it decided.
            evidence: ClaimEvidence,
          })
          .nullable()
          .describe('For an automatic decision: the rule, its version and the evidence it read.'),
      })
      .nullable()
      .describe('null for changes recorded before actors were.'),
  }),
  { title: 'ClaimHistoryEntry' },
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
    reference: z.string().describe('Short, unique within the store, easy to read aloud (CLM-7K3Q9D); the shopper sees it.'),
    amount_claimed: RestAmountOut.describe("Units claimed times unit price (every covered line for a whole-order claim), in major units."),
    currency: z.literal('USD').describe('Always USD.'),
    resolution: ClaimResolution.nullable().describe('How it was made good, once approved; else null.'),
    payout: ClaimPayout.nullable().describe('What was paid out, once paid; else null.'),
    evidence: ClaimEvidence,
    history: z.array(ClaimHistoryEntry).describe('Every status change, oldest first, the filing included.'),
  }),
  { title: 'ClaimResponse' },
);

export const ClaimList = extendApi(z.object({ data: z.array(ClaimResponse).describe('The claims found, oldest first.') }), {
  title: 'ClaimList',
});

/** At least one: both narrow to the order's claim with that reference; neither is a 400 naming both. */
export const ClaimListQuery = z.object({
  source_order_id: text(255, 'Every claim of this order.').optional(),
  reference: z.string().max(20, 'must be at most 20 characters').optional().describe('The claim with this reference (CLM-7K3Q9D), in any case.'),
});

/** An upper bound on what a claim's decision may carry as text. */
const DECISION_NOTE_MAX = 2000;

export const ClaimResolutionRequest = z
  .object({
    type: oneOf(RESOLUTION_TYPES).describe('refund, reorder or store_credit.'),
    amount: restAmount('What it is worth, in major units; absent means amount_claimed. A refund or store credit is at most amount_claimed.').optional(),
    note: string(DECISION_NOTE_MAX).optional().describe('What to tell the shopper.'),
  })
  .strict();

export const ClaimPayoutRequest = z
  .object({
    amount: restAmount("What was paid out, in major units; at most the resolution's amount."),
    paid_on: DateTime.optional().describe('When it was paid; absent means now.'),
    reference: text(255, "The merchant's own reference, e.g. a refund id.").optional(),
  })
  .strict();

export const ClaimStatusRequest = extendApi(
  z
    .object({
      status: oneOf(CLAIM_STATUSES).describe('The next status: open -> in_review -> approved -> paid -> closed, or denied.'),
      note: string(DECISION_NOTE_MAX).optional().describe('Why, for the history (the shopper sees it).'),
      resolution: ClaimResolutionRequest.optional().describe('Required to approve.'),
      payout: ClaimPayoutRequest.optional().describe('Required to mark paid.'),
    })
    .strict(),
  { title: 'ClaimStatusRequest', example: { status: 'approved', note: 'Lost in transit.', resolution: { type: 'refund' } } },
);

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
    query: ClaimListQuery,
    responses: { 200: ClaimList, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: "List an order's claims, or find one by reference",
    description:
      'With source_order_id: every claim of the order, oldest first (404 when the store has no such order). With ' +
      'reference: the claim with that reference, or an empty list. With both, the order\'s claim with that reference. ' +
      'Send at least one. Test keys answer 404.',
  },
  setStatus: {
    method: 'POST',
    path: '/v1/claims/:id/status',
    pathParams: z.object({ id: text(100) }),
    body: ClaimStatusRequest,
    responses: { 200: ClaimResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: 'Decide a claim',
    description:
      'Moves the claim along its transitions, exactly as the console does: open -> in_review -> approved -> paid -> ' +
      'closed, or denied (denied and closed are final). approved needs a resolution, paid a payout. 409 names the ' +
      'current status when the move is not allowed; 422 when a refund or store credit is over amount_claimed, or a ' +
      "payout over the resolution's amount. Setting the current status again changes nothing. Test keys answer 404.",
  },
});
