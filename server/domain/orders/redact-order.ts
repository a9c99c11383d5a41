// Erasing one order's personal data (README, "Personal data"): the columns the registry names
// (domain/privacy/personal-data.ts) on the order, its lines, its claims and its quote, and every copy of
// them the service holds: claim and refund notes, claim photos, the stored events' objects (and what receivers
// answered to them), and the answers kept for idempotency keys. Money and the facts of the order stay: ids, amounts, line items, shipments,
// tracking history, claims without their texts, and the whole premium ledger.
import { Prisma, storeRowKey, type Database, type Transaction } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { hasOpenClaim } from '../claims/index.js';
import { addressInputOf, forgetAddressLookups } from '../addresses/index.js';
import { AppError } from '../kernel/index.js';
import { orderInclude, toOrderRecord, type OrderRecord } from './order-record.js';
import { lockOrder } from './update-order.js';

/** The personal fields of an order or claim object as the API answers it, and what they read once erased. */
const ERASED_OBJECT_FIELDS = { first_name: null, last_name: null, has_pii: false, description: null } as const;

/** An event's data with the shopper erased: the object keeps every other field as it was. */
export function erasedEventData(data: Record<string, unknown>): Record<string, unknown> {
  const erased: Record<string, unknown> = { ...data };
  for (const [field, value] of Object.entries(ERASED_OBJECT_FIELDS)) if (field in erased) erased[field] = value;
  // claim.status_changed carries the history entry, whose note is free text; a claim carries its
  // whole history and its resolution, whose notes are free text too.
  if (erased.status_change !== null && typeof erased.status_change === 'object') erased.status_change = { ...erased.status_change, note: null };
  if (Array.isArray(erased.history)) erased.history = erased.history.map((change: unknown) => (change !== null && typeof change === 'object' ? { ...change, note: null } : change));
  if (erased.resolution !== null && typeof erased.resolution === 'object') erased.resolution = { ...erased.resolution, note: null };
  if (Array.isArray(erased.line_items)) {
    erased.line_items = erased.line_items.map((line: unknown) =>
      line !== null && typeof line === 'object' && 'image_url' in line ? { ...line, image_url: null } : line,
    );
  }
  return erased;
}

/**
 * Erases the order's personal data and every copy of it, in one transaction under the order's row
 * lock (so an update or a second erasure waits, and then finds nothing to add back or erase).
 * 409 while a claim on the order is open: the claim needs the shopper's contact until it is decided.
 */
export async function redactOrder(db: Database, scope: Scope, sourceOrderId: string, now: Date): Promise<OrderRecord> {
  return db.$transaction(async (tx) => {
    const order = await lockOrder(tx, scope.store.id, sourceOrderId);
    if (await hasOpenClaim(tx, { storeId: order.storeId, orderId: order.id })) {
      throw new AppError('conflict', "The order has an open claim, which needs the shopper's contact; erase it once the claim is resolved.");
    }
    await eraseOrderCopies(tx, scope.store.id, { id: order.id, sourceOrderId: order.sourceOrderId, quoteId: order.quoteId });
    await forgetAddressLookups(tx, [order.shippingAddress, order.billingAddress].filter(isStoredAddress).map(addressInputOf));
    const erased = await tx.order.update({
      where: storeRowKey(order.storeId, order.id),
      data: {
        customerFirstName: null,
        customerLastName: null,
        customerEmail: null,
        customerPhone: null,
        shippingAddress: Prisma.DbNull,
        billingAddress: Prisma.DbNull,
      },
      include: orderInclude,
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'order.redacted', subject: { type: 'order', id: order.id }, at: now });
    return toOrderRecord(erased);
  });
}

/** A stored address: a JSON object (a column erased or never given is null). */
const isStoredAddress = (value: unknown): value is Parameters<typeof addressInputOf>[0] => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What erasing several orders came to, by source_order_id. */
export interface RedactionOutcome {
  redacted: string[];
  /** Left holding their data because a claim on them is open (ask again once it is resolved). */
  withheld: string[];
}

/**
 * Erases each order in a short transaction of its own, so no lock outlives one order. An order
 * with an open claim is withheld, not an error; one the store does not have is skipped (it holds
 * nothing).
 */
export async function redactOrders(db: Database, scope: Scope, sourceOrderIds: readonly string[], now: Date): Promise<RedactionOutcome> {
  const outcome: RedactionOutcome = { redacted: [], withheld: [] };
  for (const sourceOrderId of sourceOrderIds) {
    try {
      await redactOrder(db, scope, sourceOrderId, now);
      outcome.redacted.push(sourceOrderId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') outcome.withheld.push(sourceOrderId);
      else if (!(error instanceof AppError && error.code === 'not_found')) throw error;
    }
  }
  return outcome;
}

async function eraseOrderCopies(tx: Transaction, storeId: string, order: { id: string; sourceOrderId: string; quoteId: string | null }): Promise<void> {
  await tx.orderLineItem.updateMany({ where: { storeId, orderId: order.id, imageUrl: { not: null } }, data: { imageUrl: null } });
  await tx.claim.updateMany({ where: { storeId, orderId: order.id, description: { not: null } }, data: { description: null } });
  await tx.claim.updateMany({ where: { storeId, orderId: order.id, resolutionNote: { not: null } }, data: { resolutionNote: null } });
  // A shopper's photos may show their home, their face or their neighbours: they go with the texts
  // (the default photo store's images with their rows).
  await tx.claimPhoto.deleteMany({ where: { storeId, orderId: order.id } });
  await tx.claimStatusChange.updateMany({ where: { storeId, claim: { orderId: order.id }, note: { not: null } }, data: { note: null } });
  await tx.refund.updateMany({ where: { storeId, orderId: order.id, note: { not: null } }, data: { note: null } });
  // Quotes are immutable but for their cart text (the migration's trigger allows exactly that).
  if (order.quoteId !== null) await tx.$executeRaw`UPDATE quotes SET cart_items = NULL WHERE id = ${order.quoteId}::uuid AND cart_items IS NOT NULL`;
  // The order and its claims inside stored events (shipments carry no personal data).
  const events = await tx.$queryRaw<Array<{ id: string; data: Record<string, unknown> }>>`
    SELECT id, data FROM events WHERE store_id = ${storeId}::uuid AND data ->> 'source_order_id' = ${order.sourceOrderId} FOR UPDATE`;
  for (const event of events) {
    await tx.$executeRaw`UPDATE events SET data = ${JSON.stringify(erasedEventData(event.data))}::json WHERE id = ${event.id}`;
  }
  // A merchant's receiver may have answered with what it was sent: the kept answers go too.
  if (events.length > 0) {
    await tx.$executeRaw`
      UPDATE webhook_delivery_attempts SET response_body = NULL
       WHERE response_body IS NOT NULL AND delivery_id IN (SELECT id FROM webhook_deliveries WHERE event_id = ANY (${events.map((event) => event.id)}::text[]))`;
  }
  // Successful answers kept for idempotency keys hold the order or its claims as answered.
  await tx.$executeRaw`DELETE FROM idempotency_keys WHERE store_id = ${storeId}::uuid AND response_body::jsonb ->> 'source_order_id' = ${order.sourceOrderId}`;
}
