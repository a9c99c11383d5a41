// A test event's data: what the console's "Send test event" delivers, so a receiver can be tried
// before a real change reaches it. Built by the sandbox's own creates from the document's examples,
// so each type's data has exactly the shape of a real one, ids start with test_, and nothing is
// stored or read.
import { ClaimRequest, OrderRequest, ORDER_REQUEST_EXAMPLE, ShipmentRequest, type EventType } from '../../../contract/index.js';
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { toClaimResponse } from '../claims/index.js';
import { newEvent, type NewEvent } from '../events/index.js';
import { toOrderResponse } from '../orders/index.js';
import { type ShipmentTracking, toShipmentResponse } from '../shipments/index.js';
import { commandsFor } from './sandbox.js';

const SAMPLE_TRACKING_NUMBER = '1Z999AA10123456784';

/** A realistic event of `type` for the scope's store, at `now`. */
export async function sampleEvent(db: Database, tracking: ShipmentTracking, scope: Scope, type: EventType, now: Date): Promise<NewEvent> {
  const sandbox = commandsFor('test');
  const orderInput = OrderRequest.parse({ ...ORDER_REQUEST_EXAMPLE, source_order_id: 'test_1001', source_order_number: '#1001', quote_id: undefined });
  const order = toOrderResponse(await sandbox.createOrder(db, scope, orderInput, now));
  const shipmentRecord = await sandbox.createShipment(
    db,
    tracking,
    scope,
    ShipmentRequest.parse({ tracking_number: SAMPLE_TRACKING_NUMBER, source_order_id: order.source_order_id, courier_id: 'ups' }),
    now,
  );
  const shipment = toShipmentResponse(shipmentRecord);
  // As most claims come: from the shopper, on the claim page.
  const shopper: Scope = { ...scope, actor: { kind: 'shopper', orderId: order.id } };
  const claim = toClaimResponse(
    await sandbox.fileClaim(db, shopper, ClaimRequest.parse({ source_order_id: order.source_order_id, tracking_number: SAMPLE_TRACKING_NUMBER, reason: 'lost', description: 'Never arrived.' }), now),
  );
  const at = now.toISOString();
  switch (type) {
    case 'order.created':
    case 'order.repriced':
      return newEvent(type, order);
    case 'order.cancelled':
      return newEvent(type, { ...order, status: 'cancelled', cancellation_cause: 'api' });
    case 'premium.reversed':
      return newEvent(type, {
        ...order,
        paid_to_insure: 0,
        paid_to_insure_usd: 0,
        reversal: { refund_id: 'test_refund_1', amount_reversed: order.paid_to_insure, premium_remaining: 0 },
      });
    case 'shipment.created':
      return newEvent(type, shipment);
    case 'shipment.cancelled':
      return newEvent(type, { ...shipment, delivery_status: 'Cancelled' });
    case 'shipment.delivery_status_changed':
      return newEvent(type, {
        ...shipment,
        delivery_status: 'Delivered',
        previous_delivery_status: shipment.delivery_status,
        latest_checkpoint: { status: 'Delivered', subtag: null, source: 'sandbox', message: 'Delivered, front door', location: { city: 'Mountain View', zip: '94043', state: 'CA', country: 'US' }, occurred_at: at },
      });
    case 'claim.created':
      return newEvent(type, claim);
    case 'claim.status_changed':
      return newEvent(type, { ...claim, status: 'in_review', status_change: { from_status: 'open', to_status: 'in_review', note: null, changed_on: at } });
  }
}
