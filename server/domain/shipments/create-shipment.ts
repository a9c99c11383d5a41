// Registering shipments: over REST (createShipment) and for a platform's fulfilment
// (insertShipments), each in one statement with its events and its first tracking poll.
import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../../contract/errors.js';
import type pg from 'pg';
import { inConnectionTransaction, lazyStatement, type Database, type HotStatement } from '../../db/client.js';
import { toShipmentResponse } from './shipment-payload.js';
import { actorColumns, type Actor, type Scope } from '../access/index.js';
import { eventInsertSql } from '../events/index.js';
import { AppError } from '../kernel/index.js';
import { orderNotFound } from '../orders/index.js';
import { resolveCourier, type ResolvedCourier } from './resolve-courier.js';
import type { ShipmentInput, ShipmentRecord, ShipmentTracking } from './shipment-record.js';

/** source_product_ids and line_items must name items of the order. */
function itemsNotInOrder(
  input: ShipmentInput,
  lines: ReadonlyArray<{ sourceId: string; sourceProductId: string | null; quantity: number }>,
): FieldError[] {
  const errors: FieldError[] = [];
  const productIds = new Set(lines.flatMap((line) => (line.sourceProductId === null ? [] : [line.sourceProductId])));
  (input.source_product_ids ?? []).forEach((id, index) => {
    if (!productIds.has(id)) errors.push({ field: `source_product_ids[${index}]`, message: `"${id}" is not a source_product_id of this order` });
  });
  const bySourceId = new Map(lines.map((line) => [line.sourceId, line]));
  (input.line_items ?? []).forEach((item, index) => {
    const line = bySourceId.get(item.source_id);
    if (!line) {
      errors.push({ field: `line_items[${index}].source_id`, message: `"${item.source_id}" is not a line item of this order` });
      return;
    }
    if (item.source_product_id !== undefined && item.source_product_id !== line.sourceProductId) {
      errors.push({ field: `line_items[${index}].source_product_id`, message: 'does not match that line item of the order' });
    }
    if (item.quantity > line.quantity) {
      errors.push({ field: `line_items[${index}].quantity`, message: `is more than the ${line.quantity} ordered` });
    }
  });
  return errors;
}

/**
 * Registers a shipment over REST, without Prisma's layer (its interactive transaction cost about
 * 3 ms of CPU a request). Without items named it is one statement (insertShipments). With items
 * named, they are checked against the order's lines under its lock first, in a transaction on one
 * connection. A number already active in the store is 409.
 */
export async function createShipment(
  db: Database,
  tracking: ShipmentTracking,
  scope: Scope,
  input: ShipmentInput,
  now: Date,
): Promise<ShipmentRecord> {
  const owner = { storeId: scope.store.id, sourceOrderId: input.source_order_id, actor: scope.actor };
  const parcel = { ...input, courier: resolveCourier(input, now) };
  const namesItems = (input.source_product_ids ?? []).length > 0 || (input.line_items ?? []).length > 0;
  const outcome = !namesItems
    ? await insertShipments(db.pool, tracking, owner, [parcel], null, now)
    : await inConnectionTransaction(db, async (client) => {
        const lines = await client.query<{ source_id: string | null; source_product_id: string | null; quantity: number | null }>({
          name: LOCK_ORDER_LINES.name,
          text: LOCK_ORDER_LINES.text,
          values: [scope.store.id, input.source_order_id],
        });
        if (lines.rows.length === 0) throw orderNotFound(input.source_order_id);
        const orderLines = lines.rows.flatMap((line) => (line.source_id === null ? [] : [{ sourceId: line.source_id, sourceProductId: line.source_product_id, quantity: line.quantity ?? 0 }]));
        const errors = itemsNotInOrder(input, orderLines);
        if (errors.length > 0) throw new AppError('invalid_request', 'The shipment names items that are not in the order.', errors);
        return insertShipments(client, tracking, owner, [parcel], null, now);
      });
  if (!outcome.orderFound) throw orderNotFound(input.source_order_id);
  const [shipment] = outcome.inserted;
  if (shipment === undefined) {
    throw new AppError('conflict', `Tracking number "${input.tracking_number}" is already registered to an active shipment in this store.`);
  }
  return shipment;
}

/** A shipment as registered: active, no scans yet, and the note on its carrier, if any. */
export function newShipmentRecord(id: string, storeId: string, trackingNumber: string, { courier, message }: ResolvedCourier, now: Date): ShipmentRecord {
  return {
    id,
    storeId,
    trackingNumber,
    courier,
    deliveryStatus: 'Active',
    trackingUrl: null,
    expectedDeliveryDate: null,
    checkpoints: [],
    merchantMessages: message === null ? [] : [message],
    createdOn: now,
    updatedOn: now,
    cancelledOn: null,
  };
}

/** A shipment to register: what it carries, and its carrier as resolveCourier found it. */
export type NewParcel = Pick<ShipmentInput, 'tracking_number' | 'source_product_ids' | 'line_items'> & { courier: ResolvedCourier };

export interface ShipmentsInsert {
  orderFound: boolean;
  /** False when the fulfilment id was already recorded (a redelivery): nothing was registered. */
  fulfillmentRecorded: boolean;
  /** The shipments registered; a number already active in the store is skipped. */
  inserted: ShipmentRecord[];
}

/**
 * Stores shipments of an order in one statement: the order row locked (as a fulfilment, a claim
 * and a cancel take it, so this insert's foreign-key check never waits on a fulfilment that waits
 * on this number: a deadlock); the fulfilment id once, when a platform's fulfilment brings them;
 * each shipment; its shipment.created event with a delivery per subscribed endpoint; and its first
 * tracking poll waiting in the outbox (tracking_poll_outbox; every instance moves those into the job
 * queue, server/jobs/tracking-jobs.ts). On the pool it commits by itself; on a connection in a
 * transaction, with the rest of it. A number already active in the store inserts nothing (the
 * unique index decides, so a REST create and a fulfilment racing for it give one shipment), and a
 * recorded fulfilment id inserts nothing at all. The one way shipments are made, whether
 * registered over REST or pushed by a platform.
 */
export async function insertShipments(
  connection: pg.Pool | pg.ClientBase,
  tracking: Pick<ShipmentTracking, 'providerName'>,
  owner: { storeId: string; sourceOrderId: string; actor: Actor },
  parcels: readonly NewParcel[],
  fulfillmentId: string | null,
  now: Date,
): Promise<ShipmentsInsert> {
  // The ids are made here, so each event's data can hold its shipment's.
  const shipments = parcels.map((parcel) => ({ parcel, record: newShipmentRecord(randomUUID(), owner.storeId, parcel.tracking_number, parcel.courier, now) }));
  const rows = shipments.map(({ parcel, record }) => ({
    id: record.id,
    tracking_number: record.trackingNumber,
    courier: record.courier,
    source_product_ids: parcel.source_product_ids ?? [],
    line_items: parcel.line_items ?? null,
    merchant_messages: record.merchantMessages,
    event: toShipmentResponse(record),
  }));
  const { actorKind, actorId } = actorColumns(owner.actor);
  const result = await connection.query<{ order_found: boolean; fulfillment_recorded: boolean; inserted: string[] }>({
    name: INSERT_SHIPMENTS.name,
    text: INSERT_SHIPMENTS.text,
    values: [owner.storeId, owner.sourceOrderId, JSON.stringify(rows), tracking.providerName, now, fulfillmentId, actorKind, actorId],
  });
  const row = result.rows[0];
  const inserted = new Set(row?.inserted ?? []);
  return {
    orderFound: row?.order_found ?? false,
    fulfillmentRecorded: row?.fulfillment_recorded ?? false,
    inserted: shipments.filter(({ record }) => inserted.has(record.id)).map(({ record }) => record),
  };
}

/** The order, locked, with its lines (one row per line; one row of nulls when it has none). */
const LOCK_ORDER_LINES: HotStatement = {
  name: 'op_lock_order_lines',
  text: `SELECT l.source_id, l.source_product_id, l.quantity
           FROM orders o LEFT JOIN order_line_items l ON l.order_id = o.id AND l.store_id = o.store_id
          WHERE o.store_id = $1::uuid AND o.source_order_id = $2
            FOR UPDATE OF o`,
};

/**
 * $1 store, $2 the order's source id, $3 the shipments (a JSON array, in the order to insert them),
 * $4 the tracking provider, $5 the time, $6 the fulfilment id or null, $7 and $8 the actor.
 */
const INSERT_SHIPMENTS = lazyStatement('op_insert_shipments', () => {
  /** Each shipment's event, its data read from the input row that made the shipment. */
  const SHIPMENT_EVENT = eventInsertSql(
    { storeId: '$1::uuid', type: "'shipment.created'", actorKind: '$7::actor_kind', actorId: '$8', data: "i.item -> 'event'", at: '$5::timestamptz' },
    { from: "s JOIN input i ON (i.item ->> 'id')::uuid = s.id" },
  );
  return `WITH o AS (
           SELECT id FROM orders WHERE store_id = $1::uuid AND source_order_id = $2 FOR UPDATE
         ), f AS (
           INSERT INTO fulfillments (store_id, order_id, source_fulfillment_id, received_at)
           SELECT $1::uuid, o.id, $6, $5::timestamptz FROM o WHERE $6::text IS NOT NULL
           ON CONFLICT (store_id, source_fulfillment_id) DO NOTHING
           RETURNING id
         ), input AS (
           SELECT x.item, x.position FROM json_array_elements($3::json) WITH ORDINALITY AS x (item, position)
         ), s AS (
           INSERT INTO shipments (id, store_id, order_id, tracking_number, courier, tracking_provider, source_product_ids, line_items,
                                  merchant_messages, created_on, updated_on)
           SELECT (i.item ->> 'id')::uuid, $1::uuid, o.id, i.item ->> 'tracking_number', i.item ->> 'courier', $4,
                  ARRAY(SELECT json_array_elements_text(i.item -> 'source_product_ids')),
                  NULLIF((i.item -> 'line_items')::jsonb, 'null'::jsonb), (i.item -> 'merchant_messages')::jsonb,
                  $5::timestamptz, $5::timestamptz
             FROM o CROSS JOIN input i
            WHERE $6::text IS NULL OR EXISTS (SELECT 1 FROM f)
            ORDER BY i.position
           ON CONFLICT (store_id, tracking_number) WHERE cancelled_on IS NULL DO NOTHING
           RETURNING id
         ), e AS (
           ${SHIPMENT_EVENT.event}
         ), deliveries AS (
           ${SHIPMENT_EVENT.deliveries}
         ), first_poll AS (
           -- The database's clock, as the lag metric reads it (server/http/metrics.ts).
           INSERT INTO tracking_poll_outbox (shipment_id, store_id, created_at) SELECT id, $1::uuid, now() FROM s
         )
         SELECT EXISTS (SELECT 1 FROM o) AS order_found,
                ($6::text IS NULL OR EXISTS (SELECT 1 FROM f)) AS fulfillment_recorded,
                ARRAY(SELECT id::text FROM s) AS inserted`;
});
