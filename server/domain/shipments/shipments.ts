// Shipments (README, Concepts, "Shipments"): register, read, correct the carrier, cancel; and
// what a tracking report does to a shipment. Carrier scans arrive through polls (server/jobs) and
// provider webhooks; both end in applyTrackingReport.
import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { FieldError } from '../../../contract/errors.js';
import type { ShipmentRequest } from '../../../contract/shipments.js';
import type pg from 'pg';
import { hotQuery, inConnectionTransaction, type Database, type HotStatement, type Prisma, type Transaction } from '../../db/client.js';
import { toCheckpointResponse, toShipmentResponse } from './shipment-payload.js';
import { actorColumns, type Actor, type StoreScope } from '../access/actor.js';
import { emitEvent, eventInsertSql, newEvent } from '../events/events.js';
import { detectCarrier, normalizeCourierId } from './carriers.js';
import { hasOpenClaim } from '../claims/claims.js';
import { appliedAt, clockAt, type Clock } from '../kernel/clock.js';
import { AppError } from '../kernel/errors.js';
import { orderNotFound } from '../orders/order-lock.js';
import type { WholeBody } from '../orders/index.js';
import type { DeliveryStatus, PollScheduler, TrackingCheckpoint, TrackingProvider, TrackingReport } from './tracking.js';

export type ShipmentInput = z.output<typeof ShipmentRequest>;

/** The carrier slug stored when none was given and none could be detected; such shipments are not polled. */
export const UNKNOWN_COURIER = 'unknown';
/** Reads show this many scans, the latest ones, oldest first. */
export const CHECKPOINTS_PER_READ = 100;
/** A shipment still not delivered this long after registration is no longer polled. */
export const POLLING_GIVES_UP_AFTER_MS = 60 * 24 * 60 * 60 * 1000;

export interface MerchantMessage {
  code: string;
  message: string;
  created_on: string;
}

export interface ShipmentRecord {
  id: string;
  storeId: string;
  trackingNumber: string;
  courier: string;
  deliveryStatus: DeliveryStatus;
  trackingUrl: string | null;
  expectedDeliveryDate: string | null;
  checkpoints: TrackingCheckpoint[];
  merchantMessages: MerchantMessage[];
  createdOn: Date;
  updatedOn: Date;
  cancelledOn: Date | null;
}

export interface ShipmentTracking {
  /** Name of the provider that follows new shipments (stored with each). */
  providerName: string;
  scheduler: PollScheduler;
}

const shipmentInclude = {
  checkpoints: { orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }], take: CHECKPOINTS_PER_READ },
} satisfies Prisma.ShipmentInclude;
type StoredShipment = Prisma.ShipmentGetPayload<{ include: typeof shipmentInclude }>;
type StoredCheckpoint = StoredShipment['checkpoints'][number];
type CheckpointRow = Pick<StoredCheckpoint, 'status' | 'subtag' | 'message' | 'city' | 'state' | 'zip' | 'country' | 'occurredAt' | 'source'>;
/** What a shipment answer is made of: a StoredShipment, or the one-statement read (selectShipment). */
type ShipmentRow = Pick<
  StoredShipment,
  'id' | 'storeId' | 'trackingNumber' | 'courier' | 'deliveryStatus' | 'trackingUrl' | 'expectedDeliveryDate' | 'merchantMessages' | 'createdOn' | 'updatedOn' | 'cancelledOn'
> & { checkpoints: CheckpointRow[] };

function toCheckpoint(row: CheckpointRow): TrackingCheckpoint {
  return {
    status: row.status === 'Cancelled' ? 'Active' : row.status,
    subtag: row.subtag,
    message: row.message,
    location: { city: row.city, state: row.state, zip: row.zip, country: row.country },
    occurredAt: row.occurredAt,
    source: row.source,
  };
}

function toShipmentRecord(row: ShipmentRow): ShipmentRecord {
  return {
    id: row.id,
    storeId: row.storeId,
    trackingNumber: row.trackingNumber,
    courier: row.courier,
    deliveryStatus: row.deliveryStatus,
    trackingUrl: row.trackingUrl,
    expectedDeliveryDate: row.expectedDeliveryDate?.toISOString().slice(0, 10) ?? null,
    // Fetched newest first to keep the latest 100; shown oldest first.
    checkpoints: [...row.checkpoints].reverse().map(toCheckpoint),
    merchantMessages: row.merchantMessages as unknown as MerchantMessage[],
    createdOn: row.createdOn,
    updatedOn: row.updatedOn,
    cancelledOn: row.cancelledOn,
  };
}

const shipmentNotFound = (trackingNumber: string) =>
  new AppError('not_found', `No shipment with tracking number "${trackingNumber}" in this store.`);

/** The carrier a shipment is registered with, and a note for the merchant when the courier_id sent named none we know. */
export interface ResolvedCourier {
  courier: string;
  message: MerchantMessage | null;
}

/**
 * The carrier of a new shipment: the courier_id given (normalised), else detected from the number,
 * else unknown. A courier_id that names no carrier we know ("My carrier", "custom", "") counts as
 * omitted: the shipment is still registered, as a tracking number is never to be lost over its
 * carrier's name, and a merchant message records the name that was sent.
 */
export function resolveCourier(input: { courier_id?: string | null | undefined; tracking_number: string }, now: Date): ResolvedCourier {
  const sent = input.courier_id ?? '';
  const named = namedCourier(sent);
  if (named !== null) return { courier: named, message: null };
  const courier = detectCarrier(input.tracking_number) ?? UNKNOWN_COURIER;
  if (sent.trim() === '') return { courier, message: null };
  return { courier, message: unknownCourierIdMessage(sent, courier, now) };
}

/** The carrier a courier_id names; null for an empty one or a name we do not know (both read as omitted). */
function namedCourier(sent: string): string | null {
  return sent.trim() === '' ? null : normalizeCourierId(sent);
}

function unknownCourierIdMessage(sent: string, courier: string, now: Date): MerchantMessage {
  return {
    code: 'courier_id_unknown',
    message: `courier_id "${sent}" names no carrier we know (docs/carriers.md lists them), so it was read as omitted; the shipment's carrier is ${courier}.`,
    created_on: now.toISOString(),
  };
}

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
  scope: StoreScope,
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
           FROM orders o LEFT JOIN order_line_items l ON l.order_id = o.id
          WHERE o.store_id = $1::uuid AND o.source_order_id = $2
            FOR UPDATE OF o`,
};

/** Each shipment's event, its data read from the input row that made the shipment. */
const SHIPMENT_EVENT = eventInsertSql(
  { storeId: '$1::uuid', type: "'shipment.created'", actorKind: '$7::actor_kind', actorId: '$8', data: "i.item -> 'event'", at: '$5::timestamptz' },
  { from: "s JOIN input i ON (i.item ->> 'id')::uuid = s.id" },
);

/**
 * $1 store, $2 the order's source id, $3 the shipments (a JSON array, in the order to insert them),
 * $4 the tracking provider, $5 the time, $6 the fulfilment id or null, $7 and $8 the actor.
 */
const INSERT_SHIPMENTS: HotStatement = {
  name: 'op_insert_shipments',
  text: `WITH o AS (
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
           INSERT INTO tracking_poll_outbox (shipment_id, created_at) SELECT id, now() FROM s
         )
         SELECT EXISTS (SELECT 1 FROM o) AS order_found,
                ($6::text IS NULL OR EXISTS (SELECT 1 FROM f)) AS fulfillment_recorded,
                ARRAY(SELECT id::text FROM s) AS inserted`,
};

/** The active shipment with that number, else the latest cancelled one. */
async function findShipment(db: Database | Transaction, storeId: string, trackingNumber: string) {
  return db.shipment.findFirst({
    where: { storeId, trackingNumber },
    orderBy: [{ cancelledOn: { sort: 'desc', nulls: 'first' } }, { createdOn: 'desc' }],
    include: shipmentInclude,
  });
}

export async function getShipment(db: Database, scope: StoreScope, trackingNumber: string): Promise<ShipmentRecord> {
  const row = await selectShipment(db, scope.store.id, trackingNumber);
  if (!row) throw shipmentNotFound(trackingNumber);
  return toShipmentRecord(row);
}

/**
 * What findShipment answers for a read (the active shipment with that number, else the latest
 * cancelled one, with its latest scans) in one statement, where Prisma's include takes two. A DATE
 * travels as text, so no time zone moves it.
 */
const SHIPMENT_WITH_CHECKPOINTS: HotStatement = {
  name: 'op_shipment_with_checkpoints',
  text: `SELECT s.id, s.store_id, s.tracking_number, s.courier, s.delivery_status::text AS delivery_status, s.tracking_url,
                s.expected_delivery_date::text AS expected_delivery_date, s.merchant_messages, s.created_on, s.updated_on,
                s.cancelled_on,
                COALESCE((SELECT json_agg(json_build_object(
                            'status', c.status, 'subtag', c.subtag, 'message', c.message, 'city', c.city, 'state', c.state,
                            'zip', c.zip, 'country', c.country, 'occurred_at', c.occurred_at, 'source', c.source)
                            ORDER BY c.occurred_at DESC, c.id DESC)
                            FROM (SELECT * FROM shipment_checkpoints WHERE shipment_id = s.id
                                   ORDER BY occurred_at DESC, id DESC LIMIT $3) c), '[]'::json) AS checkpoints
           FROM shipments s
          WHERE s.store_id = $1::uuid AND s.tracking_number = $2
          ORDER BY s.cancelled_on DESC NULLS FIRST, s.created_on DESC
          LIMIT 1`,
};

interface ShipmentWithCheckpointsRow {
  id: string;
  store_id: string;
  tracking_number: string;
  courier: string;
  delivery_status: ShipmentRow['deliveryStatus'];
  tracking_url: string | null;
  expected_delivery_date: string | null;
  merchant_messages: ShipmentRow['merchantMessages'];
  created_on: Date;
  updated_on: Date;
  cancelled_on: Date | null;
  checkpoints: Array<Omit<CheckpointRow, 'occurredAt'> & { occurred_at: string }>;
}

async function selectShipment(db: Database, storeId: string, trackingNumber: string): Promise<ShipmentRow | null> {
  const [row] = await hotQuery<ShipmentWithCheckpointsRow>(db, SHIPMENT_WITH_CHECKPOINTS, [storeId, trackingNumber, CHECKPOINTS_PER_READ]);
  if (row === undefined) return null;
  return {
    id: row.id,
    storeId: row.store_id,
    trackingNumber: row.tracking_number,
    courier: row.courier,
    deliveryStatus: row.delivery_status,
    trackingUrl: row.tracking_url,
    expectedDeliveryDate: row.expected_delivery_date === null ? null : new Date(`${row.expected_delivery_date}T00:00:00.000Z`),
    merchantMessages: row.merchant_messages,
    createdOn: row.created_on,
    updatedOn: row.updated_on,
    cancelledOn: row.cancelled_on,
    checkpoints: row.checkpoints.map(({ occurred_at, ...checkpoint }) => ({ ...checkpoint, occurredAt: new Date(occurred_at) })),
  };
}

/**
 * A shipment update: only the carrier can change. Clients that send the whole shipment again may
 * echo its other fields, which must then be what is stored (a changed one is 400: a tracking number
 * is corrected by cancelling and creating a new shipment).
 */
export interface ShipmentUpdate {
  courier_id: string | null;
  tracking_number?: string | undefined;
  source_order_id?: string | undefined;
  source_product_ids?: string[] | undefined;
  line_items?: ShipmentInput['line_items'];
}

const sameMultiset = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

const lineKey = (line: { source_id: string; source_product_id?: string | undefined; quantity: number }) =>
  `${line.source_id}\u0000${line.source_product_id ?? ''}\u0000${line.quantity}`;

/** The echoed fields that differ from what is stored, one error each. */
function changedEchoes(
  update: ShipmentUpdate,
  stored: { trackingNumber: string; sourceOrderId: string; sourceProductIds: string[]; lineItems: ShipmentInput['line_items'] | null },
): FieldError[] {
  const changed = (field: string): FieldError => ({
    field,
    message: 'differs from the stored shipment; only courier_id can change (cancel and create a new shipment to change the rest)',
  });
  const errors: FieldError[] = [];
  if (update.tracking_number !== undefined && update.tracking_number !== stored.trackingNumber) errors.push(changed('tracking_number'));
  if (update.source_order_id !== undefined && update.source_order_id !== stored.sourceOrderId) errors.push(changed('source_order_id'));
  if (update.source_product_ids !== undefined && !sameMultiset(update.source_product_ids, stored.sourceProductIds)) errors.push(changed('source_product_ids'));
  if (update.line_items !== undefined && !sameMultiset(update.line_items.map(lineKey), (stored.lineItems ?? []).map(lineKey))) errors.push(changed('line_items'));
  return errors;
}

/** Changes the carrier; the next poll registers the number with it afresh. */
export async function updateShipment(
  db: Database,
  tracking: ShipmentTracking,
  scope: StoreScope,
  trackingNumber: string,
  update: ShipmentUpdate,
  now: Date,
): Promise<ShipmentRecord> {
  return db.$transaction(async (tx) => {
    const current = await findShipment(tx, scope.store.id, trackingNumber);
    if (!current) throw shipmentNotFound(trackingNumber);
    const order = await tx.order.findUniqueOrThrow({ where: { id: current.orderId }, select: { sourceOrderId: true } });
    const errors = changedEchoes(update, {
      trackingNumber: current.trackingNumber,
      sourceOrderId: order.sourceOrderId,
      sourceProductIds: current.sourceProductIds,
      lineItems: current.lineItems as ShipmentInput['line_items'] | null,
    });
    if (errors.length > 0) throw new AppError('invalid_request', 'Only courier_id can change on a shipment.', errors);
    const sent = update.courier_id ?? '';
    const courier = namedCourier(sent);
    if (courier === null) {
      // Treated as omitted: the carrier stays; a name we do not know is noted for the merchant.
      if (sent.trim() === '') return toShipmentRecord(current);
      const message = unknownCourierIdMessage(sent, current.courier, now);
      const messages = current.merchantMessages as unknown as MerchantMessage[];
      if (messages.some((m) => m.code === message.code && m.message === message.message)) return toShipmentRecord(current);
      const row = await tx.shipment.update({
        where: { id: current.id },
        data: { merchantMessages: [...messages, message] as unknown as Prisma.InputJsonValue, updatedOn: now },
        include: shipmentInclude,
      });
      return toShipmentRecord(row);
    }
    if (current.courier === courier) return toShipmentRecord(current);
    const row = await tx.shipment.update({
      where: { id: current.id },
      data: { courier, providerRef: null, updatedOn: now },
      include: shipmentInclude,
    });
    // A shipment that was not being polled (unknown carrier, or finished) is followed again.
    if (row.cancelledOn === null) await tracking.scheduler.schedulePoll(row.id, { tx });
    return toShipmentRecord(row);
  });
}

/**
 * The update route's command (as for orders, server/domain/orders/upsert-order.ts): the documented
 * update, or, for a route-profile store (Route's PrestaShop module), update-or-create: the whole
 * body registers the shipment when the store has none with that number.
 */
export async function updateShipmentAsProfileAllows(
  db: Database,
  tracking: ShipmentTracking,
  scope: StoreScope,
  trackingNumber: string,
  update: ShipmentUpdate,
  readWhole: () => WholeBody<ShipmentInput>,
  now: Date,
): Promise<{ shipment: ShipmentRecord; created: boolean }> {
  let whole: WholeBody<ShipmentInput>;
  try {
    return { shipment: await updateShipment(db, tracking, scope, trackingNumber, update, now), created: false };
  } catch (error) {
    // Only route-profile stores create here; for every other store this is the documented update (404).
    if (!(error instanceof AppError) || error.code !== 'not_found' || scope.store.clientProfile !== 'route') throw error;
    whole = readWhole();
    if ('problems' in whole) {
      throw new AppError('not_found', `No shipment with tracking number "${trackingNumber}" in this store, and the body is not a whole shipment that could create it.`, whole.problems);
    }
  }
  return { shipment: await createShipment(db, tracking, scope, whole.input, now), created: true };
}

export async function cancelShipment(db: Database, scope: StoreScope, trackingNumber: string, clock: Clock): Promise<ShipmentRecord> {
  return db.$transaction(async (tx) => {
    const found = await findShipment(tx, scope.store.id, trackingNumber);
    if (!found) throw shipmentNotFound(trackingNumber);
    // Order row first, then the shipment: the same lock order as filing a claim, so the two queue up.
    await tx.$queryRaw`SELECT id FROM orders WHERE id = ${found.orderId}::uuid FOR UPDATE`;
    await tx.$queryRaw`SELECT id FROM shipments WHERE id = ${found.id}::uuid FOR UPDATE`;
    const current = await tx.shipment.findUniqueOrThrow({ where: { id: found.id }, include: shipmentInclude });
    // Dated once both locks are held: after any tracking report or change applied before it. The
    // cancellation's own event follows the status change a millisecond later (domain/kernel/clock.ts).
    const now = appliedAt(clock, current.updatedOn);
    const cancelledOn = new Date(now.getTime() + 1);
    if (current.cancelledOn !== null) return toShipmentRecord(current);
    if (await hasOpenClaim(tx, { orderId: current.orderId, shipmentId: current.id })) {
      throw new AppError('conflict', 'The shipment has an open claim; it cannot be cancelled until the claim is resolved.');
    }
    const shipment = toShipmentRecord(
      await tx.shipment.update({
        where: { id: current.id },
        data: { deliveryStatus: 'Cancelled', cancelledOn, updatedOn: cancelledOn },
        include: shipmentInclude,
      }),
    );
    await emitDeliveryStatusChanged(tx, scope.actor, shipment, current.deliveryStatus, now);
    await emitEvent(tx, scope.actor, scope.store.id, newEvent('shipment.cancelled', toShipmentResponse(shipment)), cancelledOn);
    return shipment;
  });
}

/** shipment.delivery_status_changed, with the status before and the newest scan. */
async function emitDeliveryStatusChanged(tx: Transaction, actor: Actor, shipment: ShipmentRecord, previous: DeliveryStatus, now: Date): Promise<void> {
  const latest = shipment.checkpoints.at(-1);
  const data = {
    ...toShipmentResponse(shipment),
    previous_delivery_status: previous,
    latest_checkpoint: latest === undefined ? null : toCheckpointResponse(latest),
  };
  await emitEvent(tx, actor, shipment.storeId, newEvent('shipment.delivery_status_changed', data), now);
}

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
  shipmentId: string,
  report: TrackingReport,
  now: Date,
  next?: { scheduler: PollScheduler; startAfter: Date },
): Promise<DeliveryStatus | null> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ delivery_status: DeliveryStatus; last_polled_at: Date | null; updated_on: Date }>>`
      SELECT delivery_status, last_polled_at, updated_on FROM shipments WHERE id = ${shipmentId}::uuid FOR UPDATE`;
    const current = locked[0]?.delivery_status;
    if (current === undefined) return null;
    if (current === 'Cancelled') return current;
    // A report as of a time before one already applied (two polls, or a poll and a provider's
    // webhook, crossing): its scans are kept, its status would turn the clock back.
    const stale = locked[0]?.last_polled_at != null && now < (locked[0].last_polled_at as Date);
    if (report.checkpoints.length > 0) {
      await tx.shipmentCheckpoint.createMany({
        data: report.checkpoints.map((checkpoint) => ({
          shipmentId,
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
    const changedAt = appliedAt(clockAt(now), locked[0]?.updated_on ?? new Date(0));
    await tx.shipment.update({
      where: { id: shipmentId },
      data: {
        deliveryStatus: report.deliveryStatus,
        trackingUrl: report.trackingUrl,
        expectedDeliveryDate: report.expectedDeliveryDate === null ? null : new Date(`${report.expectedDeliveryDate}T00:00:00Z`),
        lastPolledAt: now,
        updatedOn: changedAt,
      },
    });
    if (report.deliveryStatus !== current) {
      const shipment = toShipmentRecord(await tx.shipment.findUniqueOrThrow({ where: { id: shipmentId }, include: shipmentInclude }));
      await emitDeliveryStatusChanged(tx, actor, shipment, current, changedAt);
    }
    if (next && report.deliveryStatus !== 'Delivered') await next.scheduler.schedulePoll(shipmentId, { tx, startAfter: next.startAfter });
    return report.deliveryStatus;
  });
}

async function addMerchantMessageOnce(db: Database, shipmentId: string, message: MerchantMessage): Promise<void> {
  const row = await db.shipment.findUnique({ where: { id: shipmentId }, select: { merchantMessages: true } });
  const messages = (row?.merchantMessages ?? []) as unknown as MerchantMessage[];
  if (messages.some((m) => m.code === message.code)) return;
  await db.shipment.update({ where: { id: shipmentId }, data: { merchantMessages: [...messages, message] as unknown as Prisma.InputJsonValue } });
}

export type PollOutcome = 'again' | 'stop';

/** Who changes a shipment from carrier reports: the service's own poll, or the provider's webhook. */
const TRACKING_POLL_ACTOR: Actor = { kind: 'system', job: 'tracking-poll' };
const TRACKING_WEBHOOK_ACTOR: Actor = { kind: 'system', job: 'tracking-webhook' };

/**
 * One poll of one shipment: register it with the provider if needed, fetch the report and apply
 * it, scheduling the next poll in the same transaction. Cancelled and delivered shipments, unknown
 * carriers and shipments older than the polling window stop here.
 */
export async function pollShipment(
  db: Database,
  provider: TrackingProvider,
  scheduler: PollScheduler,
  shipmentId: string,
  now: Date,
  nextPollAt: Date,
): Promise<PollOutcome> {
  const shipment = await db.shipment.findUnique({ where: { id: shipmentId } });
  if (!shipment || shipment.cancelledOn !== null || shipment.deliveryStatus === 'Delivered') return 'stop';
  if (shipment.courier === UNKNOWN_COURIER) {
    await addMerchantMessageOnce(db, shipment.id, {
      code: 'carrier_unknown',
      message: 'The carrier could not be told from this tracking number, so it is not tracked. Set courier_id with an update.',
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
      await db.shipment.update({ where: { id: shipment.id }, data: { providerRef } });
      target.providerRef = providerRef;
    }
  }
  const report = await provider.fetch(target, now);
  const status = await applyTrackingReport(db, TRACKING_POLL_ACTOR, shipment.id, report, now, { scheduler, startAfter: nextPollAt });
  return status === null || status === 'Delivered' || status === 'Cancelled' ? 'stop' : 'again';
}

/** A provider webhook names its own id for the shipment; false when no active shipment follows it. */
export async function applyProviderEvent(db: Database, providerRef: string, report: TrackingReport, now: Date): Promise<boolean> {
  const shipment = await db.shipment.findFirst({ where: { providerRef, cancelledOn: null }, select: { id: true } });
  if (!shipment) return false;
  await applyTrackingReport(db, TRACKING_WEBHOOK_ACTOR, shipment.id, report, now);
  return true;
}

/** The order a shipment of the scope's store belongs to (the console's shipment page links to it). */
export async function shipmentOrder(db: Database, scope: StoreScope, shipmentId: string): Promise<{ sourceOrderId: string; sourceOrderNumber: string; orderNumber: string }> {
  const row = await db.shipment.findFirst({
    where: { id: shipmentId, storeId: scope.store.id },
    select: { order: { select: { sourceOrderId: true, sourceOrderNumber: true, orderNumber: true } } },
  });
  if (!row) throw new AppError('not_found', 'No such shipment.');
  return row.order;
}

/** Every shipment of an order, oldest first, with its latest checkpoints (the console's order page). */
export async function listOrderShipments(db: Database, orderId: string): Promise<ShipmentRecord[]> {
  const rows = await db.shipment.findMany({ where: { orderId }, orderBy: [{ createdOn: 'asc' }, { id: 'asc' }], include: shipmentInclude });
  return rows.map(toShipmentRecord);
}
