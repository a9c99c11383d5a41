// Creates an order: validated, priced, then stored with its lines and its premium booking in one
// statement. The (store_id, source_order_id) unique index refuses a duplicate, so retries on any
// number of instances give exactly one order (409 for the others).
import { randomUUID } from 'node:crypto';
import { hotQuery, isUniqueViolation, lazyStatement, type Database } from '../../db/client.js';
import { toOrderResponse } from './order-payload.js';
import type { Actor, Scope } from '../access/index.js';
import { eventInsertSql, eventParameters, newEvent } from '../events/index.js';
import { AppError, assertUniqueIds } from '../kernel/index.js';

import { getOrder } from './get-order.js';
import { toOrderRecord, lineItemRows, type AddressValue, type LineItemInput, type OrderCreateInput, type OrderPricing, type OrderRecord, type PricingSource } from './order-record.js';
import { priceNewOrder, pricingColumns, pricingRequestOf } from './price-order.js';

/** Line item ids must be unique within the order: 422 naming every repeat. */
export function assertUniqueLineItemIds(items: readonly LineItemInput[]): void {
  assertUniqueIds(items, (item) => item.source_id, 'line_items', 'Line item source_id values must be unique within the order.');
}

/** The order's columns as the request gives them; shared by live writes and the sandbox's answers. */
export function orderColumns(scope: Scope, input: OrderCreateInput, pricing: OrderPricing, now: Date): OrderColumns {
  return {
    storeId: scope.store.id,
    sourceOrderId: input.source_order_id,
    sourceOrderNumber: input.source_order_number ?? input.source_order_id,
    insuranceSelected: input.insurance_selected,
    subtotalCents: input.subtotal,
    ...pricingColumns(pricing),
    orderTotalCents: input.order_total ?? null,
    shippingTotalCents: input.shipping_total ?? null,
    discountsTotalCents: input.discounts_total ?? null,
    taxesCents: input.taxes ?? null,
    customerFirstName: input.customer_details.first_name,
    customerLastName: input.customer_details.last_name,
    customerEmail: input.customer_details.email,
    customerPhone: input.customer_details.phone ?? null,
    shippingAddress: input.shipping_details,
    platformId: 'api',
    sourceCreatedOn: new Date(input.source_created_on),
    createdOn: now,
    updatedOn: now,
  };
}

export async function createOrder(db: Database, scope: Scope, input: OrderCreateInput, now: Date): Promise<OrderRecord> {
  assertUniqueLineItemIds(input.line_items);
  const pricing = await priceNewOrder(db, scope.store, pricingRequestOf(input), now);
  const inserted = await insertOrder(db, {
    columns: { ...orderColumns(scope, input, pricing, now), billingAddress: input.billing_address ?? null },
    lineItems: lineItemRows(input.line_items),
    pricing,
    actor: scope.actor,
  });
  if (!inserted) throw new OrderExistsError(await getOrder(db, scope, input.source_order_id));
  return inserted;
}

/**
 * 409 on create: the store already has an order with that source_order_id. It carries the order
 * that exists, so the answer can tell a retrying client what landed (its id, number and premium).
 */
export class OrderExistsError extends AppError {
  constructor(readonly existing: OrderRecord) {
    super('conflict', `An order with source_order_id "${existing.sourceOrderId}" already exists in this store.`);
  }
}

/** Everything a new order is stored with. */
export interface OrderColumns {
  storeId: string;
  sourceOrderId: string;
  sourceOrderNumber: string;
  insuranceSelected: boolean;
  quoteId: string | null;
  pricingSource: PricingSource;
  subtotalCents: number;
  amountCoveredCents: number;
  orderTotalCents: number | null;
  shippingTotalCents: number | null;
  discountsTotalCents: number | null;
  taxesCents: number | null;
  rateBps: number;
  minPremiumCents: number;
  maxCoveredCents: number | null;
  customerFirstName: string | null;
  customerLastName: string | null;
  customerEmail: string | null;
  customerPhone: string | null;
  shippingAddress: AddressValue | null;
  billingAddress?: AddressValue | null;
  platformId: string;
  protectionSku?: string | null;
  protectionLineCents?: number | null;
  sourceCreatedOn: Date;
  createdOn: Date;
  updatedOn: Date;
}

export type LineItemRow = ReturnType<typeof lineItemRows>[number];

/**
 * Stores a new order, its lines, its premium booking and its order.created event in one statement
 * (INSERT_ORDER below): all of it lands or none does. Returns null when the store already has an
 * order with that source_order_id (the unique constraint decides, so concurrent retries on any
 * number of instances give exactly one order, and one event).
 */
export async function insertOrder(
  db: Database,
  order: { columns: OrderColumns; lineItems: LineItemRow[]; pricing: OrderPricing; actor: Actor },
): Promise<OrderRecord | null> {
  const { columns, pricing } = order;
  const bigint = (value: number | null | undefined) => (value === null || value === undefined ? null : BigInt(value));
  // The id is made here so the event's data can hold it; only the order number comes from the database.
  const id = randomUUID();
  // Everything the answer holds is what is about to be written; the number is filled in after.
  const record = toOrderRecord({
    ...columns,
    id,
    orderNumber: '',
    status: 'created',
    subtotalCents: BigInt(columns.subtotalCents),
    amountCoveredCents: BigInt(columns.amountCoveredCents),
    orderTotalCents: bigint(columns.orderTotalCents),
    shippingTotalCents: bigint(columns.shippingTotalCents),
    discountsTotalCents: bigint(columns.discountsTotalCents),
    taxesCents: bigint(columns.taxesCents),
    shippingAddress: columns.shippingAddress,
    billingAddress: columns.billingAddress ?? null,
    cancelledOn: null,
    lineItems: order.lineItems.map((item) => ({ ...item, priceCents: BigInt(item.priceCents) })),
    ledgerEntries: pricing.premiumCents > 0 ? [{ amountCents: BigInt(pricing.premiumCents), reason: 'booking' }] : [],
  });
  const event = eventParameters(columns.storeId, order.actor, newEvent('order.created', toOrderResponse(record)), columns.createdOn);
  const [before, after] = splitAtOrderNumber(event[4]);
  let inserted: Array<{ order_number: string }>;
  try {
    inserted = await hotQuery<{ order_number: string }>(db, INSERT_ORDER, [
      id,
      ...ORDER_INSERT_COLUMNS.map(([, , valueOf]) => valueOf(columns)),
      JSON.stringify(lineItemJson(order.lineItems)),
      pricing.premiumCents,
      pricing.quoteId,
      event[0],
      event[1],
      event[2],
      event[3],
      before,
      event[5],
      after,
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  const row = inserted[0];
  if (row === undefined) throw new Error('the order insert returned no row');
  return { ...record, orderNumber: row.order_number };
}

/**
 * The event's JSON text on either side of the order number's value, which only the insert knows.
 * The top-level order_number comes before any text the sender wrote (after id and merchant_id,
 * two UUIDs), so its first occurrence is the one.
 */
function splitAtOrderNumber(json: string): [string, string] {
  const key = '"order_number":';
  const at = json.indexOf(`${key}""`);
  if (at < 0) throw new Error('the order.created data has no order_number');
  return [json.slice(0, at + key.length), json.slice(at + key.length + 2)];
}

const asJson = (value: AddressValue | null | undefined) => (value === null || value === undefined ? null : JSON.stringify(value));

/**
 * The orders columns a new order is inserted with: the column, its SQL type, and where its value
 * comes from. The statement below and its values are both made from this one list, so a new
 * column is one line here (and one field of OrderColumns).
 */
const ORDER_INSERT_COLUMNS: ReadonlyArray<readonly [column: string, sqlType: string | null, valueOf: (columns: OrderColumns) => unknown]> = [
  ['store_id', 'uuid', (c) => c.storeId],
  ['source_order_id', null, (c) => c.sourceOrderId],
  ['source_order_number', null, (c) => c.sourceOrderNumber],
  ['insurance_selected', null, (c) => c.insuranceSelected],
  ['quote_id', 'uuid', (c) => c.quoteId],
  ['pricing_source', 'pricing_source', (c) => c.pricingSource],
  ['subtotal_cents', 'bigint', (c) => c.subtotalCents],
  ['amount_covered_cents', 'bigint', (c) => c.amountCoveredCents],
  ['order_total_cents', 'bigint', (c) => c.orderTotalCents],
  ['shipping_total_cents', 'bigint', (c) => c.shippingTotalCents],
  ['discounts_total_cents', 'bigint', (c) => c.discountsTotalCents],
  ['taxes_cents', 'bigint', (c) => c.taxesCents],
  ['rate_bps', 'int', (c) => c.rateBps],
  ['min_premium_cents', 'bigint', (c) => c.minPremiumCents],
  ['max_covered_cents', 'bigint', (c) => c.maxCoveredCents],
  ['customer_first_name', null, (c) => c.customerFirstName],
  ['customer_last_name', null, (c) => c.customerLastName],
  ['customer_email', null, (c) => c.customerEmail],
  ['customer_phone', null, (c) => c.customerPhone],
  ['shipping_address', 'jsonb', (c) => asJson(c.shippingAddress)],
  ['billing_address', 'jsonb', (c) => asJson(c.billingAddress)],
  ['platform_id', null, (c) => c.platformId],
  ['protection_sku', null, (c) => c.protectionSku ?? null],
  ['protection_line_cents', 'bigint', (c) => c.protectionLineCents ?? null],
  ['source_created_on', 'timestamptz', (c) => c.sourceCreatedOn],
  ['created_on', 'timestamptz', (c) => c.createdOn],
  ['updated_on', 'timestamptz', (c) => c.updatedOn],
];

const placeholder = (position: number, sqlType: string | null) => `$${position}${sqlType === null ? '' : `::${sqlType}`}`;
/** $1 is the order's id; its columns follow; then the lines, the premium and the quote of the booking, then the event. */
const LINES = ORDER_INSERT_COLUMNS.length + 2;
const PREMIUM = LINES + 1;
const QUOTE = LINES + 2;
const EVENT = LINES + 3;

/**
 * A new order, its lines, when there is a premium its booking (dated to when the order was placed,
 * so it counts for that month), and its event with a delivery per subscribed endpoint, in one
 * statement: all of it lands or none does, without a transaction. Prisma's nested create with the include it answered with took eight round trips,
 * BEGIN to COMMIT. The (store_id, source_order_id) unique index refuses a duplicate.
 */
const INSERT_ORDER = lazyStatement('op_insert_order', () => {
  /** The event's data: the JSON text before the order number, the number, the text after it. */
  const EVENT_SQL = eventInsertSql(EVENT, { data: `($${EVENT + 4}::text || to_json(o.order_number)::text || $${EVENT + 6}::text)::json`, from: 'o' });
  return `WITH o AS (
           INSERT INTO orders (id, ${ORDER_INSERT_COLUMNS.map(([column]) => column).join(', ')})
           VALUES ($1::uuid, ${ORDER_INSERT_COLUMNS.map(([, sqlType], index) => placeholder(index + 2, sqlType)).join(', ')})
           RETURNING id, order_number, store_id, source_created_on
         ), lines AS (
           INSERT INTO order_line_items (order_id, store_id, position, source_id, name, price_cents, quantity, source_product_id, sku, is_insured, image_url)
           SELECT o.id, o.store_id, l.position, l.source_id, l.name, l.price_cents, l.quantity, l.source_product_id, l.sku, l.is_insured, l.image_url
             FROM o, jsonb_to_recordset($${LINES}::jsonb) AS l(position int, source_id text, name text, price_cents bigint, quantity int,
                                                           source_product_id text, sku text, is_insured boolean, image_url text)
         ), booking AS (
           INSERT INTO premium_ledger_entries (store_id, order_id, amount_cents, reason, effective_at, quote_id)
           SELECT o.store_id, o.id, $${PREMIUM}::bigint, 'booking'::ledger_reason, o.source_created_on, $${QUOTE}::uuid
             FROM o WHERE $${PREMIUM}::bigint > 0
         ), e AS (
           ${EVENT_SQL.event}
         ), deliveries AS (
           ${EVENT_SQL.deliveries}
         )
         SELECT order_number FROM o`;
});

/** Line items as the insert's jsonb_to_recordset reads them (snake_case columns). */
function lineItemJson(items: readonly LineItemRow[]) {
  return items.map((item) => ({
    position: item.position,
    source_id: item.sourceId,
    name: item.name,
    price_cents: item.priceCents,
    quantity: item.quantity,
    source_product_id: item.sourceProductId,
    sku: item.sku,
    is_insured: item.isInsured,
    image_url: item.imageUrl,
  }));
}
