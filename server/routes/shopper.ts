// The claim page's API (contract/shopper): thin handlers over domain/claims/shopper-claims.ts, the claim
// page settings, and the one createClaim.
import { setTimeout as sleep } from 'node:timers/promises';
import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { shopperContract, type ShopperClaim, type ShopperStore } from '../../contract/shopper/index.js';
import { logoPath } from '../domain/claims/claim-page-payload.js';
import type { AppDeps } from '../deps.js';
import { claimPageSettings, storeLogo, type ClaimPageSettings } from '../domain/claims/claim-page.js';
import { readClaimPhoto, uploadClaimPhoto } from '../domain/claims/claim-photos.js';
import { recordAudit } from '../domain/access/audit.js';
import { AppError } from '../domain/kernel/errors.js';
import {
  fileShopperClaim,
  findOrderForShopper,
  NO_MATCHING_ORDER,
  recordOrderFound,
  sessionOrderId,
  shopperActor,
  shopperClaimView,
  shopperOrderView,
  type ParcelItem,
} from '../domain/claims/shopper-claims.js';
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
  const claimAnswer = async (req: Parameters<typeof shopperOf>[0], slug: string, claimId: string): Promise<z.input<typeof ShopperClaim>> => {
    const view = await shopperClaimView(db, shopperOf(req).session, slug, claimId);
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
      history: view.history.map((change) => ({ status: change.status, note: change.note, changed_on: change.changedOn.toISOString() })),
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
        const settings = await claimPageSettings(db, { slug: params.store_slug });
        await rateLimiting?.countOrderLookup(settings.storeId, body.order_number, req.ip ?? 'unknown', res);
        const orderId = await findOrderForShopper(db, settings.storeId, body.order_number, body.email);
        if (orderId === null) throw new AppError('not_found', NO_MATCHING_ORDER);
        const now = clock.now();
        const session = await shopperSessions.issue({ storeId: settings.storeId, orderId }, now);
        await recordOrderFound(db, session, now);
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
      const { session, token } = shopperOf(req);
      const view = await shopperOrderView(db, session, params.store_slug, clock.now());
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
          claims: view.claims.map((claim) => ({ id: claim.id, reason: claim.reason, status: claim.status, tracking_number: claim.trackingNumber, created_on: claim.createdOn.toISOString() })),
          session: { csrf_token: await shopperSessions.csrfTokenOf(token), expires_at: session.expiresAt.toISOString() },
        },
      };
    },
    uploadPhoto: async ({ params, req }) => {
      const { session } = shopperOf(req);
      const target = await sessionOrderId(db, session, params.store_slug);
      const now = clock.now();
      const photo = await uploadClaimPhoto(db, photos, target, req.rawBody ?? Buffer.alloc(0), now);
      await recordAudit(db, shopperActor(session), { storeId: target.storeId, action: 'claim.photo_uploaded', subject: { type: 'order', id: target.orderId }, details: { photo_id: photo.id }, at: now });
      return { status: 201, body: photo };
    },
    photo: async ({ params, req, res }) => {
      const target = await sessionOrderId(db, shopperOf(req).session, params.store_slug);
      const jpeg = await readClaimPhoto(db, photos, params.photo_id, { orderId: target.orderId });
      res.setHeader('Cache-Control', 'private, no-store');
      return { status: 200, body: jpeg };
    },
    fileClaim: async ({ params, body, req }) => {
      const claimId = await fileShopperClaim(
        db,
        shopperOf(req).session,
        params.store_slug,
        { trackingNumber: body.tracking_number, reason: body.reason, description: body.description, items: body.items, photoIds: body.photo_ids },
        clock.now(),
      );
      return { status: 201, body: await claimAnswer(req, params.store_slug, claimId) };
    },
    claim: async ({ params, req }) => ({ status: 200, body: await claimAnswer(req, params.store_slug, params.claim_id) }),
  });
};
