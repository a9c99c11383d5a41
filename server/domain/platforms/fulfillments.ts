// fulfillment.created from a platform: each tracking number becomes a shipment of the order through
// the same code as POST /v1/shipments. fulfillment.id makes a redelivery a no-op.
import type { PlatformActor, Scope } from '../access/index.js';
import type { z } from 'zod';
import type { FulfillmentCreatedMessage } from '../../../contract/webhooks.js';
import type { Database } from '../../db/client.js';
import { orderNotYetIngested } from './pushed-orders.js';
import { insertShipments, resolveCourier, type ShipmentTracking } from '../shipments/index.js';

export type FulfillmentCreated = z.output<typeof FulfillmentCreatedMessage>;

export interface FulfillmentAcknowledgement {
  mode: 'live' | 'test';
  shipmentsRegistered: number;
  duplicate: boolean;
}

/**
 * The message's parcels, each number's courier resolved as POST /v1/shipments resolves it, in one
 * fixed order (sorted): two fulfilments naming the same numbers in different orders then wait for
 * each other instead of deadlocking on the unique index.
 */
export function fulfilledParcels(message: FulfillmentCreated, now: Date) {
  return message.fulfillment.shipments
    .map((shipment) => ({ tracking_number: shipment.tracking_number, courier: resolveCourier(shipment, now) }))
    .sort((a, b) => (a.tracking_number < b.tracking_number ? -1 : a.tracking_number > b.tracking_number ? 1 : 0));
}

/**
 * A live fulfilment (a test-mode one goes to the sandbox, domain/sandbox/sandbox.ts). Registers the message's tracking numbers as shipments of the order in one statement
 * (insertShipments, as POST /v1/shipments does), which records the fulfilment id too. The unique
 * (store, fulfillment id) makes a concurrent redelivery wait, then find it taken: a duplicate that
 * changes nothing. A number already active in the store (over REST, or by an earlier fulfilment)
 * stays as it is.
 */
export async function ingestFulfillment(
  db: Database,
  scope: Scope<PlatformActor>,
  tracking: ShipmentTracking,
  message: FulfillmentCreated,
  now: Date,
): Promise<FulfillmentAcknowledgement> {
  const { store } = scope;
  const parcels = fulfilledParcels(message, now);
  const owner = { storeId: store.id, sourceOrderId: message.order.id, actor: scope.actor };
  const outcome = await insertShipments(db.pool, tracking, owner, parcels, message.fulfillment.id, now);
  if (!outcome.orderFound) throw orderNotYetIngested(message.order.id);
  if (!outcome.fulfillmentRecorded) return { mode: 'live', shipmentsRegistered: 0, duplicate: true };
  return { mode: 'live', shipmentsRegistered: outcome.inserted.length, duplicate: false };
}
