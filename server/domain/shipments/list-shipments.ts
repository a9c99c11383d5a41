// The store's shipments for the console's list: newest first, a page at a time (keyset over
// (created_on, id), kernel/page-cursor.ts), filtered by delivery status, carrier, an unknown carrier
// or days without a scan; and the count of every filter, in one aggregate statement. A shipment's
// last scan is its newest checkpoint, read through shipment_checkpoints' (shipment_id, occurred_at)
// index; the filters and the order through shipments' (store_id, …, created_on, id) indexes.
import { DEFAULT_SILENT_DAYS } from '../../../contract/console/shipments.js';
import { Prisma, type Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { decodePageCursor, pageOf, DAY_MS } from '../kernel/index.js';
import { UNKNOWN_COURIER } from './shipment-record.js';
import type { DeliveryStatus } from './tracking.js';


export interface ShipmentListQuery {
  status?: DeliveryStatus;
  carrier?: string;
  /** Only shipments on their way (Active or Exception) with no scan for at least this many days. */
  silentDays?: number;
  carrierUnknown?: boolean;
  cursor?: string;
}

export interface ShipmentSummary {
  id: string;
  trackingNumber: string;
  courier: string;
  deliveryStatus: DeliveryStatus;
  sourceOrderId: string;
  orderNumber: string;
  createdOn: Date;
  lastScanAt: Date | null;
  /** Whole days since the last scan (or registration); null once delivered or cancelled. */
  daysWithoutScan: number | null;
}

export interface ShipmentCounts {
  all: number;
  byStatus: Record<DeliveryStatus, number>;
  /** Most shipments first, then by slug. */
  byCarrier: Array<{ courier: string; count: number }>;
  carrierUnknown: number;
  silent: number;
  silentDays: number;
}

/** Statuses that still expect scans: a delivered or cancelled parcel is never "silent". */
const ON_ITS_WAY = Prisma.sql`('Active', 'Exception')`;

/** The newest scan of shipment `s` (of one on its way only, where the counts ask). */
const LAST_SCAN = Prisma.sql`LEFT JOIN LATERAL (SELECT max(c.occurred_at) AS at FROM shipment_checkpoints c WHERE c.shipment_id = s.id AND c.store_id = s.store_id) last ON true`;

/** Whether shipment `s` (with its `last` scan) is on its way and has had no scan since `since`. */
const silentSince = (since: Date) => Prisma.sql`(s.delivery_status::text IN ${ON_ITS_WAY} AND COALESCE(last.at, s.created_on) < ${since}::timestamptz)`;

const silentCutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

interface PageRow {
  id: string;
  tracking_number: string;
  courier: string;
  delivery_status: DeliveryStatus;
  created_on: Date;
  source_order_id: string;
  order_number: string;
  last_scan_at: Date | null;
}

interface CountRow {
  delivery_status: DeliveryStatus | null;
  courier: string | null;
  /** GROUPING(delivery_status, courier): 3 the whole store, 1 by status, 2 by carrier. */
  grouping: number;
  n: number;
  unknown: number;
  silent: number;
}

export async function listShipments(
  db: Database,
  scope: Scope,
  query: ShipmentListQuery,
  limit: number,
  now: Date,
): Promise<{ shipments: ShipmentSummary[]; nextCursor: string | null; counts: ShipmentCounts }> {
  const storeId = scope.store.id;
  const after = query.cursor === undefined ? null : decodePageCursor(query.cursor);
  const silentDays = query.silentDays ?? DEFAULT_SILENT_DAYS;
  // Only the filters asked for are in the statement, so the planner sees each index's columns.
  const conditions = [Prisma.sql`s.store_id = ${storeId}::uuid`];
  if (query.status !== undefined) conditions.push(Prisma.sql`s.delivery_status = ${query.status}::delivery_status`);
  if (query.carrier !== undefined) conditions.push(Prisma.sql`s.courier = ${query.carrier}`);
  if (query.carrierUnknown !== undefined) conditions.push(query.carrierUnknown ? Prisma.sql`s.courier = ${UNKNOWN_COURIER}` : Prisma.sql`s.courier <> ${UNKNOWN_COURIER}`);
  if (query.silentDays !== undefined) conditions.push(silentSince(silentCutoff(now, query.silentDays)));
  if (after !== null) conditions.push(Prisma.sql`(s.created_on, s.id) < (${after.createdOn}::timestamptz, ${after.id}::uuid)`);

  const [rows, countRows] = await Promise.all([
    db.$queryRaw<PageRow[]>`
      SELECT s.id, s.tracking_number, s.courier, s.delivery_status::text AS delivery_status, s.created_on,
             o.source_order_id, o.order_number, last.at AS last_scan_at
        FROM shipments s
        JOIN orders o ON o.id = s.order_id AND o.store_id = s.store_id
        ${LAST_SCAN}
       WHERE ${Prisma.join(conditions, ' AND ')}
       ORDER BY s.created_on DESC, s.id DESC
       LIMIT ${limit + 1}`,
    db.$queryRaw<CountRow[]>`
      SELECT s.delivery_status::text AS delivery_status, s.courier,
             GROUPING(s.delivery_status, s.courier)::int AS grouping,
             count(*)::int AS n,
             count(*) FILTER (WHERE s.courier = ${UNKNOWN_COURIER})::int AS unknown,
             count(*) FILTER (WHERE ${silentSince(silentCutoff(now, silentDays))})::int AS silent
        FROM shipments s
        ${LAST_SCAN}
       WHERE s.store_id = ${storeId}::uuid
       GROUP BY GROUPING SETS ((), (s.delivery_status), (s.courier))`,
  ]);

  const { page, nextCursor } = pageOf(
    rows.map((row) => ({ ...row, createdOn: row.created_on })),
    limit,
  );
  return {
    shipments: page.map((row) => ({
      id: row.id,
      trackingNumber: row.tracking_number,
      courier: row.courier,
      deliveryStatus: row.delivery_status,
      sourceOrderId: row.source_order_id,
      orderNumber: row.order_number,
      createdOn: row.created_on,
      lastScanAt: row.last_scan_at,
      daysWithoutScan:
        row.delivery_status === 'Active' || row.delivery_status === 'Exception' ? Math.max(0, Math.floor((now.getTime() - (row.last_scan_at ?? row.created_on).getTime()) / DAY_MS)) : null,
    })),
    nextCursor,
    counts: countsOf(countRows, silentDays),
  };
}

function countsOf(rows: CountRow[], silentDays: number): ShipmentCounts {
  const total = rows.find((row) => row.grouping === 3);
  const byStatus: Record<DeliveryStatus, number> = { Active: 0, Delivered: 0, Exception: 0, Cancelled: 0 };
  for (const row of rows) if (row.grouping === 1 && row.delivery_status !== null) byStatus[row.delivery_status] = row.n;
  const byCarrier = rows
    .filter((row): row is CountRow & { courier: string } => row.grouping === 2 && row.courier !== null)
    .map((row) => ({ courier: row.courier, count: row.n }))
    .sort((a, b) => b.count - a.count || a.courier.localeCompare(b.courier));
  return { all: total?.n ?? 0, byStatus, byCarrier, carrierUnknown: total?.unknown ?? 0, silent: total?.silent ?? 0, silentDays };
}
