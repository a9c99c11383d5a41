// Finding a store's orders (the console's search): by source order id, by either order number, or
// by the shopper's email through its keyed hash (customer-data.ts), newest first, a page at a
// time; and everything that happened to one order, for its page.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { listClaims, type ClaimRecord } from '../claims/index.js';
import { ledgerTotals } from '../billing/index.js';
import { afterCursor, decodePageCursor, pageOf, type PageCursor } from '../kernel/index.js';
import { getOrder, type OrderRecord } from './index.js';
import { hasPersonalData } from '../privacy/index.js';
import { listOrderShipments, type ShipmentRecord } from '../shipments/index.js';

export interface OrderSummary {
  id: string;
  sourceOrderId: string;
  sourceOrderNumber: string;
  orderNumber: string;
  status: string;
  insuranceSelected: boolean;
  premiumCents: number;
  hasPii: boolean;
  createdOn: Date;
  cancelledOn: Date | null;
}

/**
 * The ids of one page of the orders whose shopper has this email, newest first, after the cursor:
 * matched through the keyed hash (the email itself is never compared) and paged in SQL, so an email
 * with many orders never becomes a long list of ids.
 */
async function emailMatches(db: Database, storeId: string, email: string, after: PageCursor | null, take: number): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM orders
     WHERE customer_email_lookup = email_lookup_hash(${email}) AND store_id = ${storeId}::uuid
       AND (${after?.createdOn ?? null}::timestamptz IS NULL OR (created_on, id) < (${after?.createdOn ?? null}::timestamptz, ${after?.id ?? null}::uuid))
     ORDER BY created_on DESC, id DESC
     LIMIT ${take}`;
  return rows.map((row) => row.id);
}

export async function searchOrders(db: Database, scope: Scope, query: { q?: string; cursor?: string }, limit: number): Promise<{ orders: OrderSummary[]; nextCursor: string | null }> {
  const storeId = scope.store.id;
  const q = query.q?.trim() ?? '';
  const after = query.cursor === undefined ? null : decodePageCursor(query.cursor);
  const matching =
    q === ''
      ? {}
      : q.includes('@')
        ? { id: { in: await emailMatches(db, storeId, q, after, limit + 1) } }
        : { OR: [{ sourceOrderId: q }, { sourceOrderNumber: q }, { orderNumber: q }] };
  const rows = await db.order.findMany({
    // AND, not a spread: the search by number and the cursor are both an OR.
    where: { storeId, AND: [matching, afterCursor(after, 'desc')] },
    orderBy: [{ createdOn: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    include: { ledgerEntries: { select: { amountCents: true, reason: true } } },
  });
  const { page, nextCursor } = pageOf(rows, limit);
  return {
    orders: page.map((row) => ({
      id: row.id,
      sourceOrderId: row.sourceOrderId,
      sourceOrderNumber: row.sourceOrderNumber,
      orderNumber: row.orderNumber,
      status: row.status,
      insuranceSelected: row.insuranceSelected,
      premiumCents: ledgerTotals(row.ledgerEntries).netCents,
      hasPii: hasPersonalData(row),
      createdOn: row.createdOn,
      cancelledOn: row.cancelledOn,
    })),
    nextCursor,
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
    db.premiumLedgerEntry.findMany({ where: { orderId: order.id }, orderBy: { id: 'asc' }, include: { refund: { select: { sourceRefundId: true } } } }),
    listOrderShipments(db, order.id),
    listClaims(db, scope, sourceOrderId, now),
    db.refund.findMany({ where: { orderId: order.id }, orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }] }),
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
