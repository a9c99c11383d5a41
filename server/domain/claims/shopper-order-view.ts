// What the claim page shows of the shopper's order: its lines, its parcels with their scans and
// claim windows, and its claims.
import type { Database } from '../../db/client.js';
import type { Scope, ShopperActor } from '../access/index.js';
import { carrierName } from '../../../contract/carriers.js';
import { claimPageSettings, type ClaimPageSettings } from './claim-page-settings.js';
import { OPEN_CLAIM_STATUSES, type ClaimRecord, type ClaimStatus } from './claim-record.js';
import { claimWindows, deliveredOn, type ClaimWindow } from './claim-windows.js';
import { sessionEnded, shopperOrderWhere, type ParcelItem } from './shopper-order.js';

/** The session's order as the claim page shows it: its lines, its parcels with their scans, its claims. */
async function sessionOrder(db: Database, scope: Scope<ShopperActor>) {
  const order = await db.order.findFirst({
    where: shopperOrderWhere(scope),
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

/** A carrier by name (the contract's table): the claim page and the console show it. */
export { carrierName } from '../../../contract/carriers.js';

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
  claims: Array<{ id: string; reference: string; reason: ClaimRecord['reason']; status: ClaimStatus; trackingNumber: string | null; createdOn: Date }>;
}

const placeOf = (checkpoint: { city: string | null; state: string | null; country: string | null }) => {
  const parts = [checkpoint.city, checkpoint.state, checkpoint.country].filter((part): part is string => part !== null && part !== '');
  return parts.length === 0 ? null : parts.join(', ');
};

export async function shopperOrderView(db: Database, scope: Scope<ShopperActor>, now: Date): Promise<ShopperOrderView> {
  const order = await sessionOrder(db, scope);
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
    claims: order.claims.map((claim) => ({ id: claim.id, reference: claim.reference, reason: claim.reason, status: claim.status, trackingNumber: claim.shipment?.trackingNumber ?? null, createdOn: claim.createdOn })),
  };
}

