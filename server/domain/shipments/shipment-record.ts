// A shipment as the domain holds it: its record, the stored row it is read from, and what every
// shipment command shares (the not-found error, the lookup by number, the status-change event).
import type { z } from 'zod';
import type { ShipmentRequest } from '../../../contract/shipments.js';
import type { Database, Prisma, Transaction } from '../../db/client.js';
import { toCheckpointResponse, toShipmentResponse } from './shipment-payload.js';
import type { Actor } from '../access/index.js';
import { emitEvent, newEvent } from '../events/index.js';
import { AppError } from '../kernel/index.js';
import type { DeliveryStatus, PollScheduler, TrackingCheckpoint } from './tracking.js';

export type ShipmentInput = z.output<typeof ShipmentRequest>;

/** The carrier slug stored when none was given and none could be detected; such shipments are not polled. */
export const UNKNOWN_COURIER = 'unknown';
/**
 * The courier a documented sandbox number (docs/tracking.md) is registered with when no carrier is
 * named (contract/carriers.ts holds it, with its name). Like "unknown", not a slug a merchant can send.
 */
export { SANDBOX_COURIER } from '../../../contract/carriers.js';
/** The sandbox provider's scripted numbers (server/tracking/sandbox.ts plays one script for each). */
export const SANDBOX_TRACKING_NUMBERS = ['SBXINTRANSIT', 'SBXOUTFORDELIVERY', 'SBXDELIVERED', 'SBXEXCEPTION', 'SBXRETURNED'] as const;
export type SandboxTrackingNumber = (typeof SANDBOX_TRACKING_NUMBERS)[number];
/** Merchant messages that say a shipment is not tracked for want of a carrier; setting one drops them. */
export const NOT_TRACKED_MESSAGE_CODES: readonly string[] = ['carrier_unknown', 'sandbox_number_not_tracked'];
/** Reads show this many scans, the latest ones, oldest first. */
export const CHECKPOINTS_PER_READ = 100;
/** A shipment still not delivered this long after registration is no longer polled. */
export const POLLING_GIVES_UP_AFTER_MS = 60 * 24 * 60 * 60 * 1000;

export interface MerchantMessage {
  code: string;
  message: string;
  created_on: string;
}

export interface ShipmentRecord {
  id: string;
  storeId: string;
  trackingNumber: string;
  courier: string;
  deliveryStatus: DeliveryStatus;
  trackingUrl: string | null;
  expectedDeliveryDate: string | null;
  checkpoints: TrackingCheckpoint[];
  merchantMessages: MerchantMessage[];
  createdOn: Date;
  updatedOn: Date;
  cancelledOn: Date | null;
}

export interface ShipmentTracking {
  /** Name of the provider that follows new shipments (stored with each). */
  providerName: string;
  scheduler: PollScheduler;
}

export const shipmentInclude = {
  checkpoints: { orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }], take: CHECKPOINTS_PER_READ },
} satisfies Prisma.ShipmentInclude;
type StoredShipment = Prisma.ShipmentGetPayload<{ include: typeof shipmentInclude }>;
type StoredCheckpoint = StoredShipment['checkpoints'][number];
export type CheckpointRow = Pick<StoredCheckpoint, 'status' | 'subtag' | 'message' | 'city' | 'state' | 'zip' | 'country' | 'occurredAt' | 'source'>;
/** What a shipment answer is made of: a StoredShipment, or the one-statement read (selectShipment). */
export type ShipmentRow = Pick<
  StoredShipment,
  'id' | 'storeId' | 'trackingNumber' | 'courier' | 'deliveryStatus' | 'trackingUrl' | 'expectedDeliveryDate' | 'merchantMessages' | 'createdOn' | 'updatedOn' | 'cancelledOn'
> & { checkpoints: CheckpointRow[] };

function toCheckpoint(row: CheckpointRow): TrackingCheckpoint {
  return {
    status: row.status === 'Cancelled' ? 'Active' : row.status,
    subtag: row.subtag,
    message: row.message,
    location: { city: row.city, state: row.state, zip: row.zip, country: row.country },
    occurredAt: row.occurredAt,
    source: row.source,
  };
}

export function toShipmentRecord(row: ShipmentRow): ShipmentRecord {
  return {
    id: row.id,
    storeId: row.storeId,
    trackingNumber: row.trackingNumber,
    courier: row.courier,
    deliveryStatus: row.deliveryStatus,
    trackingUrl: row.trackingUrl,
    expectedDeliveryDate: row.expectedDeliveryDate?.toISOString().slice(0, 10) ?? null,
    // Fetched newest first to keep the latest 100; shown oldest first.
    checkpoints: [...row.checkpoints].reverse().map(toCheckpoint),
    merchantMessages: row.merchantMessages as unknown as MerchantMessage[],
    createdOn: row.createdOn,
    updatedOn: row.updatedOn,
    cancelledOn: row.cancelledOn,
  };
}

export const shipmentNotFound = (trackingNumber: string) =>
  new AppError('not_found', `No shipment with tracking number "${trackingNumber}" in this store.`);


/** The active shipment with that number, else the latest cancelled one. */
export async function findShipment(db: Database | Transaction, storeId: string, trackingNumber: string) {
  return db.shipment.findFirst({
    where: { storeId, trackingNumber },
    orderBy: [{ cancelledOn: { sort: 'desc', nulls: 'first' } }, { createdOn: 'desc' }],
    include: shipmentInclude,
  });
}

/** shipment.delivery_status_changed, with the status before and the newest scan. */
export async function emitDeliveryStatusChanged(tx: Transaction, actor: Actor, shipment: ShipmentRecord, previous: DeliveryStatus, now: Date): Promise<void> {
  const latest = shipment.checkpoints.at(-1);
  const data = {
    ...toShipmentResponse(shipment),
    previous_delivery_status: previous,
    latest_checkpoint: latest === undefined ? null : toCheckpointResponse(latest),
  };
  await emitEvent(tx, actor, shipment.storeId, newEvent('shipment.delivery_status_changed', data), now);
}
