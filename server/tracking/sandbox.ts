// The sandbox tracking provider: the default when no carrier-tracking account is configured. It uses
// no network. A few documented tracking numbers play a fixed script of scans (docs/tracking.md), so a
// merchant integrating in test mode, or a test advancing its clock, sees a shipment move from Active
// to Delivered or Exception, whatever its carrier: registered without one, such a number gets the
// courier "sandbox" and is tracked (server/domain/shipments/resolve-courier.ts). Every other number
// stays Active with no scans.
import {
  type CarrierDeliveryStatus,
  type CheckpointLocation,
  SANDBOX_TRACKING_NUMBERS as NUMBERS,
  type SandboxTrackingNumber,
  type ShipmentToTrack,
  type TrackingCheckpoint,
  type TrackingProvider,
  type TrackingReport,
} from '../domain/shipments/index.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Days after registration that a sandbox shipment is expected; shown until it is delivered. */
export const SANDBOX_EXPECTED_DELIVERY_DAYS = 3;

interface ScriptedScan {
  /** Hours after the shipment's registeredAt. */
  afterHours: number;
  status: CarrierDeliveryStatus;
  subtag: string;
  message: string;
  location: CheckpointLocation;
}

// One route for every script: picked up in Los Angeles, sorted in Oakland, delivered in San Francisco.
const LOS_ANGELES: CheckpointLocation = { city: 'Los Angeles', state: 'CA', zip: '90021', country: 'US' };
const OAKLAND: CheckpointLocation = { city: 'Oakland', state: 'CA', zip: '94621', country: 'US' };
const SAN_FRANCISCO: CheckpointLocation = { city: 'San Francisco', state: 'CA', zip: '94107', country: 'US' };

const FIRST_LEG: readonly ScriptedScan[] = [
  { afterHours: 0, status: 'Active', subtag: 'pre_transit', message: 'Shipping label created, carrier awaiting item', location: LOS_ANGELES },
  { afterHours: 2, status: 'Active', subtag: 'in_transit', message: 'Picked up by carrier', location: LOS_ANGELES },
  { afterHours: 20, status: 'Active', subtag: 'in_transit', message: 'Arrived at carrier facility', location: OAKLAND },
  { afterHours: 26, status: 'Active', subtag: 'in_transit', message: 'Departed carrier facility', location: OAKLAND },
];

const OUT_FOR_DELIVERY: ScriptedScan = {
  afterHours: 44,
  status: 'Active',
  subtag: 'out_for_delivery',
  message: 'Out for delivery',
  location: SAN_FRANCISCO,
};

/** The magic tracking numbers and their scripts, oldest scan first. */
const SCRIPT_OF: Readonly<Record<SandboxTrackingNumber, readonly ScriptedScan[]>> = {
  SBXINTRANSIT: [
    ...FIRST_LEG,
    { afterHours: 46, status: 'Active', subtag: 'in_transit', message: 'In transit: delayed by weather, new delivery date pending', location: OAKLAND },
  ],
  SBXOUTFORDELIVERY: [...FIRST_LEG, OUT_FOR_DELIVERY],
  SBXDELIVERED: [
    ...FIRST_LEG,
    OUT_FOR_DELIVERY,
    { afterHours: 50, status: 'Delivered', subtag: 'delivered', message: 'Delivered, left at front door', location: SAN_FRANCISCO },
  ],
  SBXEXCEPTION: [
    ...FIRST_LEG,
    OUT_FOR_DELIVERY,
    { afterHours: 50, status: 'Exception', subtag: 'failure', message: 'Delivery failed: package damaged, held at carrier facility', location: SAN_FRANCISCO },
  ],
  SBXRETURNED: [
    ...FIRST_LEG,
    OUT_FOR_DELIVERY,
    { afterHours: 50, status: 'Exception', subtag: 'delivery_exception', message: 'Delivery attempted: recipient not available, notice left', location: SAN_FRANCISCO },
    { afterHours: 74, status: 'Exception', subtag: 'return_to_sender', message: 'Returned to sender: undeliverable as addressed', location: OAKLAND },
  ],
};

/** The magic tracking numbers (one script each: the type makes the list and the scripts agree). */
const SCRIPTS: ReadonlyMap<string, readonly ScriptedScan[]> = new Map(NUMBERS.map((number) => [number, SCRIPT_OF[number]]));

/** The documented sandbox numbers, in the order docs/tracking.md lists them. */
export const SANDBOX_TRACKING_NUMBERS: readonly string[] = NUMBERS;

export function createSandboxProvider(): TrackingProvider {
  return {
    name: 'sandbox',
    async register() {
      return { providerRef: null };
    },
    async fetch(shipment, now) {
      return sandboxReport(shipment, now);
    },
  };
}

function sandboxReport(shipment: ShipmentToTrack, now: Date): TrackingReport {
  const script = SCRIPTS.get(normaliseTrackingNumber(shipment.trackingNumber));
  if (!script) return { deliveryStatus: 'Active', checkpoints: [], expectedDeliveryDate: null, trackingUrl: null };

  const registeredAtMs = shipment.registeredAt.getTime();
  const checkpoints: TrackingCheckpoint[] = script
    .map((scan) => ({
      status: scan.status,
      subtag: scan.subtag,
      message: scan.message,
      location: { ...scan.location },
      occurredAt: new Date(registeredAtMs + scan.afterHours * HOUR_MS),
      source: 'sandbox',
    }))
    .filter((checkpoint) => checkpoint.occurredAt.getTime() <= now.getTime());

  const deliveryStatus = checkpoints.at(-1)?.status ?? 'Active';
  const expectedDeliveryDate =
    deliveryStatus === 'Delivered'
      ? null
      : new Date(registeredAtMs + SANDBOX_EXPECTED_DELIVERY_DAYS * DAY_MS).toISOString().slice(0, 10);
  return { deliveryStatus, checkpoints, expectedDeliveryDate, trackingUrl: null };
}

/**
 * The API already strips spaces and dashes from tracking numbers and upper-cases them; do the same
 * so "sbx-delivered" also plays.
 */
function normaliseTrackingNumber(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}
