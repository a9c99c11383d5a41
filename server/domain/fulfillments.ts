// fulfillment.created from a platform: each tracking number becomes a shipment of the order through
// the same code as POST /v1/shipments. fulfillment.id makes a redelivery a no-op.
import type { PlatformScope } from './actor.js';
import type { z } from 'zod';
import type { FulfillmentCreatedMessage } from '../../contract/webhooks.js';
import { inConnectionTransaction, type Database, type HotStatement } from '../db/client.js';
import { lockMessageTargetOn } from './pushed-orders.js';
import { insertShipmentOn, resolveCourier, type ShipmentTracking } from './shipments.js';

export type FulfillmentCreated = z.output<typeof FulfillmentCreatedMessage>;

export interface FulfillmentAcknowledgement {
  mode: 'live' | 'test';
  shipmentsRegistered: number;
  duplicate: boolean;
}

/**
 * Registers the message's tracking numbers as shipments of the order, on one connection in one
 * transaction (insertShipmentOn, as POST /v1/shipments does). The unique (store, fulfillment id)
 * makes a concurrent redelivery wait, then find it taken: a duplicate that changes nothing. A number
 * already active in the store (over REST, or by an earlier fulfilment) stays as it is.
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
  const shipments = message.fulfillment.shipments
    .map((shipment) => ({ ...shipment, courier: resolveCourier(shipment, now) }))
    .sort((a, b) => (a.tracking_number < b.tracking_number ? -1 : a.tracking_number > b.tracking_number ? 1 : 0));
  return inConnectionTransaction(db, async (client) => {
    const target = await lockMessageTargetOn(client, store.id, message.order.id);
    if (target.kind === 'test') return { mode: 'test', shipmentsRegistered: 0, duplicate: false };
    const recorded = await client.query({ name: RECORD_FULFILLMENT.name, text: RECORD_FULFILLMENT.text, values: [store.id, target.orderId, message.fulfillment.id, now] });
    if (recorded.rows.length === 0) return { mode: 'live', shipmentsRegistered: 0, duplicate: true };
    let registered = 0;
    for (const shipment of shipments) {
      const outcome = await insertShipmentOn(client, tracking, { storeId: store.id, sourceOrderId: message.order.id, actor: scope.actor }, shipment, shipment.courier, now);
      if (outcome.kind === 'inserted') registered += 1;
    }
    return { mode: 'live', shipmentsRegistered: registered, duplicate: false };
  });
}

/** The fulfilment, once: a redelivery (or a concurrent one) finds its id taken and inserts nothing. */
const RECORD_FULFILLMENT: HotStatement = {
  name: 'op_record_fulfillment',
  text: `INSERT INTO fulfillments (store_id, order_id, source_fulfillment_id, received_at) VALUES ($1::uuid, $2::uuid, $3, $4::timestamptz)
         ON CONFLICT (store_id, source_fulfillment_id) DO NOTHING RETURNING id`,
};
