// order.placed from a platform (README, Platform webhooks): the protection line decides whether
// the order is protected; the premium is the quoted one when the quote resolves and the cart still
// matches it, else the sender's protection_cents, else the configured rate. Test-mode orders are
// acknowledged and never booked.
import type { z } from 'zod';
import { MAX_AMOUNT_CENTS } from '../../../contract/money.js';
import type { OrderPlacedMessage } from '../../../contract/webhooks.js';
import type pg from 'pg';
import { isUniqueViolation, type Database, type HotStatement } from '../../db/client.js';
import type { PlatformScope } from '../access/actor.js';
import { AppError } from '../kernel/errors.js';
import { ledgerTotals } from '../billing/ledger.js';
import { insertOrder, lineItemRows, priceNewOrder, priceWithoutQuote, pricingColumns, type LineItemRow } from '../orders/index.js';
import { findProtectionLine } from '../orders/protection-line.js';

export type OrderPlaced = z.output<typeof OrderPlacedMessage>;
type PushedOrder = OrderPlaced['order'];

export interface PushAcknowledgement {
  mode: 'live' | 'test';
  orderId: string;
  premiumCents: number;
  duplicate: boolean;
}

/** mode "test" (any casing) or test: true marks a sandbox order; "live" or nothing is live; anything else is refused. */
export function pushedOrderMode(order: Pick<PushedOrder, 'mode' | 'test'>): 'live' | 'test' {
  const mode = order.mode?.trim().toLowerCase();
  if (mode !== undefined && mode !== 'test' && mode !== 'live') {
    throw new AppError('invalid_request', 'Unknown order mode.', [{ field: 'order.mode', message: 'must be test or live (or absent for live)' }]);
  }
  return mode === 'test' || order.test === true ? 'test' : 'live';
}

/**
 * The insurable value of the cart: merchandise lines only (never the protection line), less the
 * sales tax when unit prices include it. A tax-inclusive sender that omits tax_cents keeps the
 * tax-inclusive figure, so its quotes fail the cart-swap check (README, Protection SKUs and other integration declarations).
 */
export function insurableValueCents(order: PushedOrder, protectionIndex: number): number {
  const merchandise = order.line_items.reduce(
    (sum, line, index) => (index === protectionIndex ? sum : sum + line.unit_price_cents * line.quantity),
    0,
  );
  const tax = order.price_basis === 'tax_inclusive' ? (order.tax_cents ?? 0) : 0;
  return Math.max(0, merchandise - tax);
}

/** REST amounts stop at 9,999,999,999.99; a pushed cart whose lines add up to more is refused, never overflowed. */
function assertCartWithinCeiling(order: PushedOrder): void {
  const total = order.line_items.reduce((sum, line) => sum + BigInt(line.unit_price_cents) * BigInt(line.quantity), 0n);
  if (total > BigInt(MAX_AMOUNT_CENTS)) {
    throw new AppError('invalid_request', 'The order is larger than the service can protect.', [
      { field: 'order.line_items', message: `unit_price_cents x quantity must add up to at most ${MAX_AMOUNT_CENTS}` },
    ]);
  }
}

async function existingPremium(db: Database, storeId: string, sourceOrderId: string): Promise<number> {
  const entries = await db.premiumLedgerEntry.findMany({
    where: { order: { storeId, sourceOrderId } },
    select: { amountCents: true, reason: true },
  });
  return ledgerTotals(entries).netCents;
}

export async function ingestPushedOrder(
  db: Database,
  scope: PlatformScope,
  message: OrderPlaced,
  now: Date,
): Promise<PushAcknowledgement> {
  const { store } = scope;
  const { order } = message;
  const mode = pushedOrderMode(order);
  assertCartWithinCeiling(order);
  const protectionIndex = findProtectionLine(order.line_items, store.protectionSkus);
  const protectionLine = order.line_items[protectionIndex] ?? null;
  const valueCents = insurableValueCents(order, protectionIndex);
  const request = { insuranceSelected: protectionLine !== null, valueCents, quoteId: order.quote_id, senderPremiumCents: order.protection_cents };
  // A test-mode message never sees live data, so no stored quote prices it.
  const pricing = mode === 'test' ? priceWithoutQuote(store, request) : await priceNewOrder(db, store, request, now);

  if (mode === 'test') {
    // Kept only so that redeliveries, fulfilments and refunds of it are recognised; never booked.
    try {
      await db.testModeOrder.create({ data: { storeId: store.id, sourceOrderId: order.id, premiumCents: pricing.premiumCents, receivedAt: now } });
      return { mode, orderId: order.id, premiumCents: pricing.premiumCents, duplicate: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const first = await db.testModeOrder.findUniqueOrThrow({ where: { storeId_sourceOrderId: { storeId: store.id, sourceOrderId: order.id } } });
      return { mode, orderId: order.id, premiumCents: Number(first.premiumCents), duplicate: true };
    }
  }

  // A platform's line read as the API's, then stored as every order's lines are (lineItemRows).
  const merchandise: LineItemRow[] = lineItemRows(
    order.line_items
      .filter((_, index) => index !== protectionIndex)
      .map((line) => ({ source_id: line.id, name: line.title, price: line.unit_price_cents, quantity: line.quantity, source_product_id: line.product_id ?? undefined, sku: line.sku ?? undefined })),
  );
  const createdOn = new Date(order.created_at);
  const inserted = await insertOrder(db, {
    columns: {
      storeId: store.id,
      sourceOrderId: order.id,
      sourceOrderNumber: order.number ?? order.id,
      insuranceSelected: protectionLine !== null,
      subtotalCents: valueCents,
      ...pricingColumns(pricing),
      orderTotalCents: order.total_cents ?? null,
      shippingTotalCents: order.shipping_cents ?? null,
      discountsTotalCents: order.discount_cents ?? null,
      taxesCents: order.tax_cents ?? null,
      customerFirstName: order.customer?.first_name ?? null,
      customerLastName: order.customer?.last_name ?? null,
      customerEmail: order.customer?.email ?? null,
      customerPhone: order.customer?.phone ?? null,
      shippingAddress: order.shipping_address ?? null,
      platformId: scope.actor.platform,
      protectionSku: protectionLine?.sku ?? null,
      protectionLineCents: protectionLine === null ? null : protectionLine.unit_price_cents * protectionLine.quantity,
      sourceCreatedOn: createdOn,
      createdOn: now,
      updatedOn: now,
    },
    lineItems: merchandise,
    pricing,
    actor: scope.actor,
  });
  if (inserted) return { mode, orderId: order.id, premiumCents: inserted.paidToInsureCents, duplicate: false };
  // Redelivered (or already registered over REST): acknowledged, nothing booked twice.
  return { mode, orderId: order.id, premiumCents: await existingPremium(db, store.id, order.id), duplicate: true };
}

/** What a fulfilment or refund message refers to: a live order (locked for the rest of the transaction), or a test-mode one. */
export type MessageTarget = { kind: 'live'; orderId: string } | { kind: 'test' };

/**
 * The order a follow-up message names, on a connection in a transaction. The live order's row is
 * locked, so follow-ups of one order queue up. Neither live nor test: 500 order_not_yet_ingested,
 * so the sender retries later (messages can overtake each other).
 */
export async function lockMessageTargetOn(client: pg.ClientBase, storeId: string, sourceOrderId: string): Promise<MessageTarget> {
  const order = await client.query<{ id: string }>({ name: LOCK_ORDER.name, text: LOCK_ORDER.text, values: [storeId, sourceOrderId] });
  const orderId = order.rows[0]?.id;
  if (orderId !== undefined) return { kind: 'live', orderId };
  return testModeTargetOn(client, storeId, sourceOrderId);
}

/** A message naming no live order: its test-mode order, else 500 order_not_yet_ingested (see above). */
export async function testModeTargetOn(client: pg.Pool | pg.ClientBase, storeId: string, sourceOrderId: string): Promise<{ kind: 'test' }> {
  const test = await client.query({ name: TEST_ORDER.name, text: TEST_ORDER.text, values: [storeId, sourceOrderId] });
  if (test.rows.length > 0) return { kind: 'test' };
  throw orderNotYetIngested(sourceOrderId);
}

const LOCK_ORDER: HotStatement = {
  name: 'op_lock_order',
  text: 'SELECT id FROM orders WHERE store_id = $1::uuid AND source_order_id = $2 FOR UPDATE',
};

const TEST_ORDER: HotStatement = {
  name: 'op_test_mode_order',
  text: 'SELECT 1 FROM test_mode_orders WHERE store_id = $1::uuid AND source_order_id = $2',
};

/** A message about an order not received yet: the platform retries it later. */
export const orderNotYetIngested = (sourceOrderId: string) =>
  new AppError('order_not_yet_ingested', `Order "${sourceOrderId}" has not been received yet; retry this message later.`);
