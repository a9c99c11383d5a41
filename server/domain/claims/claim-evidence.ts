// A claim's evidence (docs/claims.md): what the service already holds about it, computed when the
// claim is read, never typed in. The claimed parcel (or the worst of the order's parcels for a
// whole-order claim) with its last scan and delivery, whether the claim was filed inside the
// store's window, its photos, the same shopper's earlier claims at the store (by the keyed hash of
// their email, never the email), and the kept verdict of the order's shipping address.
import type { ClaimEvidenceValues } from '../../../contract/claims.js';
import type { DeliveryStatus } from '../../../contract/shipments.js';
import type { Database, Transaction } from '../../db/client.js';
import { addressInputOf, keptVerdicts } from '../addresses/index.js';
import { deliveredOn, lastScanOn, type ParcelProgress } from './claim-windows.js';
import { DAY_MS } from '../kernel/index.js';

export type ClaimEvidence = Omit<ClaimEvidenceValues, 'last_scan_at' | 'delivered_at'> & { last_scan_at: Date | null; delivered_at: Date | null };

/** What evidence is computed from, per claim. */
export interface EvidenceSource {
  id: string;
  storeId: string;
  orderId: string;
  shipmentId: string | null;
  filedWithinWindow: boolean | null;
}

/** Which parcel of an order speaks for a whole-order claim: the one furthest from delivered. */
const WORSE_FIRST: Record<DeliveryStatus, number> = { Exception: 0, Active: 1, Delivered: 2, Cancelled: 3 };

type Parcel = ParcelProgress & { id: string; orderId: string };

function worstParcel(parcels: readonly Parcel[]): Parcel | null {
  return (
    [...parcels].sort(
      (a, b) => WORSE_FIRST[a.deliveryStatus] - WORSE_FIRST[b.deliveryStatus] || lastScanOn(a).getTime() - lastScanOn(b).getTime(),
    )[0] ?? null
  );
}

/** The evidence of each claim, by id, as of `now`: a few statements for any number of claims. */
export async function evidenceOfClaims(db: Database | Transaction, claims: readonly EvidenceSource[], now: Date): Promise<Map<string, ClaimEvidence>> {
  const evidence = new Map<string, ClaimEvidence>();
  if (claims.length === 0) return evidence;
  const ids = claims.map((claim) => claim.id);
  const orderIds = [...new Set(claims.map((claim) => claim.orderId))];
  const storeIds = [...new Set(claims.map((claim) => claim.storeId))];
  // One statement at a time: a transaction's connection takes no second query while one runs.
  const parcels = await db.shipment.findMany({
    where: { storeId: { in: storeIds }, orderId: { in: orderIds } },
    select: { id: true, orderId: true, deliveryStatus: true, createdOn: true, updatedOn: true, cancelledOn: true, checkpoints: { select: { status: true, occurredAt: true } } },
  });
  const photos = await db.claimPhoto.groupBy({ by: ['claimId'], where: { storeId: { in: storeIds }, claimId: { in: ids } }, _count: { _all: true } });
  const prior = await db.$queryRaw<Array<{ id: string; prior: number }>>`
    SELECT c.id::text AS id,
           (SELECT count(*) FROM claims c2 JOIN orders o2 ON o2.id = c2.order_id AND o2.store_id = c2.store_id
             WHERE o2.store_id = o.store_id AND o2.customer_email_lookup = o.customer_email_lookup AND c2.id <> c.id
               AND c2.created_on <= c.created_on AND c2.created_on > c.created_on - interval '365 days')::int AS prior
      FROM claims c JOIN orders o ON o.id = c.order_id AND o.store_id = c.store_id
     WHERE c.id = ANY (${ids}::uuid[])`;
  const orders = await db.order.findMany({ where: { id: { in: orderIds } }, select: { id: true, shippingAddress: true } });
  const addressOf = (shipping: unknown) => (shipping !== null && typeof shipping === 'object' ? addressInputOf(shipping as Parameters<typeof addressInputOf>[0]) : null);
  const verdicts = await keptVerdicts(db, orders.map((order) => addressOf(order.shippingAddress)), now);
  const verdictOf = new Map(orders.map((order, index) => [order.id, verdicts[index] ?? null]));
  const photosOf = new Map(photos.map((row) => [row.claimId, row._count._all]));
  const priorOf = new Map(prior.map((row) => [row.id, row.prior]));

  for (const claim of claims) {
    const ofOrder = parcels.filter((parcel) => parcel.orderId === claim.orderId);
    const parcel =
      claim.shipmentId === null ? worstParcel(ofOrder.filter((candidate) => candidate.cancelledOn === null)) : (ofOrder.find((candidate) => candidate.id === claim.shipmentId) ?? null);
    const lastSign = parcel === null ? null : lastScanOn(parcel);
    const scanned = parcel !== null && parcel.checkpoints.length > 0;
    evidence.set(claim.id, {
      delivery_status: parcel?.deliveryStatus ?? null,
      last_scan_at: scanned ? lastSign : null,
      days_without_scan: lastSign === null ? null : Math.max(0, Math.floor((now.getTime() - lastSign.getTime()) / DAY_MS)),
      delivered_at: parcel === null ? null : deliveredOn(parcel),
      within_window: claim.filedWithinWindow,
      photos: photosOf.get(claim.id) ?? 0,
      prior_claims: priorOf.get(claim.id) ?? 0,
      address_verdict: verdictOf.get(claim.orderId) ?? null,
    });
  }
  return evidence;
}

/** The evidence as the wire and a rule's history entry carry it. */
export function evidenceValues(evidence: ClaimEvidence): ClaimEvidenceValues {
  return { ...evidence, last_scan_at: evidence.last_scan_at?.toISOString() ?? null, delivered_at: evidence.delivered_at?.toISOString() ?? null };
}
