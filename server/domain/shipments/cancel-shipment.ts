// Cancelling a shipment: refused while a claim on it is open; dated once its locks are held.
import { storeRowKey, type Database } from '../../db/client.js';
import { toShipmentResponse } from './shipment-payload.js';
import type { Scope } from '../access/index.js';
import { emitEvent, newEvent } from '../events/index.js';
import { hasOpenClaim } from '../claims/index.js';
import { AppError, appliedAt, type Clock } from '../kernel/index.js';

import { emitDeliveryStatusChanged, findShipment, shipmentInclude, shipmentNotFound, type ShipmentRecord, toShipmentRecord } from './shipment-record.js';

export async function cancelShipment(db: Database, scope: Scope, trackingNumber: string, clock: Clock): Promise<ShipmentRecord> {
  return db.$transaction(async (tx) => {
    const found = await findShipment(tx, scope.store.id, trackingNumber);
    if (!found) throw shipmentNotFound(trackingNumber);
    // Order row first, then the shipment: the same lock order as filing a claim, so the two queue up.
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${found.orderId}::uuid FOR UPDATE`;
    await tx.$queryRaw`SELECT id FROM shipments WHERE id = ${found.id}::uuid FOR UPDATE`;
    const current = await tx.shipment.findUniqueOrThrow({ where: storeRowKey(scope.store.id, found.id), include: shipmentInclude });
    // Dated once both locks are held: after any tracking report or change applied before it. The
    // cancellation's own event follows the status change a millisecond later (domain/kernel/clock.ts).
    const now = appliedAt(clock, current.updatedOn);
    const cancelledOn = new Date(now.getTime() + 1);
    if (current.cancelledOn !== null) return toShipmentRecord(current);
    if (await hasOpenClaim(tx, { storeId: current.storeId, orderId: current.orderId, shipmentId: current.id })) {
      throw new AppError('conflict', 'The shipment has an open claim; it cannot be cancelled until the claim is resolved.');
    }
    const shipment = toShipmentRecord(
      await tx.shipment.update({
        where: storeRowKey(current.storeId, current.id),
        data: { deliveryStatus: 'Cancelled', cancelledOn, updatedOn: cancelledOn },
        include: shipmentInclude,
      }),
    );
    await emitDeliveryStatusChanged(tx, scope.actor, shipment, current.deliveryStatus, now);
    await emitEvent(tx, scope.actor, scope.store.id, newEvent('shipment.cancelled', toShipmentResponse(shipment)), cancelledOn);
    return shipment;
  });
}
