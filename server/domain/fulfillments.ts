// fulfillment.created from a platform: each tracking number becomes a shipment of the order through
// the same code as POST /v1/shipments. fulfillment.id makes a redelivery a no-op.
import type { PlatformScope } from './actor.js';
import type { z } from 'zod';
import type { FulfillmentCreatedMessage } from '../../contract/webhooks.js';
import { inConnectionTransaction, type Database, type HotStatement } from '../db/client.js';
import { testModeTargetOn } from './pushed-orders.js';
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
    const recorded = await client.query<{ order_id: string | null; fulfillment_id: string | null }>({
      name: RECORD_FULFILLMENT.name,
      text: RECORD_FULFILLMENT.text,
      values: [store.id, message.order.id, message.fulfillment.id, now],
    });
    const row = recorded.rows[0];
    if (row === undefined || row.order_id === null) {
      await testModeTargetOn(client, store.id, message.order.id);
      return { mode: 'test', shipmentsRegistered: 0, duplicate: false };
    }
    if (row.fulfillment_id === null) return { mode: 'live', shipmentsRegistered: 0, duplicate: true };
    let registered = 0;
    for (const shipment of shipments) {
      const outcome = await insertShipmentOn(client, tracking, { storeId: store.id, sourceOrderId: message.order.id, actor: scope.actor }, shipment, shipment.courier, now);
      if (outcome.kind === 'inserted') registered += 1;
    }
    return { mode: 'live', shipmentsRegistered: registered, duplicate: false };
  });
}

/**
 * The order locked (fulfilments of one order queue up) and the fulfilment recorded once, in one
 * statement: a redelivery (or a concurrent one) finds its id taken and inserts nothing. The insert
 * reads nothing but the order's id, so the snapshot the lock's wait leaves it does not matter.
 */
const RECORD_FULFILLMENT: HotStatement = {
  name: 'op_record_fulfillment',
  text: `WITH o AS (
           SELECT id FROM orders WHERE store_id = $1::uuid AND source_order_id = $2 FOR UPDATE
         ), f AS (
           INSERT INTO fulfillments (store_id, order_id, source_fulfillment_id, received_at)
           SELECT $1::uuid, o.id, $3, $4::timestamptz FROM o
           ON CONFLICT (store_id, source_fulfillment_id) DO NOTHING RETURNING id
         )
         SELECT (SELECT id FROM o) AS order_id, (SELECT id FROM f) AS fulfillment_id`,
};
