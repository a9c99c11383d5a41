// The claim page's API (contract/shopper): thin handlers over domain/claims/shopper-claims.ts, the claim
// page settings, and the one fileClaim.
import { setTimeout as sleep } from 'node:timers/promises';
import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { centsToMajorNumber } from '../../contract/money.js';
import { shopperContract, type ShopperClaim, type ShopperStore } from '../../contract/shopper/index.js';
import type { AppDeps } from '../deps.js';
import {
  assertShopperOrder,
  logoPath,
  claimPageSettings,
  fileShopperClaim,
  findOrderForShopper,
  NO_MATCHING_ORDER,
  orderNumberKey,
  readClaimPhoto,
  recordOrderFound,
  shopperClaimView,
  shopperOrderView,
  storeLogo,
  uploadClaimPhoto,
  type ClaimPageSettings,
  type ParcelItem,
} from '../domain/claims/index.js';
import { AppError } from '../domain/kernel/index.js';
import { findStoreBySlug } from '../domain/stores/index.js';
import { setShopperCookie, shopperOf } from '../http/shopper-session.js';

const s = initServer();


export function toShopperStore(settings: ClaimPageSettings): z.input<typeof ShopperStore> {
  return {
    name: settings.name,
    slug: settings.slug,
    logo_url: logoPath(settings),
    accent_color: settings.accentColor,
    support_email: settings.supportEmail,
    support_url: settings.supportUrl,
    claim_windows: { lost_after_days: settings.windows.lostAfterDays, after_delivery_days: settings.windows.afterDeliveryDays },
  };
}

const toItem = (item: ParcelItem) => ({ source_id: item.sourceId, name: item.name, quantity: item.quantity });
const iso = (date: Date | null) => date?.toISOString() ?? null;

export const shopperRouter = ({ db, clock, photos, shopperSessions, rateLimiting, shopperLookupFloorMs }: AppDeps) => {
  const claimAnswer = async (req: Parameters<typeof shopperOf>[0], claimId: string): Promise<z.input<typeof ShopperClaim>> => {
    const view = await shopperClaimView(db, shopperOf(req).scope, claimId, clock.now());
    return {
      id: view.claim.id,
      order_number: view.orderNumber,
      tracking_number: view.claim.trackingNumber,
      reason: view.claim.reason,
      description: view.claim.description,
      items: view.items.map(toItem),
      photos: view.claim.photos,
      status: view.claim.status,
      created_on: view.claim.createdOn.toISOString(),
      reference: view.claim.reference,
      amount_claimed: centsToMajorNumber(view.claim.amountClaimedCents),
      resolution:
        view.claim.resolution === null
          ? null
          : { type: view.claim.resolution.type, amount: centsToMajorNumber(view.claim.resolution.amountCents), note: view.claim.resolution.note },
      // What was paid, never the store's own reference for it.
      paid: view.claim.payout === null ? null : { amount: centsToMajorNumber(view.claim.payout.amountCents), paid_on: view.claim.payout.paidOn.toISOString() },
      history: view.history.map((change) => ({ status: change.status, note: change.note, changed_on: change.changedOn.toISOString(), automatic: change.automatic })),
    };
  };

  return s.router(shopperContract, {
    store: async ({ params }) => ({ status: 200, body: toShopperStore(await claimPageSettings(db, { slug: params.store_slug })) }),
    logo: async ({ params, res }) => {
      const png = await storeLogo(db, params.store_slug);
      // Its URL names its version, so a browser may keep it; the middleware's no-store is for personal data.
      res.setHeader('Cache-Control', 'public, max-age=86400');
      return { status: 200, body: png };
    },
    lookup: async ({ params, body, req, res }) => {
      const started = Date.now();
      try {
        const store = await findStoreBySlug(db, params.store_slug).catch((error: unknown) => {
          throw error instanceof AppError && error.code === 'not_found' ? new AppError('not_found', 'No such store.') : error;
        });
        // Counted per number as the lookup reads it: "#1002" and " 1002" are the same order's tries.
        await rateLimiting?.countOrderLookup(store.id, orderNumberKey(body.order_number), req.ip ?? 'unknown', res);
        const orderId = await findOrderForShopper(db, store.id, body.order_number, body.email);
        if (orderId === null) throw new AppError('not_found', NO_MATCHING_ORDER);
        const now = clock.now();
        const session = await shopperSessions.issue({ storeId: store.id, orderId }, now);
        await recordOrderFound(db, { store, actor: { kind: 'shopper', orderId }, mode: 'live' }, now);
        setShopperCookie(req, res, params.store_slug, session);
        return { status: 200, body: { csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() } };
      } finally {
        // Found or not, the answer leaves no sooner than the floor: its timing tells nothing.
        const left = shopperLookupFloorMs - (Date.now() - started);
        if (left > 0) await sleep(left);
      }
    },
    logout: async ({ params, req, res }) => {
      setShopperCookie(req, res, params.store_slug, null);
      return { status: 204, body: undefined };
    },
    order: async ({ params, req }) => {
      const { session, token, scope } = shopperOf(req);
      const view = await shopperOrderView(db, scope, clock.now());
      return {
        status: 200,
        body: {
          store: toShopperStore(view.settings),
          order_number: view.orderNumber,
          placed_on: view.placedOn.toISOString(),
          status: view.status,
          protected: view.protected,
          items: view.items.map(toItem),
          shipments: view.parcels.map((parcel) => ({
            tracking_number: parcel.trackingNumber,
            carrier: parcel.carrier,
            tracking_url: parcel.trackingUrl,
            status: parcel.status,
            expected_delivery_date: parcel.expectedDeliveryDate?.toISOString().slice(0, 10) ?? null,
            delivered_on: iso(parcel.deliveredOn),
            items: parcel.items.map(toItem),
            checkpoints: parcel.checkpoints.map((checkpoint) => ({ status: checkpoint.status, message: checkpoint.message, location: checkpoint.location, occurred_at: checkpoint.occurredAt.toISOString() })),
            open_claim_id: parcel.openClaimId,
            claim_windows: parcel.windows.map((window) => ({
              reason: window.reason,
              open: window.open,
              opens_on: iso(window.opensOn),
              closes_on: iso(window.closesOn),
              explanation: window.explanation,
            })),
          })),
          claims: view.claims.map((claim) => ({ id: claim.id, reference: claim.reference, reason: claim.reason, status: claim.status, tracking_number: claim.trackingNumber, created_on: claim.createdOn.toISOString() })),
          session: { csrf_token: await shopperSessions.csrfTokenOf(token), expires_at: session.expiresAt.toISOString() },
        },
      };
    },
    uploadPhoto: async ({ req }) => {
      const { scope } = shopperOf(req);
      await assertShopperOrder(db, scope);
      const photo = await uploadClaimPhoto(db, scope, photos, req.rawBody ?? Buffer.alloc(0), clock.now());
      return { status: 201, body: photo };
    },
    photo: async ({ params, req, res }) => {
      const { scope } = shopperOf(req);
      await assertShopperOrder(db, scope);
      const jpeg = await readClaimPhoto(db, photos, params.photo_id, { orderId: scope.actor.orderId });
      res.setHeader('Cache-Control', 'private, no-store');
      return { status: 200, body: jpeg };
    },
    fileClaim: async ({ params, body, req }) => {
      const claimId = await fileShopperClaim(
        db,
        shopperOf(req).scope,
        { trackingNumber: body.tracking_number, reason: body.reason, description: body.description, items: body.items, photoIds: body.photo_ids },
        clock.now(),
      );
      return { status: 201, body: await claimAnswer(req, claimId) };
    },
    claim: async ({ params, req }) => ({ status: 200, body: await claimAnswer(req, params.claim_id) }),
  });
};
