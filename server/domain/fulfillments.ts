// fulfillment.created from a platform: each tracking number becomes a shipment of the order through
// the same code as POST /v1/shipments. fulfillment.id makes a redelivery a no-op.
import type { PlatformScope } from './actor.js';
import type { z } from 'zod';
import type { FulfillmentCreatedMessage } from '../../contract/webhooks.js';
import { isUniqueViolation, type Database } from '../db/client.js';
import { lockMessageTarget } from './pushed-orders.js';
import { registerShipment, resolveCourier, type ShipmentTracking } from './shipments.js';

export type FulfillmentCreated = z.output<typeof FulfillmentCreatedMessage>;

export interface FulfillmentAcknowledgement {
  mode: 'live' | 'test';
  shipmentsRegistered: number;
  duplicate: boolean;
}

export async function ingestFulfillment(
  db: Database,
  tracking: ShipmentTracking,
  scope: PlatformScope,
  message: FulfillmentCreated,
  now: Date,
  attempt = 1,
): Promise<FulfillmentAcknowledgement> {
  const { store } = scope;
  // The numbers are registered in one fixed order (sorted), so two fulfilments naming the same
  // numbers in different orders wait for each other instead of deadlocking on the unique index.
  const shipments = message.fulfillment.shipments
    .map((shipment) => ({ ...shipment, courier: resolveCourier(shipment, now) }))
    .sort((a, b) => (a.tracking_number < b.tracking_number ? -1 : a.tracking_number > b.tracking_number ? 1 : 0));
  try {
    return await db.$transaction(async (tx) => {
      const target = await lockMessageTarget(tx, store.id, message.order.id);
      if (target.kind === 'test') return { mode: 'test', shipmentsRegistered: 0, duplicate: false };
      // The unique (store, fulfillment id) makes a concurrent redelivery wait here, then fail as a duplicate.
      await tx.fulfillment.create({
        data: { storeId: store.id, orderId: target.orderId, sourceFulfillmentId: message.fulfillment.id, receivedAt: now },
      });
      let registered = 0;
      for (const shipment of shipments) {
        // A number already active in the store (registered over REST, or by an earlier fulfilment) stays as it is.
        const active = await tx.shipment.findFirst({
          where: { storeId: store.id, trackingNumber: shipment.tracking_number, cancelledOn: null },
          select: { id: true },
        });
        if (active) continue;
        await registerShipment(tx, tracking, { storeId: store.id, orderId: target.orderId, actor: scope.actor }, shipment, shipment.courier, now);
        registered += 1;
      }
      return { mode: 'live', shipmentsRegistered: registered, duplicate: false };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const first = await db.fulfillment.findUnique({
        where: { storeId_sourceFulfillmentId: { storeId: store.id, sourceFulfillmentId: message.fulfillment.id } },
      });
      if (first) return { mode: 'live', shipmentsRegistered: 0, duplicate: true };
      // Not a redelivery: a concurrent request (REST, or a fulfilment of another order) registered
      // one of the numbers after this one found it free. Run again: that number is now active and is
      // left as it is, like any number already registered. Each retry finds one more number taken.
      if (attempt <= shipments.length) return ingestFulfillment(db, tracking, scope, message, now, attempt + 1);
    }
    throw error;
  }
}
