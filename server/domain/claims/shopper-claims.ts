// The shopper's side of claims (docs/shopper-claims.md): finding an order by its number and email,
// what the claim page shows of it, filing through the same createClaim as the API, and following a
// claim. Every read here is confined to the one order of the shopper's session.
import { timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { Actor, StoreScope } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { claimPageSettings, type ClaimPageSettings } from './claim-page.js';
import { claimWindows, deliveredOn, type ClaimWindow } from './claim-windows.js';
import { createClaim, findClaimOfOrder, OPEN_CLAIM_STATUSES, type ClaimInput, type ClaimRecord, type ClaimStatus } from './claims.js';
import { AppError } from '../kernel/errors.js';
import { isCarrierSlug, type CarrierSlug } from '../shipments/carriers.js';
import { findStoreBySlug } from '../stores/stores.js';
import type { ShopperSession } from '../access/shopper-sessions.js';

/** The one answer to a lookup that finds nothing, whatever the reason. */
export const NO_MATCHING_ORDER = 'No order matches that order number and email. Check both against your order confirmation.';

/** What an HMAC-SHA256 is compared with when the number names no order: the same work either way. */
const NO_HASH = Buffer.alloc(32);

/**
 * The order a shopper means, or null. One statement whatever the input: the presented email's keyed
 * hash (the same one the orders keep, computed by the database) and every order of the store with
 * that number, compared in constant time, with a stand-in when there is none. An order whose
 * personal data was erased has no hash, so it is never found.
 */
export async function findOrderForShopper(db: Database, storeId: string, orderNumber: string, email: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ presented: Uint8Array | null; id: string | null; stored: Uint8Array | null }>>`
    SELECT email_lookup_hash(${email}) AS presented, o.id::text AS id, o.customer_email_lookup AS stored
      FROM (SELECT 1) AS one
      LEFT JOIN orders o ON o.store_id = ${storeId}::uuid AND o.source_order_number = ${orderNumber.trim()}
     ORDER BY o.created_on DESC NULLS LAST`;
  const presented = Buffer.from(rows[0]?.presented ?? NO_HASH);
  let found: string | null = null;
  for (const row of rows) {
    const stored = row.stored === null ? NO_HASH : Buffer.from(row.stored);
    const matches = stored.length === presented.length && timingSafeEqual(stored, presented) && row.stored !== null;
    if (matches && found === null && row.id !== null) found = row.id;
  }
  return found;
}

/** Records a successful lookup, for the store's audit log (the shopper is named by the order). */
export async function recordOrderFound(db: Database, session: Pick<ShopperSession, 'storeId' | 'orderId'>, now: Date): Promise<void> {
  await recordAudit(db, shopperActor(session), { storeId: session.storeId, action: 'shopper.order_found', subject: { type: 'order', id: session.orderId }, at: now });
}

export const shopperActor = (session: Pick<ShopperSession, 'orderId'>): Extract<Actor, { kind: 'shopper' }> => ({ kind: 'shopper', orderId: session.orderId });

const sessionEnded = () => new AppError('unauthorized', 'Your session has ended. Look up your order again.');

/**
 * The session's order, still holding its shopper's email (an erasure ends every session on it),
 * in the store the URL names: a session of one store is worth nothing at another.
 */
const sessionOrderWhere = (session: ShopperSession, storeSlug: string) =>
  ({ id: session.orderId, storeId: session.storeId, store: { slug: storeSlug }, customerEmailLookup: { not: null } }) as const;

/** The session's order as the claim page shows it: its lines, its parcels with their scans, its claims. */
async function sessionOrder(db: Database, session: ShopperSession, storeSlug: string) {
  const order = await db.order.findFirst({
    where: sessionOrderWhere(session, storeSlug),
    include: {
      lineItems: { orderBy: { position: 'asc' } },
      shipments: { where: { cancelledOn: null }, orderBy: [{ createdOn: 'asc' }, { id: 'asc' }], include: { checkpoints: { orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }] } } },
      claims: { orderBy: [{ createdOn: 'asc' }, { id: 'asc' }], include: { shipment: { select: { trackingNumber: true } } } },
    },
  });
  if (order === null) throw sessionEnded();
  return order;
}

type SessionOrder = Awaited<ReturnType<typeof sessionOrder>>;

const CARRIER_NAMES: Record<CarrierSlug, string> = {
  ups: 'UPS',
  usps: 'USPS',
  fedex: 'FedEx',
  dhl: 'DHL',
  ontrac: 'OnTrac',
  lasership: 'LaserShip',
  amazon: 'Amazon Logistics',
  canada_post: 'Canada Post',
  purolator: 'Purolator',
  s10: 'Postal service (international)',
  dpd: 'DPD',
  canpar: 'Canpar',
  speedee: 'Spee-Dee',
  yodel: 'Yodel',
  landmark: 'Landmark Global',
  old_dominion: 'Old Dominion',
  yunexpress: 'YunExpress',
  gofo: 'GOFO',
};

export const carrierName = (courier: string) => (isCarrierSlug(courier) ? CARRIER_NAMES[courier] : 'Unknown carrier');

export interface ParcelItem {
  sourceId: string;
  name: string;
  quantity: number;
}

/** What a parcel carries: its line items as the store said, its products, or else the whole order. */
function parcelItems(order: SessionOrder, shipment: SessionOrder['shipments'][number]): ParcelItem[] {
  const lines = order.lineItems;
  const declared = (shipment.lineItems as Array<{ source_id: string; quantity: number }> | null) ?? [];
  if (declared.length > 0) {
    return declared.flatMap((part) => {
      const line = lines.find((candidate) => candidate.sourceId === part.source_id);
      return line === undefined ? [] : [{ sourceId: line.sourceId, name: line.name, quantity: part.quantity }];
    });
  }
  const products = shipment.sourceProductIds.length > 0 ? lines.filter((line) => line.sourceProductId !== null && shipment.sourceProductIds.includes(line.sourceProductId)) : [];
  return (products.length > 0 ? products : lines).map((line) => ({ sourceId: line.sourceId, name: line.name, quantity: line.quantity }));
}

export interface ShopperParcel {
  trackingNumber: string;
  carrier: string;
  trackingUrl: string | null;
  status: SessionOrder['shipments'][number]['deliveryStatus'];
  expectedDeliveryDate: Date | null;
  deliveredOn: Date | null;
  items: ParcelItem[];
  checkpoints: Array<{ status: SessionOrder['shipments'][number]['deliveryStatus']; message: string; location: string | null; occurredAt: Date }>;
  openClaimId: string | null;
  windows: ClaimWindow[];
}

export interface ShopperOrderView {
  settings: ClaimPageSettings;
  orderNumber: string;
  placedOn: Date;
  status: 'active' | 'cancelled';
  protected: boolean;
  items: ParcelItem[];
  parcels: ShopperParcel[];
  claims: Array<{ id: string; reason: ClaimRecord['reason']; status: ClaimStatus; trackingNumber: string | null; createdOn: Date }>;
}

const placeOf = (checkpoint: { city: string | null; state: string | null; country: string | null }) => {
  const parts = [checkpoint.city, checkpoint.state, checkpoint.country].filter((part): part is string => part !== null && part !== '');
  return parts.length === 0 ? null : parts.join(', ');
};

export async function shopperOrderView(db: Database, session: ShopperSession, storeSlug: string, now: Date): Promise<ShopperOrderView> {
  const order = await sessionOrder(db, session, storeSlug);
  const settings = await claimPageSettings(db, { id: order.storeId });
  const openClaims = order.claims.filter((claim) => OPEN_CLAIM_STATUSES.includes(claim.status));
  return {
    settings,
    orderNumber: order.sourceOrderNumber,
    placedOn: order.sourceCreatedOn,
    status: order.status === 'cancelled' ? 'cancelled' : 'active',
    protected: order.insuranceSelected,
    items: order.lineItems.map((line) => ({ sourceId: line.sourceId, name: line.name, quantity: line.quantity })),
    parcels: order.shipments.map((shipment) => ({
      trackingNumber: shipment.trackingNumber,
      carrier: carrierName(shipment.courier),
      trackingUrl: shipment.trackingUrl,
      status: shipment.deliveryStatus,
      expectedDeliveryDate: shipment.expectedDeliveryDate,
      deliveredOn: deliveredOn(shipment),
      items: parcelItems(order, shipment),
      checkpoints: shipment.checkpoints.map((checkpoint) => ({ status: checkpoint.status, message: checkpoint.message, location: placeOf(checkpoint), occurredAt: checkpoint.occurredAt })),
      openClaimId: openClaims.find((claim) => claim.shipmentId === shipment.id)?.id ?? null,
      windows: claimWindows(shipment, settings.windows, now),
    })),
    claims: order.claims.map((claim) => ({ id: claim.id, reason: claim.reason, status: claim.status, trackingNumber: claim.shipment?.trackingNumber ?? null, createdOn: claim.createdOn })),
  };
}

export interface ShopperClaimFiling {
  trackingNumber: string;
  reason: ClaimRecord['reason'];
  description: string;
  items: Array<{ source_id: string; quantity: number }>;
  photoIds: readonly string[];
}

/** Files the shopper's claim through the one createClaim, as the shopper. */
export async function fileShopperClaim(db: Database, session: ShopperSession, storeSlug: string, filing: ShopperClaimFiling, now: Date): Promise<string> {
  const order = await sessionOrderRef(db, session, storeSlug);
  const store = await findStoreBySlug(db, storeSlug);
  const scope: StoreScope = { store, actor: shopperActor(session), mode: 'live' };
  const input: ClaimInput = {
    source_order_id: order.sourceOrderId,
    tracking_number: filing.trackingNumber,
    reason: filing.reason,
    description: filing.description,
    items: filing.items,
  };
  const claim = await createClaim(db, scope, input, now, { photoIds: filing.photoIds });
  return claim.id;
}

export interface ShopperClaimView {
  claim: ClaimRecord;
  orderNumber: string;
  items: ParcelItem[];
  history: Array<{ status: ClaimStatus; note: string | null; changedOn: Date }>;
}

/** A claim of the session's order, with its history (the store's notes included, never who wrote them). */
export async function shopperClaimView(db: Database, session: ShopperSession, storeSlug: string, claimId: string): Promise<ShopperClaimView> {
  const order = await sessionOrderRef(db, session, storeSlug);
  const claim = await findClaimOfOrder(db, order.id, claimId);
  if (claim === null) throw new AppError('not_found', 'No such claim on this order.');
  const history = await db.claimStatusChange.findMany({ where: { claimId }, orderBy: { id: 'asc' } });
  const names = new Map(order.lineItems.map((line) => [line.sourceId, line.name]));
  return {
    claim,
    orderNumber: order.sourceOrderNumber,
    items: claim.items.map((item) => ({ sourceId: item.source_id, name: names.get(item.source_id) ?? item.source_id, quantity: item.quantity })),
    history: history.map((change) => ({ status: change.toStatus, note: change.note, changedOn: change.createdAt })),
  };
}

/**
 * The session's order without its parcels and claims: what filing and a claim's page need (the
 * order page's read carries everything, and is needed only there).
 */
async function sessionOrderRef(db: Database, session: ShopperSession, storeSlug: string) {
  const order = await db.order.findFirst({
    where: sessionOrderWhere(session, storeSlug),
    select: { id: true, storeId: true, sourceOrderId: true, sourceOrderNumber: true, lineItems: { select: { sourceId: true, name: true } } },
  });
  if (order === null) throw sessionEnded();
  return order;
}

/** The session's order id, checked against the store the URL names (uploads and photo reads). */
export async function sessionOrderId(db: Database, session: ShopperSession, storeSlug: string): Promise<{ storeId: string; orderId: string }> {
  const order = await db.order.findFirst({ where: sessionOrderWhere(session, storeSlug), select: { id: true, storeId: true } });
  if (order === null) throw sessionEnded();
  return { storeId: order.storeId, orderId: order.id };
}
