// Carrier tracking behind one interface. A provider knows how to register a tracking number and
// report its scans; the service turns reports into delivery_status and checkpoints (shipments.ts)
// and a job queue decides when to ask (server/jobs). Providers: sandbox (default, no network) and
// EasyPost (EASYPOST_API_KEY), in server/tracking/.

/** A shipment's delivery_status. Cancelled is set by the service, never reported by a carrier. */
import type { DeliveryStatus } from '../../../contract/shipments.js';

export type { DeliveryStatus };
export type CarrierDeliveryStatus = Exclude<DeliveryStatus, 'Cancelled'>;

export interface CheckpointLocation {
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}

/** One carrier scan (docs/tracking.md, "What a checkpoint contains"). */
export interface TrackingCheckpoint {
  status: CarrierDeliveryStatus;
  /** Finer status, e.g. in_transit, out_for_delivery, delivered, return_to_sender, failure. */
  subtag: string | null;
  message: string;
  location: CheckpointLocation;
  occurredAt: Date;
  /** Who reported it, e.g. "sandbox" or "easypost:UPS". */
  source: string;
}

/** What a provider knows about one shipment now. */
export interface TrackingReport {
  deliveryStatus: CarrierDeliveryStatus;
  /** The whole history the provider knows, oldest first. */
  checkpoints: TrackingCheckpoint[];
  /** Calendar date YYYY-MM-DD, or null. */
  expectedDeliveryDate: string | null;
  trackingUrl: string | null;
}

export interface ShipmentToTrack {
  trackingNumber: string;
  /** Carrier slug (see carriers.ts), or "unknown". */
  courier: string;
  /** The provider's own id for this shipment (an EasyPost tracker id), once registered. */
  providerRef: string | null;
  /** When the service registered the shipment. */
  registeredAt: Date;
}

export interface TrackingProvider {
  readonly name: 'sandbox' | 'easypost';
  /** Registers the number so the provider starts following it; returns the provider's id for it. */
  register(shipment: ShipmentToTrack): Promise<{ providerRef: string | null }>;
  /** The provider's current report. `now` bounds what a simulated provider has "seen" yet. */
  fetch(shipment: ShipmentToTrack, now: Date): Promise<TrackingReport>;
}

/** Raised by a provider for a failure worth retrying later (network, 429, 5xx). */
export class TrackingUnavailableError extends Error {
  constructor(message: string, readonly retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'TrackingUnavailableError';
  }
}

/**
 * Schedules the next poll of a shipment (a carrier change, or a poll for the one after it). The job
 * is written in the caller's transaction, so the change and its poll commit together (a crash cannot
 * break the chain). A new shipment's first poll goes through the outbox instead (shipments.ts).
 */
export interface PollScheduler {
  schedulePoll(shipment: ShipmentKey, options: { tx: import('../../db/client.js').Transaction; startAfter?: Date }): Promise<void>;
}

/** A shipment's key: its id with its store, by which every query finds it on its store's shard. */
export interface ShipmentKey {
  id: string;
  storeId: string;
}

/**
 * What a poll job names: the shipment, with its store. Jobs queued before they carried the store
 * name the id alone, and are found by it.
 */
export interface PollTarget {
  shipmentId: string;
  storeId?: string;
}
