// Reading shipments: by tracking number (the API), an order's (the console's order page), and the
// order a shipment belongs to.
import { hotQuery, type Database, type HotStatement } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import { type CheckpointRow, CHECKPOINTS_PER_READ, shipmentInclude, shipmentNotFound, type ShipmentRecord, type ShipmentRow, toShipmentRecord } from './shipment-record.js';

export async function getShipment(db: Database, scope: Scope, trackingNumber: string): Promise<ShipmentRecord> {
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
                            FROM (SELECT * FROM shipment_checkpoints WHERE shipment_id = s.id AND store_id = s.store_id
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

export async function selectShipment(db: Database, storeId: string, trackingNumber: string): Promise<ShipmentRow | null> {
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

/** The order a shipment of the scope's store belongs to (the console's shipment page links to it). */
export async function shipmentOrder(db: Database, scope: Scope, shipmentId: string): Promise<{ sourceOrderId: string; sourceOrderNumber: string; orderNumber: string }> {
  const row = await db.shipment.findFirst({
    where: { id: shipmentId, storeId: scope.store.id },
    select: { order: { select: { sourceOrderId: true, sourceOrderNumber: true, orderNumber: true } } },
  });
  if (!row) throw new AppError('not_found', 'No such shipment.');
  return row.order;
}

/** Every shipment of an order, oldest first, with its latest checkpoints (the console's order page). */
export async function listOrderShipments(db: Database, order: { id: string; storeId: string }): Promise<ShipmentRecord[]> {
  const rows = await db.shipment.findMany({ where: { storeId: order.storeId, orderId: order.id }, orderBy: [{ createdOn: 'asc' }, { id: 'asc' }], include: shipmentInclude });
  return rows.map(toShipmentRecord);
}
