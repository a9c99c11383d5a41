// Claim windows (docs/shopper-claims.md): when a shopper may report what about a parcel. Store
// settings with defaults: a parcel may be reported lost once it has had no carrier scan for
// `lostAfterDays` (7), without being delivered; damaged, missing items and stolen up to
// `afterDeliveryDays` (30) after delivery. A wrong address or anything else has no window. The
// claim page shows each window with its reason, and createClaim holds a shopper to them; a store
// filing through its API or the operator may file outside them, at the store's discretion.
import type { ClaimReason } from './claim-record.js';
import type { DeliveryStatus } from '../../../contract/shipments.js';
import { DAY_MS } from '../kernel/index.js';

export interface ClaimWindowSettings {
  lostAfterDays: number;
  afterDeliveryDays: number;
}

/** What the windows are judged on: a parcel's status and its carrier scans. */
export interface ParcelProgress {
  deliveryStatus: DeliveryStatus;
  createdOn: Date;
  updatedOn: Date;
  cancelledOn: Date | null;
  checkpoints: ReadonlyArray<{ status: string; occurredAt: Date }>;
}

export interface ClaimWindow {
  reason: ClaimReason;
  open: boolean;
  opensOn: Date | null;
  closesOn: Date | null;
  explanation: string;
}

const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);
const latest = (dates: readonly Date[]): Date | null => (dates.length === 0 ? null : new Date(Math.max(...dates.map((date) => date.getTime()))));

/** When the carrier last delivered it: the latest delivery scan, or the status change when none was kept. */
export function deliveredOn(parcel: ParcelProgress): Date | null {
  if (parcel.deliveryStatus !== 'Delivered') return null;
  return latest(parcel.checkpoints.filter((checkpoint) => checkpoint.status === 'Delivered').map((checkpoint) => checkpoint.occurredAt)) ?? parcel.updatedOn;
}

/** The last sign of life: the latest carrier scan, or the registration when it has none yet. */
export function lastScanOn(parcel: ParcelProgress): Date {
  return latest(parcel.checkpoints.map((checkpoint) => checkpoint.occurredAt)) ?? parcel.createdOn;
}

const AFTER_DELIVERY: readonly ClaimReason[] = ['damaged', 'missing_items', 'stolen'];
const ALL_REASONS: readonly ClaimReason[] = ['lost', 'damaged', 'stolen', 'missing_items', 'wrong_address', 'other'];

export function claimWindow(reason: ClaimReason, parcel: ParcelProgress, settings: ClaimWindowSettings, now: Date): ClaimWindow {
  const closed = (explanation: string, opensOn: Date | null = null, closesOn: Date | null = null): ClaimWindow => ({ reason, open: false, opensOn, closesOn, explanation });
  if (parcel.cancelledOn !== null) return closed('The store cancelled this shipment.');
  const delivered = deliveredOn(parcel);
  if (reason === 'lost') {
    if (delivered !== null) return closed('The carrier reports this parcel delivered. If it is not there, report it as delivered but stolen.');
    const opensOn = addDays(lastScanOn(parcel), settings.lostAfterDays);
    if (now < opensOn) {
      return closed(`Carriers often find late parcels: it can be reported lost once it has had no carrier scan for ${settings.lostAfterDays} days.`, opensOn);
    }
    return { reason, open: true, opensOn: null, closesOn: null, explanation: `It has had no carrier scan for ${settings.lostAfterDays} days or more.` };
  }
  if (AFTER_DELIVERY.includes(reason)) {
    if (delivered === null) return closed('This can be reported once the carrier shows the parcel delivered.');
    const closesOn = addDays(delivered, settings.afterDeliveryDays);
    if (now > closesOn) return closed(`This had to be reported within ${settings.afterDeliveryDays} days of delivery.`, null, closesOn);
    return { reason, open: true, opensOn: null, closesOn, explanation: `This can be reported up to ${settings.afterDeliveryDays} days after delivery.` };
  }
  return { reason, open: true, opensOn: null, closesOn: null, explanation: 'This can be reported at any time.' };
}

/** Every reason's window on one parcel, in the order the claim page lists them. */
export function claimWindows(parcel: ParcelProgress, settings: ClaimWindowSettings, now: Date): ClaimWindow[] {
  return ALL_REASONS.map((reason) => claimWindow(reason, parcel, settings, now));
}
