// The shoppers' claim page's own contract (docs/shopper-claims.md): served under
// /shopper/api/stores/{store_slug}/, for the page at /claims/{store_slug}. No key and no account: a
// shopper finds their order by its number and email, which opens a short signed session for that
// one order. Not part of the merchant openapi.json; the server's shopper routes and the web app
// (web/claims) both derive from it.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { CLAIM_REASONS, CLAIM_STATUSES, ClaimResolution } from '../claims.js';
import { DateTime, string, text, oneOf } from '../common.js';
import { pickErrors } from '../errors.js';
import { shopperLookupRoute, shopperRoute, shopperSessionRoute } from '../policy.js';
import { DeliveryStatusSchema, TrackingNumber } from '../shipments.js';
import { SLUG_PATTERN, SLUG_RULE } from '../slug.js';

const c = initContract();

/** The session cookie: HttpOnly, SameSite=Strict, scoped to one store's shopper API path. */
export const SHOPPER_SESSION_COOKIE = 'op_shopper_session';
/** The header every shopper change carries: the session's CSRF token. */
export const SHOPPER_CSRF_HEADER = 'X-CSRF-Token';
/** How long a session lasts from the lookup that opened it (not extended by use). */
export const SHOPPER_SESSION_MINUTES = 30;
/** Photos of a damaged parcel: at most this many per claim, each at most PHOTO_MAX_BYTES. */
export const MAX_CLAIM_PHOTOS = 5;
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/**
 * The claim windows of a store that set none (docs/shopper-claims.md): a parcel may be reported
 * lost after 7 days without a carrier scan; damage, missing items and theft up to 30 days after delivery.
 */
export const DEFAULT_CLAIM_WINDOWS = { lost_after_days: 7, after_delivery_days: 30 } as const;
/** The claim page's accent colour when the store chose none. */
export const DEFAULT_ACCENT_COLOR = '#2450c7';
/** What the page accepts; the server judges the type from the bytes, never from the name or header. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Where a store's shopper API lives: the session cookie's Path. */
export const shopperApiBase = (storeSlug: string) => `/shopper/api/stores/${storeSlug}`;
/** A store logo's URL, naming its version so a new logo is never served from a cache. */
export const storeLogoUrl = (storeSlug: string, version: string) => `${shopperApiBase(storeSlug)}/logo?v=${version}`;

const StoreSlug = z.object({ store_slug: string(100, z.string().regex(SLUG_PATTERN, SLUG_RULE)) });
const ClaimReason = oneOf(CLAIM_REASONS);

export const ShopperStore = z.object({
  name: z.string(),
  slug: z.string(),
  logo_url: z.string().nullable().describe('The store logo (served by this API), or null.'),
  accent_color: z.string().nullable().describe('#rrggbb, or null for the default.'),
  support_email: z.string().nullable().describe('How a shopper reaches the store, or null.'),
  support_url: z.string().nullable(),
  claim_windows: z.object({
    lost_after_days: z.number().int().describe('A parcel may be reported lost this many days after its last carrier scan.'),
    after_delivery_days: z.number().int().describe('Damaged, missing items and stolen: up to this many days after delivery.'),
  }),
});

export const LookupRequest = z.object({
  order_number: text(255, 'The order number the store showed (its confirmation email has it).'),
  email: string(254, z.string().trim().min(1, 'must not be empty'), { description: 'The email the order was placed with.' }),
});

export const ShopperSession = z.object({
  csrf_token: z.string().describe(`Send it as ${SHOPPER_CSRF_HEADER} with every change.`),
  expires_at: DateTime,
});

/** Whether a reason may be filed on a shipment now, and when that changes, in words. */
const ClaimWindow = z.object({
  reason: ClaimReason,
  open: z.boolean(),
  opens_on: DateTime.nullable().describe('When a closed window will open (lost: days after the last scan), or null.'),
  closes_on: DateTime.nullable().describe('When an open window closes, or closed, or null when it does not.'),
  explanation: z.string().describe('Why it is open or closed, for the shopper.'),
});

const ShopperItem = z.object({ source_id: z.string(), name: z.string(), quantity: z.number().int() });

export const ShopperShipment = z.object({
  tracking_number: z.string(),
  carrier: z.string().describe('The carrier by name, or "Unknown carrier".'),
  tracking_url: z.string().nullable(),
  status: DeliveryStatusSchema,
  expected_delivery_date: z.string().nullable(),
  delivered_on: DateTime.nullable(),
  items: z.array(ShopperItem).describe('What this parcel carries (the whole order when the store did not say).'),
  checkpoints: z
    .array(z.object({ status: DeliveryStatusSchema, message: z.string(), location: z.string().nullable(), occurred_at: DateTime }))
    .describe('Carrier scans, newest first.'),
  open_claim_id: z.string().nullable().describe('The open claim on this parcel, if any: one at a time.'),
  claim_windows: z.array(ClaimWindow),
});

export const ShopperClaimSummary = z.object({
  id: z.string(),
  reference: z.string().describe("The claim's reference, to quote to the store."),
  reason: ClaimReason,
  status: z.enum(CLAIM_STATUSES),
  tracking_number: z.string().nullable(),
  created_on: DateTime,
});

export const ShopperOrder = z.object({
  store: ShopperStore,
  order_number: z.string(),
  placed_on: DateTime,
  status: z.enum(['active', 'cancelled']),
  protected: z.boolean().describe('Whether the shopper bought shipment protection; only then can they file.'),
  items: z.array(ShopperItem),
  shipments: z.array(ShopperShipment),
  claims: z.array(ShopperClaimSummary),
  session: ShopperSession,
});

export const ShopperClaimRequest = z.object({
  tracking_number: TrackingNumber.describe('The parcel the claim is about.'),
  reason: ClaimReason,
  description: string(5000, z.string().trim().min(1, 'must not be empty'), { description: 'What happened.' }),
  items: z
    .array(
      z.object({
        source_id: text(255),
        quantity: z.number({ invalid_type_error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'),
      }),
    )
    .max(1000, 'must have at most 1000 items')
    .describe('The affected items; empty for the whole parcel.'),
  photo_ids: z.array(z.string().uuid('must be an uploaded photo id')).max(MAX_CLAIM_PHOTOS, `must have at most ${MAX_CLAIM_PHOTOS} photos`),
});

export const ShopperPhoto = z.object({
  id: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
});

export const ShopperClaim = z.object({
  id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  reason: ClaimReason,
  description: z.string().nullable(),
  items: z.array(ShopperItem),
  photos: z.array(ShopperPhoto),
  status: z.enum(CLAIM_STATUSES),
  created_on: DateTime,
  reference: z.string().describe('The claim\'s reference, to quote to the store (CLM-7K3Q9D).'),
  amount_claimed: z.number().describe('What the claim is worth, in USD.'),
  resolution: ClaimResolution.nullable().describe('How the store makes it good, once approved.'),
  paid: z.object({ amount: z.number().describe('In USD.'), paid_on: DateTime }).nullable().describe('What the store paid out, once paid.'),
  history: z.array(
    z.object({
      status: z.enum(CLAIM_STATUSES),
      note: z.string().nullable().describe("The store's note, when it gave one."),
      changed_on: DateTime,
      automatic: z.boolean().describe("Decided by the store's claim rules, not by a person."),
    }),
  ),
});

export const shopperContract = c.router(
  {
    store: {
      method: 'GET',
      path: '/shopper/api/stores/:store_slug',
      pathParams: StoreSlug,
      responses: { 200: ShopperStore, ...pickErrors(400, 404, 429, 500) },
      metadata: shopperRoute,
      summary: "The store's name, branding, contact and claim windows",
    },
    logo: {
      method: 'GET',
      path: '/shopper/api/stores/:store_slug/logo',
      pathParams: StoreSlug,
      responses: { 200: c.otherResponse({ contentType: 'image/png', body: z.unknown() }), ...pickErrors(400, 404, 429, 500) },
      metadata: shopperRoute,
      summary: "The store's logo (PNG)",
    },
    lookup: {
      method: 'POST',
      path: '/shopper/api/stores/:store_slug/lookup',
      pathParams: StoreSlug,
      body: LookupRequest,
      responses: { 200: ShopperSession, ...pickErrors(400, 403, 404, 429, 500) },
      metadata: shopperLookupRoute,
      summary: 'Find an order by its number and email: opens a session for that order',
      description: 'An unknown number and a wrong email get the same 404, in the same time.',
    },
    logout: {
      method: 'POST',
      path: '/shopper/api/stores/:store_slug/logout',
      pathParams: StoreSlug,
      body: c.noBody(),
      responses: { 204: c.noBody(), ...pickErrors(403, 429, 500) },
      metadata: shopperRoute,
      summary: 'End the session',
    },
    order: {
      method: 'GET',
      path: '/shopper/api/stores/:store_slug/order',
      pathParams: StoreSlug,
      responses: { 200: ShopperOrder, ...pickErrors(400, 401, 404, 429, 500) },
      metadata: shopperSessionRoute,
      summary: "The session's order: its parcels, their tracking, and its claims",
    },
    uploadPhoto: {
      method: 'POST',
      path: '/shopper/api/stores/:store_slug/photos',
      pathParams: StoreSlug,
      body: c.type<Blob>(),
      responses: { 201: ShopperPhoto, ...pickErrors(400, 401, 403, 404, 409, 413, 429, 500) },
      metadata: { ...shopperSessionRoute, body: 'image' },
      summary: `Upload one photo (JPEG, PNG or WebP, at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB) for a claim`,
      description: 'The body is the image itself. Its type is judged from its bytes; metadata (location, camera) is removed.',
    },
    photo: {
      method: 'GET',
      path: '/shopper/api/stores/:store_slug/photos/:photo_id',
      pathParams: StoreSlug.extend({ photo_id: z.string().uuid('must be a photo id') }),
      responses: { 200: c.otherResponse({ contentType: 'image/jpeg', body: z.unknown() }), ...pickErrors(400, 401, 404, 429, 500) },
      metadata: shopperSessionRoute,
      summary: 'A photo uploaded for this order (JPEG)',
    },
    fileClaim: {
      method: 'POST',
      path: '/shopper/api/stores/:store_slug/claims',
      pathParams: StoreSlug,
      body: ShopperClaimRequest,
      responses: { 201: ShopperClaim, ...pickErrors(400, 401, 403, 404, 409, 429, 500) },
      metadata: shopperSessionRoute,
      summary: 'File a claim on a parcel of the order',
    },
    claim: {
      method: 'GET',
      path: '/shopper/api/stores/:store_slug/claims/:claim_id',
      pathParams: StoreSlug.extend({ claim_id: z.string().uuid('must be a claim id') }),
      responses: { 200: ShopperClaim, ...pickErrors(400, 401, 404, 429, 500) },
      metadata: shopperSessionRoute,
      summary: 'A claim of the order, with its history and the store’s decision',
    },
  },
  { strictStatusCodes: true },
);
export type ShopperContract = typeof shopperContract;
