// order.placed from a platform (README, Platform webhooks): the protection line decides whether
// the order is protected; the premium is the quoted one when the quote resolves and the cart still
// matches it, else the sender's protection_cents, else the configured rate. Test-mode orders go to
// the sandbox (domain/sandbox/sandbox.ts): acknowledged and never booked.
import type { z } from 'zod';
import { MAX_AMOUNT_CENTS } from '../../../contract/money.js';
import type { OrderPlacedMessage } from '../../../contract/webhooks.js';
import type pg from 'pg';
import type { Database, HotStatement } from '../../db/client.js';
import type { PlatformActor, Scope } from '../access/index.js';
import type { StoreContext } from '../stores/index.js';
import { AppError } from '../kernel/index.js';
import { ledgerTotals } from '../billing/index.js';
import { findProtectionLine, insertOrder, type LineItemRow, lineItemRows, priceNewOrder, pricingColumns } from '../orders/index.js';


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

/** What a pushed order asks to protect: its protection line, its insurable value and how to price it. */
export function readPushedOrder(store: StoreContext, order: PushedOrder) {
  assertCartWithinCeiling(order);
  const protectionIndex = findProtectionLine(order.line_items, store.protectionSkus);
  const protectionLine = order.line_items[protectionIndex] ?? null;
  const valueCents = insurableValueCents(order, protectionIndex);
  const request = { insuranceSelected: protectionLine !== null, valueCents, quoteId: order.quote_id, senderPremiumCents: order.protection_cents };
  return { protectionIndex, protectionLine, valueCents, request };
}

/** A live pushed order, booked once (a test-mode one goes to the sandbox, domain/sandbox/sandbox.ts). */
export async function ingestPushedOrder(db: Database, scope: Scope<PlatformActor>, message: OrderPlaced, now: Date): Promise<PushAcknowledgement> {
  const { store } = scope;
  const { order } = message;
  const mode = 'live';
  const { protectionIndex, protectionLine, valueCents, request } = readPushedOrder(store, order);
  const pricing = await priceNewOrder(db, store, request, now);

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

/**
 * The live order a follow-up message names, locked for the rest of the transaction, so follow-ups
 * of one order queue up. The sandbox dispatch decided the message is live (it names a live order).
 */
export async function lockMessageOrderOn(client: pg.ClientBase, storeId: string, sourceOrderId: string): Promise<string> {
  const order = await client.query<{ id: string }>({ name: LOCK_ORDER.name, text: LOCK_ORDER.text, values: [storeId, sourceOrderId] });
  const orderId = order.rows[0]?.id;
  if (orderId === undefined) throw orderNotYetIngested(sourceOrderId);
  return orderId;
}

const LOCK_ORDER: HotStatement = {
  name: 'op_lock_order',
  text: 'SELECT id FROM orders WHERE store_id = $1::uuid AND source_order_id = $2 FOR UPDATE',
};

/** A message about an order not received yet: the platform retries it later. */
export const orderNotYetIngested = (sourceOrderId: string) =>
  new AppError('order_not_yet_ingested', `Order "${sourceOrderId}" has not been received yet; retry this message later.`);
