// fulfillment.created from a platform: each tracking number becomes a shipment of the order through
// the same code as POST /v1/shipments. fulfillment.id makes a redelivery a no-op.
import type { PlatformScope } from '../access/actor.js';
import type { z } from 'zod';
import type { FulfillmentCreatedMessage } from '../../../contract/webhooks.js';
import type { Database } from '../../db/client.js';
import { testModeTargetOn } from './pushed-orders.js';
import { insertShipments, resolveCourier, type ShipmentTracking } from '../shipments/index.js';

export type FulfillmentCreated = z.output<typeof FulfillmentCreatedMessage>;

export interface FulfillmentAcknowledgement {
  mode: 'live' | 'test';
  shipmentsRegistered: number;
  duplicate: boolean;
}

/**
 * Registers the message's tracking numbers as shipments of the order in one statement
 * (insertShipments, as POST /v1/shipments does), which records the fulfilment id too. The unique
 * (store, fulfillment id) makes a concurrent redelivery wait, then find it taken: a duplicate that
 * changes nothing. A number already active in the store (over REST, or by an earlier fulfilment)
 * stays as it is.
 */
export async function ingestFulfillment(
  db: Database,
  tracking: ShipmentTracking,
  scope: PlatformScope,
  message: FulfillmentCreated,
  now: Date,
): Promise<FulfillmentAcknowledgement> {
  const { store } = scope;
  // The numbers are registered in one fixed order (sorted), so two fulfilments naming the same
  // numbers in different orders wait for each other instead of deadlocking on the unique index.
  const parcels = message.fulfillment.shipments
    .map((shipment) => ({ tracking_number: shipment.tracking_number, courier: resolveCourier(shipment, now) }))
    .sort((a, b) => (a.tracking_number < b.tracking_number ? -1 : a.tracking_number > b.tracking_number ? 1 : 0));
  const owner = { storeId: store.id, sourceOrderId: message.order.id, actor: scope.actor };
  const outcome = await insertShipments(db.pool, tracking, owner, parcels, message.fulfillment.id, now);
  if (!outcome.orderFound) {
    const target = await testModeTargetOn(db.pool, store.id, message.order.id);
    return { mode: target.kind, shipmentsRegistered: 0, duplicate: false };
  }
  if (!outcome.fulfillmentRecorded) return { mode: 'live', shipmentsRegistered: 0, duplicate: true };
  return { mode: 'live', shipmentsRegistered: outcome.inserted.length, duplicate: false };
}
