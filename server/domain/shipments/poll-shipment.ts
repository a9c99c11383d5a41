// Following a shipment: one poll of its provider, or a provider's webhook, each ending in
// applyTrackingReport.
import { storeRowKey, type Database } from '../../db/client.js';
import type { Actor } from '../access/index.js';
import type { PollScheduler, PollTarget, ShipmentKey, TrackingProvider, TrackingReport } from './tracking.js';
import { applyTrackingReport } from './apply-tracking-report.js';
import { type MerchantMessage, POLLING_GIVES_UP_AFTER_MS, SANDBOX_COURIER, UNKNOWN_COURIER } from './shipment-record.js';

/**
 * Notes why a shipment is not tracked, once, and only while its carrier is still the one this poll
 * read: one statement, so a carrier set by hand meanwhile (which drops such notes) is never followed
 * by a stale one.
 */
async function addNotTrackedMessageOnce(db: Database, shipmentId: string, courier: string, message: MerchantMessage): Promise<void> {
  await db.$executeRaw`
    UPDATE shipments SET merchant_messages = merchant_messages || jsonb_build_array(${JSON.stringify(message)}::jsonb)
     WHERE id = ${shipmentId}::uuid AND courier = ${courier}
       AND NOT merchant_messages @> jsonb_build_array(jsonb_build_object('code', ${message.code}::text))`;
}

export type PollOutcome = 'again' | 'stop';

/** Who changes a shipment from carrier reports: the service's own poll, or the provider's webhook. */
const TRACKING_POLL_ACTOR: Actor = { kind: 'system', job: 'tracking-poll' };
const TRACKING_WEBHOOK_ACTOR: Actor = { kind: 'system', job: 'tracking-webhook' };

/**
 * One poll of one shipment: register it with the provider if needed, fetch the report and apply
 * it, scheduling the next poll in the same transaction. Cancelled and delivered shipments, unknown
 * carriers, sandbox numbers on a server that tracks with another provider, and shipments older than
 * the polling window stop here.
 */
export async function pollShipment(
  db: Database,
  provider: TrackingProvider,
  scheduler: PollScheduler,
  job: PollTarget,
  now: Date,
  /** When to poll again: a time, or the schedule by the shipment's registration (poll-schedule.ts). */
  nextPollAt: Date | ((registeredAt: Date) => Date),
): Promise<PollOutcome> {
  const shipment = await db.shipment.findFirst({ where: { id: job.shipmentId, ...(job.storeId === undefined ? {} : { storeId: job.storeId }) } });
  if (!shipment || shipment.cancelledOn !== null || shipment.deliveryStatus === 'Delivered') return 'stop';
  if (shipment.courier === UNKNOWN_COURIER) {
    await addNotTrackedMessageOnce(db, shipment.id, shipment.courier, {
      code: 'carrier_unknown',
      message: 'The carrier could not be told from this tracking number, so it is not tracked. Set courier_id with an update.',
      created_on: now.toISOString(),
    });
    return 'stop';
  }
  // Only the sandbox provider knows its scripted numbers (docs/tracking.md).
  if (shipment.courier === SANDBOX_COURIER && provider.name !== 'sandbox') {
    await addNotTrackedMessageOnce(db, shipment.id, shipment.courier, {
      code: 'sandbox_number_not_tracked',
      message: `This is a sandbox tracking number, which only the sandbox provider plays; this server tracks with ${provider.name}, so it is not tracked. Set courier_id with an update.`,
      created_on: now.toISOString(),
    });
    return 'stop';
  }
  if (now.getTime() - shipment.createdOn.getTime() > POLLING_GIVES_UP_AFTER_MS) return 'stop';

  const target = {
    trackingNumber: shipment.trackingNumber,
    courier: shipment.courier,
    providerRef: shipment.providerRef,
    registeredAt: shipment.createdOn,
  };
  if (target.providerRef === null) {
    const { providerRef } = await provider.register(target);
    if (providerRef !== null) {
      await db.shipment.update({ where: storeRowKey(shipment.storeId, shipment.id), data: { providerRef } });
      target.providerRef = providerRef;
    }
  }
  const report = await provider.fetch(target, now);
  const startAfter = typeof nextPollAt === 'function' ? nextPollAt(shipment.createdOn) : nextPollAt;
  const status = await applyTrackingReport(db, TRACKING_POLL_ACTOR, shipment, report, now, { scheduler, startAfter });
  return status === null || status === 'Delivered' || status === 'Cancelled' ? 'stop' : 'again';
}

/**
 * A provider webhook names its own id for the shipment, not the store: the one lookup of the
 * tracking path that spans all stores (docs/scaling.md, section 4). The shipment's key, or null
 * when no active shipment follows it.
 */
export async function applyProviderEvent(db: Database, providerRef: string, report: TrackingReport, now: Date): Promise<ShipmentKey | null> {
  const shipment = await db.shipment.findFirst({ where: { providerRef, cancelledOn: null }, select: { id: true, storeId: true } });
  if (!shipment) return null;
  await applyTrackingReport(db, TRACKING_WEBHOOK_ACTOR, shipment, report, now);
  return shipment;
}
