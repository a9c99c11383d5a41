// Finding a store's orders (the console's list): by the date each was placed, newest first, a page
// at a time, filtered by status, protection and a range of days, and searched by prefix: the order
// number however it is typed, the shopper's email or name in any case, an exact source order id
// or OP- number, or a claim reference. Every match is an index probe (migration
// 20261127150000_console_order_search), so it stays fast at a million orders. Also everything
// that happened to one order, for its page.
import type { z } from 'zod';
import type { ConsoleOrderSearchQuery } from '../../../contract/console/orders.js';
import { Prisma, type Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { listClaims, normalizedReference, type ClaimRecord } from '../claims/index.js';
import { ledgerTotals } from '../billing/index.js';
import { AppError, decodePageCursor, encodePageCursor, type PageCursor } from '../kernel/index.js';
import { getOrder, type OrderRecord } from './index.js';
import { customerName } from './order-contact.js';
import { HOLDS_PERSONAL_DATA } from '../privacy/index.js';
import { listOrderShipments, type ShipmentRecord } from '../shipments/index.js';

export interface OrderSummary {
  id: string;
  sourceOrderId: string;
  sourceOrderNumber: string;
  orderNumber: string;
  customerName: string | null;
  status: 'created' | 'cancelled';
  insuranceSelected: boolean;
  premiumCents: number;
  orderTotalCents: number | null;
  hasPii: boolean;
  placedOn: Date;
  createdOn: Date;
  cancelledOn: Date | null;
}

export type OrderSearch = z.output<typeof ConsoleOrderSearchQuery>;

const DAY_START = 'T00:00:00.000Z';

/** LIKE's wildcards and its escape, taken literally. */
const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** The condition a search text puts on the orders (alias o), each branch one index's expression. */
function matching(storeId: string, typed: string): Prisma.Sql {
  const reference = normalizedReference(typed);
  if (/^CLM-[0-9A-Z]{6}$/.test(reference)) {
    return Prisma.sql`o.id IN (SELECT c.order_id FROM claims c WHERE c.store_id = ${storeId}::uuid AND c.reference = ${reference})`;
  }
  const lower = likePrefix(typed.toLowerCase());
  const byEmail = Prisma.sql`lower(o.customer_email) LIKE ${lower}`;
  if (typed.includes('@')) return byEmail;
  return Prisma.sql`(
    order_number_key(o.source_order_number) LIKE order_number_key(${likePrefix(typed)})
    OR o.source_order_id = ${typed}
    OR o.order_number = ${typed.toUpperCase()}
    OR ${byEmail}
    OR lower(coalesce(o.customer_first_name, '') || ' ' || coalesce(o.customer_last_name, '')) LIKE ${lower}
    OR lower(o.customer_last_name) LIKE ${lower})`;
}

export async function searchOrders(db: Database, scope: Scope, query: OrderSearch, limit: number): Promise<{ orders: OrderSummary[]; nextCursor: string | null }> {
  const storeId = scope.store.id;
  const conditions = [Prisma.sql`o.store_id = ${storeId}::uuid`];
  const typed = query.q?.trim() ?? '';
  if (typed !== '') conditions.push(matching(storeId, typed));
  // Written as constants, not parameters: a plan then matches the partial indexes of the rare side
  // (cancelled, unprotected) whatever the plan cache does. Each is one of two fixed texts.
  if (query.status !== undefined) conditions.push(query.status === 'cancelled' ? Prisma.sql`o.status = 'cancelled'` : Prisma.sql`o.status = 'created'`);
  if (query.protection !== undefined) conditions.push(query.protection === 'selected' ? Prisma.sql`o.insurance_selected` : Prisma.sql`NOT o.insurance_selected`);
  const from = query.placed_from === undefined ? null : new Date(`${query.placed_from}${DAY_START}`);
  const to = query.placed_to === undefined ? null : new Date(new Date(`${query.placed_to}${DAY_START}`).getTime() + 86_400_000);
  if (from !== null && to !== null && from >= to) {
    throw new AppError('invalid_request', 'The first day is after the last.', [{ field: 'placed_to', message: 'must be the same day as placed_from or later' }]);
  }
  if (from !== null) conditions.push(Prisma.sql`o.source_created_on >= ${from}::timestamptz`);
  if (to !== null) conditions.push(Prisma.sql`o.source_created_on < ${to}::timestamptz`);
  // The cursor names the last row of the previous page by (placed, id).
  const after: PageCursor | null = query.cursor === undefined ? null : decodePageCursor(query.cursor);
  if (after !== null) conditions.push(Prisma.sql`(o.source_created_on, o.id) < (${after.createdOn}::timestamptz, ${after.id}::uuid)`);

  const rows = await db.$queryRaw<
    Array<{
      id: string;
      source_order_id: string;
      source_order_number: string;
      order_number: string;
      first_name: string | null;
      last_name: string | null;
      status: 'created' | 'cancelled';
      insurance_selected: boolean;
      order_total_cents: bigint | null;
      has_pii: boolean;
      source_created_on: Date;
      created_on: Date;
      cancelled_on: Date | null;
    }>
  >`
    SELECT o.id, o.source_order_id, o.source_order_number, o.order_number, o.customer_first_name AS first_name,
           o.customer_last_name AS last_name, o.status, o.insurance_selected, o.order_total_cents,
           (${Prisma.raw(HOLDS_PERSONAL_DATA)}) AS has_pii, o.source_created_on, o.created_on, o.cancelled_on
      FROM orders o
     WHERE ${Prisma.join(conditions, ' AND ')}
     ORDER BY o.source_created_on DESC, o.id DESC
     LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const ledger = page.length === 0 ? [] : await db.premiumLedgerEntry.findMany({ where: { storeId, orderId: { in: page.map((row) => row.id) } }, select: { orderId: true, amountCents: true, reason: true } });
  return {
    orders: page.map((row) => ({
      id: row.id,
      sourceOrderId: row.source_order_id,
      sourceOrderNumber: row.source_order_number,
      orderNumber: row.order_number,
      customerName: customerName(row.first_name, row.last_name),
      status: row.status,
      insuranceSelected: row.insurance_selected,
      premiumCents: ledgerTotals(ledger.filter((entry) => entry.orderId === row.id)).netCents,
      orderTotalCents: row.order_total_cents === null ? null : Number(row.order_total_cents),
      hasPii: row.has_pii,
      placedOn: row.source_created_on,
      createdOn: row.created_on,
      cancelledOn: row.cancelled_on,
    })),
    nextCursor: rows.length > limit && last !== undefined ? encodePageCursor({ createdOn: last.source_created_on, id: last.id }) : null,
  };
}

export interface OrderHistory {
  order: OrderRecord;
  ledger: Array<{ id: string; reason: 'booking' | 'repricing' | 'reversal'; amountCents: number; effectiveAt: Date; createdAt: Date; refundId: string | null }>;
  shipments: ShipmentRecord[];
  claims: ClaimRecord[];
  refunds: Array<{ refundId: string; amountCents: number | null; protectionRefundedCents: number; reversedCents: number; note: string | null; refundedAt: Date | null; receivedAt: Date }>;
}

/** Everything that happened to one order of the store. */
export async function orderHistory(db: Database, scope: Scope, sourceOrderId: string, now: Date): Promise<OrderHistory> {
  const order = await getOrder(db, scope, sourceOrderId);
  const [ledger, shipments, claims, refunds] = await Promise.all([
    db.premiumLedgerEntry.findMany({ where: { storeId: scope.store.id, orderId: order.id }, orderBy: { id: 'asc' }, include: { refund: { select: { sourceRefundId: true } } } }),
    listOrderShipments(db, { id: order.id, storeId: scope.store.id }),
    listClaims(db, scope, sourceOrderId, now),
    db.refund.findMany({ where: { storeId: scope.store.id, orderId: order.id }, orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }] }),
  ]);
  return {
    order,
    ledger: ledger.map((entry) => ({
      id: entry.id.toString(),
      reason: entry.reason,
      amountCents: Number(entry.amountCents),
      effectiveAt: entry.effectiveAt,
      createdAt: entry.createdAt,
      refundId: entry.refund?.sourceRefundId ?? null,
    })),
    shipments,
    claims,
    refunds: refunds.map((refund) => ({
      refundId: refund.sourceRefundId,
      amountCents: refund.amountCents === null ? null : Number(refund.amountCents),
      protectionRefundedCents: Number(refund.protectionRefundedCents),
      reversedCents: Number(refund.reversedCents),
      note: refund.note,
      refundedAt: refund.refundedAt,
      receivedAt: refund.receivedAt,
    })),
  };
}
