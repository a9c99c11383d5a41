// What a tracking report does to a shipment: new scans kept once, the status followed unless the
// report is older than one already applied.
import { createHash } from 'node:crypto';
import { storeRowKey, type Database } from '../../db/client.js';
import type { Actor } from '../access/index.js';
import { appliedAt, clockAt } from '../kernel/index.js';
import type { DeliveryStatus, PollScheduler, ShipmentKey, TrackingCheckpoint, TrackingReport } from './tracking.js';
import { emitDeliveryStatusChanged, shipmentInclude, toShipmentRecord } from './shipment-record.js';

function fingerprint(checkpoint: TrackingCheckpoint): string {
  const { location } = checkpoint;
  const parts = [
    checkpoint.occurredAt.toISOString(),
    checkpoint.status,
    checkpoint.subtag ?? '',
    checkpoint.message,
    location.city ?? '',
    location.state ?? '',
    location.zip ?? '',
    location.country ?? '',
  ];
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
}

/**
 * Applies what a provider reports: new scans are added (a scan reported twice is stored once), and
 * the status, tracking URL and expected date follow the report. A cancelled shipment is left alone.
 * With `next`, the following poll is scheduled in the same transaction unless the shipment is done.
 */
export async function applyTrackingReport(
  db: Database,
  actor: Actor,
  shipment: ShipmentKey,
  report: TrackingReport,
  now: Date,
  next?: { scheduler: PollScheduler; startAfter: Date },
): Promise<DeliveryStatus | null> {
  return db.$transaction(async (tx) => {
    const { id: shipmentId, storeId } = shipment;
    const locked = await tx.$queryRaw<Array<{ delivery_status: DeliveryStatus; last_polled_at: Date | null; updated_on: Date }>>`
      SELECT delivery_status, last_polled_at, updated_on FROM shipments WHERE id = ${shipmentId}::uuid AND store_id = ${storeId}::uuid FOR UPDATE`;
    const row = locked[0];
    if (row === undefined) return null;
    const current = row.delivery_status;
    if (current === 'Cancelled') return current;
    // A report as of a time before one already applied (two polls, or a poll and a provider's
    // webhook, crossing): its scans are kept, its status would turn the clock back.
    const stale = row.last_polled_at !== null && now < row.last_polled_at;
    if (report.checkpoints.length > 0) {
      await tx.shipmentCheckpoint.createMany({
        data: report.checkpoints.map((checkpoint) => ({
          shipmentId,
          storeId,
          status: checkpoint.status,
          subtag: checkpoint.subtag,
          message: checkpoint.message,
          city: checkpoint.location.city,
          state: checkpoint.location.state,
          zip: checkpoint.location.zip,
          country: checkpoint.location.country,
          occurredAt: checkpoint.occurredAt,
          source: checkpoint.source,
          fingerprint: fingerprint(checkpoint),
        })),
        skipDuplicates: true,
      });
    }
    if (stale) return current;
    // The report is as of `now`; the change is dated after the shipment's previous one all the same.
    const changedAt = appliedAt(clockAt(now), row.updated_on);
    await tx.shipment.update({
      where: storeRowKey(storeId, shipmentId),
      data: {
        deliveryStatus: report.deliveryStatus,
        trackingUrl: report.trackingUrl,
        expectedDeliveryDate: report.expectedDeliveryDate === null ? null : new Date(`${report.expectedDeliveryDate}T00:00:00Z`),
        lastPolledAt: now,
        updatedOn: changedAt,
      },
    });
    if (report.deliveryStatus !== current) {
      const changed = toShipmentRecord(await tx.shipment.findUniqueOrThrow({ where: storeRowKey(storeId, shipmentId), include: shipmentInclude }));
      await emitDeliveryStatusChanged(tx, actor, changed, current, changedAt);
    }
    if (next && report.deliveryStatus !== 'Delivered') await next.scheduler.schedulePoll(shipment, { tx, startAfter: next.startAfter });
    return report.deliveryStatus;
  });
}
