// Orders (SPEC.md §2.4, §2.5, §3 Order): create, read, update, cancel. The premium is booked in the
// ledger in the same transaction as the order; the database guards against duplicates.
import type { z } from 'zod';
import { Address } from '../../contract/common.js';
import type { OrderRequest, OrderUpdateRequest } from '../../contract/orders.js';
import { fieldErrorsFromIssues, type FieldError } from '../../contract/errors.js';
import { hotQuery, isUniqueViolation, type Database, type HotStatement, type Prisma, type Transaction } from '../db/client.js';
import type { StoreScope } from './actor.js';
import { hasOpenClaim } from './claims.js';
import { AppError } from './errors.js';
import { lockExistingOrderRow, orderNotFound } from './order-lock.js';
import { ledgerTotals, repricingAmountCents } from './ledger.js';
import { coveredAmountCents, priceCoverage, type PricingTerms } from './pricing.js';
import { resolveQuote } from './quotes.js';
import type { StoreContext } from './stores.js';

export type OrderCreateInput = z.output<typeof OrderRequest>;
export type OrderUpdateInput = z.output<typeof OrderUpdateRequest>;
type LineItemInput = OrderCreateInput['line_items'][number];
type AddressValue = z.output<typeof Address>;

export interface OrderLineItemRecord {
  sourceId: string;
  name: string;
  priceCents: number;
  quantity: number;
  sourceProductId: string | null;
  sku: string | null;
  isInsured: boolean | null;
  imageUrl: string | null;
}

export interface OrderRecord {
  id: string;
  storeId: string;
  orderNumber: string;
  sourceOrderId: string;
  sourceOrderNumber: string;
  status: 'created' | 'cancelled';
  insuranceSelected: boolean;
  subtotalCents: number;
  amountCoveredCents: number;
  paidToInsureCents: number;
  orderTotalCents: number | null;
  shippingTotalCents: number | null;
  discountsTotalCents: number | null;
  taxesCents: number | null;
  firstName: string | null;
  lastName: string | null;
  hasPii: boolean;
  platformId: string;
  lineItems: OrderLineItemRecord[];
  sourceCreatedOn: Date;
  createdOn: Date;
  updatedOn: Date;
  cancelledOn: Date | null;
}

export interface OrderPricing {
  source: PricingSource;
  quoteId: string | null;
  terms: PricingTerms;
  coveredCents: number;
  premiumCents: number;
}

type PricingSource = 'quote' | 'rate' | 'none' | 'sender';

const orderInclude = {
  lineItems: { orderBy: { position: 'asc' } },
  ledgerEntries: { select: { amountCents: true, reason: true } },
} satisfies Prisma.OrderInclude;
type StoredOrder = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

/** What an order answer is made of: a StoredOrder, or the one-statement read below. */
type OrderRow = Pick<
  StoredOrder,
  | 'id'
  | 'storeId'
  | 'orderNumber'
  | 'sourceOrderId'
  | 'sourceOrderNumber'
  | 'status'
  | 'insuranceSelected'
  | 'subtotalCents'
  | 'amountCoveredCents'
  | 'orderTotalCents'
  | 'shippingTotalCents'
  | 'discountsTotalCents'
  | 'taxesCents'
  | 'customerFirstName'
  | 'customerLastName'
  | 'customerEmail'
  | 'shippingAddress'
  | 'platformId'
  | 'sourceCreatedOn'
  | 'createdOn'
  | 'updatedOn'
  | 'cancelledOn'
> & {
  lineItems: Array<Pick<StoredOrder['lineItems'][number], 'sourceId' | 'name' | 'priceCents' | 'quantity' | 'sourceProductId' | 'sku' | 'isInsured' | 'imageUrl'>>;
  ledgerEntries: StoredOrder['ledgerEntries'];
};

const optionalCents = (value: bigint | null): number | null => (value === null ? null : Number(value));

function toOrderRecord(row: OrderRow): OrderRecord {
  const totals = ledgerTotals(row.ledgerEntries.map((e) => ({ amountCents: Number(e.amountCents), reason: e.reason })));
  return {
    id: row.id,
    storeId: row.storeId,
    orderNumber: row.orderNumber,
    sourceOrderId: row.sourceOrderId,
    sourceOrderNumber: row.sourceOrderNumber,
    status: row.status,
    insuranceSelected: row.insuranceSelected,
    subtotalCents: Number(row.subtotalCents),
    amountCoveredCents: Number(row.amountCoveredCents),
    paidToInsureCents: totals.netCents,
    orderTotalCents: optionalCents(row.orderTotalCents),
    shippingTotalCents: optionalCents(row.shippingTotalCents),
    discountsTotalCents: optionalCents(row.discountsTotalCents),
    taxesCents: optionalCents(row.taxesCents),
    firstName: row.customerFirstName,
    lastName: row.customerLastName,
    hasPii: row.customerEmail !== null || row.customerFirstName !== null || row.shippingAddress !== null,
    platformId: row.platformId,
    lineItems: row.lineItems.map((item) => ({
      sourceId: item.sourceId,
      name: item.name,
      priceCents: Number(item.priceCents),
      quantity: item.quantity,
      sourceProductId: item.sourceProductId,
      sku: item.sku,
      isInsured: item.isInsured,
      imageUrl: item.imageUrl,
    })),
    sourceCreatedOn: row.sourceCreatedOn,
    createdOn: row.createdOn,
    updatedOn: row.updatedOn,
    cancelledOn: row.cancelledOn,
  };
}

export function lineItemRows(items: readonly LineItemInput[]) {
  return items.map((item, position) => ({
    position,
    sourceId: item.source_id,
    name: item.name,
    priceCents: item.price,
    quantity: item.quantity,
    sourceProductId: item.source_product_id ?? null,
    sku: item.sku ?? null,
    isInsured: item.is_insured ?? null,
    imageUrl: item.image_url ?? null,
  }));
}

/** A duplicate id within the request itself is 422, every repeat listed (README, Errors). */
export function assertUniqueLineItemIds(items: readonly LineItemInput[]): void {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  items.forEach((item, index) => {
    if (seen.has(item.source_id)) {
      errors.push({ field: `line_items[${index}].source_id`, message: `repeats source_id "${item.source_id}" of an earlier line item` });
    }
    seen.add(item.source_id);
  });
  if (errors.length > 0) throw new AppError('unprocessable', 'Line item source_id values must be unique within the order.', errors);
}


export interface PricingRequest {
  insuranceSelected: boolean;
  /** The insurable value of the cart, in cents. */
  valueCents: number;
  quoteId: string | undefined;
  /** A premium the sender computed itself (order push protection_cents): used when no quote resolves. */
  senderPremiumCents?: number | undefined;
}

/**
 * What a new order pays: the quoted premium when the quote resolves (same store, live, unexpired,
 * cart within tolerance), else the sender's own figure when it gave one, else the configured rate.
 */
export async function priceNewOrder(db: Database, store: StoreContext, request: PricingRequest, now: Date): Promise<OrderPricing> {
  const quote = request.insuranceSelected ? await resolveQuote(db, store.id, request.quoteId, request.valueCents, now) : null;
  if (quote) {
    return {
      source: 'quote',
      quoteId: quote.id,
      terms: quote.terms,
      coveredCents: coveredAmountCents(request.valueCents, quote.terms),
      premiumCents: quote.premiumCents,
    };
  }
  return priceWithoutQuote(store, request);
}

/**
 * The price when no quote resolves: the sender's own figure when it gave one, else the configured
 * rate. All a test-mode order gets, as test mode never sees a stored quote.
 */
export function priceWithoutQuote(store: StoreContext, request: PricingRequest): OrderPricing {
  const storeTerms = store.pricing;
  if (!request.insuranceSelected) {
    return { source: 'none', quoteId: null, terms: storeTerms, coveredCents: 0, premiumCents: 0 };
  }
  if (request.senderPremiumCents !== undefined) {
    return {
      source: 'sender',
      quoteId: null,
      terms: storeTerms,
      coveredCents: coveredAmountCents(request.valueCents, storeTerms),
      premiumCents: request.senderPremiumCents,
    };
  }
  return { source: 'rate', quoteId: null, terms: storeTerms, ...priceCoverage(request.valueCents, storeTerms) };
}

/** How an order records what priced it: the source, the quote, the cover and the terms applied. */
export function pricingColumns(pricing: OrderPricing): Pick<OrderColumns, 'quoteId' | 'pricingSource' | 'amountCoveredCents' | 'rateBps' | 'minPremiumCents' | 'maxCoveredCents'> {
  return {
    quoteId: pricing.quoteId,
    pricingSource: pricing.source,
    amountCoveredCents: pricing.coveredCents,
    rateBps: pricing.terms.rateBps,
    minPremiumCents: pricing.terms.minPremiumCents,
    maxCoveredCents: pricing.terms.maxCoveredCents,
  };
}

/** The order's columns as the request gives them; shared by live writes and the sandbox's answers. */
export function orderColumns(scope: StoreScope, input: OrderCreateInput, pricing: OrderPricing, now: Date): OrderColumns {
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

/** What a new order asks of pricing. */
export const pricingRequestOf = (input: OrderCreateInput): PricingRequest => ({
  insuranceSelected: input.insurance_selected,
  valueCents: input.subtotal,
  quoteId: input.quote_id,
});

export async function createOrder(db: Database, scope: StoreScope, input: OrderCreateInput, now: Date): Promise<OrderRecord> {
  assertUniqueLineItemIds(input.line_items);
  const pricing = await priceNewOrder(db, scope.store, pricingRequestOf(input), now);
  const inserted = await insertOrder(db, {
    columns: { ...orderColumns(scope, input, pricing, now), billingAddress: input.billing_address ?? null },
    lineItems: lineItemRows(input.line_items),
    pricing,
  });
  if (!inserted) {
    throw new AppError('conflict', `An order with source_order_id "${input.source_order_id}" already exists in this store.`);
  }
  return inserted;
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
 * Stores a new order, its lines and its premium booking in one statement (INSERT_ORDER below): all
 * of it lands or none does. Returns null when the store already has an order with that source_order_id (the unique
 * constraint decides, so concurrent retries on any number of instances give exactly one order).
 */
export async function insertOrder(
  db: Database,
  order: { columns: OrderColumns; lineItems: LineItemRow[]; pricing: OrderPricing },
): Promise<OrderRecord | null> {
  const { columns, pricing } = order;
  const json = (value: AddressValue | null | undefined) => (value === null || value === undefined ? null : JSON.stringify(value));
  const bigint = (value: number | null | undefined) => (value === null || value === undefined ? null : BigInt(value));
  let inserted: Array<{ id: string; order_number: string }>;
  try {
    inserted = await hotQuery<{ id: string; order_number: string }>(db, INSERT_ORDER, [
      columns.storeId,
      columns.sourceOrderId,
      columns.sourceOrderNumber,
      columns.insuranceSelected,
      columns.quoteId,
      columns.pricingSource,
      columns.subtotalCents,
      columns.amountCoveredCents,
      columns.orderTotalCents,
      columns.shippingTotalCents,
      columns.discountsTotalCents,
      columns.taxesCents,
      columns.rateBps,
      columns.minPremiumCents,
      columns.maxCoveredCents,
      columns.customerFirstName,
      columns.customerLastName,
      columns.customerEmail,
      columns.customerPhone,
      json(columns.shippingAddress),
      json(columns.billingAddress),
      columns.platformId,
      columns.protectionSku ?? null,
      columns.protectionLineCents ?? null,
      columns.sourceCreatedOn,
      columns.createdOn,
      columns.updatedOn,
      JSON.stringify(lineItemJson(order.lineItems)),
      pricing.premiumCents,
      pricing.quoteId,
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  const row = inserted[0];
  if (row === undefined) throw new Error('the order insert returned no row');
  // Everything else the answer holds is what was just written.
  return toOrderRecord({
    ...columns,
    id: row.id,
    orderNumber: row.order_number,
    status: 'created',
    subtotalCents: BigInt(columns.subtotalCents),
    amountCoveredCents: BigInt(columns.amountCoveredCents),
    orderTotalCents: bigint(columns.orderTotalCents),
    shippingTotalCents: bigint(columns.shippingTotalCents),
    discountsTotalCents: bigint(columns.discountsTotalCents),
    taxesCents: bigint(columns.taxesCents),
    shippingAddress: columns.shippingAddress,
    cancelledOn: null,
    lineItems: order.lineItems.map((item) => ({ ...item, priceCents: BigInt(item.priceCents) })),
    ledgerEntries: pricing.premiumCents > 0 ? [{ amountCents: BigInt(pricing.premiumCents), reason: 'booking' }] : [],
  });
}

/**
 * A new order, its lines and, when there is a premium, its booking (dated to when the order was
 * placed, so it counts for that month) in one statement: all of it lands or none does, without a
 * transaction. Prisma's nested create with the include it answered with took eight round trips,
 * BEGIN to COMMIT. The (store_id, source_order_id) unique index refuses a duplicate.
 */
const INSERT_ORDER: HotStatement = {
  name: 'op_insert_order',
  text: `WITH o AS (
           INSERT INTO orders (store_id, source_order_id, source_order_number, insurance_selected, quote_id, pricing_source,
             subtotal_cents, amount_covered_cents, order_total_cents, shipping_total_cents, discounts_total_cents, taxes_cents,
             rate_bps, min_premium_cents, max_covered_cents, customer_first_name, customer_last_name, customer_email,
             customer_phone, shipping_address, billing_address, platform_id, protection_sku, protection_line_cents,
             source_created_on, created_on, updated_on)
           VALUES ($1::uuid, $2, $3, $4, $5::uuid, $6::pricing_source, $7::bigint, $8::bigint, $9::bigint, $10::bigint,
             $11::bigint, $12::bigint, $13::int, $14::bigint, $15::bigint, $16, $17, $18, $19, $20::jsonb, $21::jsonb, $22,
             $23, $24::bigint, $25::timestamptz, $26::timestamptz, $27::timestamptz)
           RETURNING id, order_number, store_id, source_created_on
         ), lines AS (
           INSERT INTO order_line_items (order_id, position, source_id, name, price_cents, quantity, source_product_id, sku, is_insured, image_url)
           SELECT o.id, l.position, l.source_id, l.name, l.price_cents, l.quantity, l.source_product_id, l.sku, l.is_insured, l.image_url
             FROM o, jsonb_to_recordset($28::jsonb) AS l(position int, source_id text, name text, price_cents bigint, quantity int,
                                                           source_product_id text, sku text, is_insured boolean, image_url text)
         ), booking AS (
           INSERT INTO premium_ledger_entries (store_id, order_id, amount_cents, reason, effective_at, quote_id)
           SELECT o.store_id, o.id, $29::bigint, 'booking'::ledger_reason, o.source_created_on, $30::uuid
             FROM o WHERE $29::bigint > 0
         )
         SELECT id, order_number FROM o`,
};

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

export async function getOrder(db: Database, scope: StoreScope, sourceOrderId: string): Promise<OrderRecord> {
  const row = await selectOrder(db, scope.store.id, sourceOrderId);
  if (!row) throw orderNotFound(sourceOrderId);
  return toOrderRecord(row);
}

/**
 * The order with its lines (in the merchant's order) and its ledger entries, in one statement by
 * the (store_id, source_order_id) unique index; the Prisma include it replaces takes three.
 * Amounts travel as text, so no bigint goes through a float.
 */
const ORDER_WITH_LINES: HotStatement = {
  name: 'op_order_with_lines',
  text: `SELECT o.id, o.store_id, o.order_number, o.source_order_id, o.source_order_number, o.status::text AS status,
                o.insurance_selected, o.subtotal_cents::text AS subtotal_cents, o.amount_covered_cents::text AS amount_covered_cents,
                o.order_total_cents::text AS order_total_cents, o.shipping_total_cents::text AS shipping_total_cents,
                o.discounts_total_cents::text AS discounts_total_cents, o.taxes_cents::text AS taxes_cents,
                o.customer_first_name, o.customer_last_name, o.customer_email, o.shipping_address, o.platform_id,
                o.source_created_on, o.created_on, o.updated_on, o.cancelled_on,
                COALESCE((SELECT json_agg(json_build_object(
                            'source_id', li.source_id, 'name', li.name, 'price_cents', li.price_cents::text, 'quantity', li.quantity,
                            'source_product_id', li.source_product_id, 'sku', li.sku, 'is_insured', li.is_insured, 'image_url', li.image_url)
                            ORDER BY li.position)
                            FROM order_line_items li WHERE li.order_id = o.id), '[]'::json) AS line_items,
                COALESCE((SELECT json_agg(json_build_object('amount_cents', e.amount_cents::text, 'reason', e.reason))
                            FROM premium_ledger_entries e WHERE e.order_id = o.id), '[]'::json) AS ledger_entries
           FROM orders o
          WHERE o.store_id = $1::uuid AND o.source_order_id = $2`,
};

interface OrderWithLinesRow {
  id: string;
  store_id: string;
  order_number: string;
  source_order_id: string;
  source_order_number: string;
  status: OrderRow['status'];
  insurance_selected: boolean;
  subtotal_cents: string;
  amount_covered_cents: string;
  order_total_cents: string | null;
  shipping_total_cents: string | null;
  discounts_total_cents: string | null;
  taxes_cents: string | null;
  customer_first_name: string | null;
  customer_last_name: string | null;
  customer_email: string | null;
  shipping_address: OrderRow['shippingAddress'];
  platform_id: string;
  source_created_on: Date;
  created_on: Date;
  updated_on: Date;
  cancelled_on: Date | null;
  line_items: Array<{
    source_id: string;
    name: string;
    price_cents: string;
    quantity: number;
    source_product_id: string | null;
    sku: string | null;
    is_insured: boolean | null;
    image_url: string | null;
  }>;
  ledger_entries: Array<{ amount_cents: string; reason: OrderRow['ledgerEntries'][number]['reason'] }>;
}

const bigintOrNull = (value: string | null): bigint | null => (value === null ? null : BigInt(value));

async function selectOrder(db: Database, storeId: string, sourceOrderId: string): Promise<OrderRow | null> {
  const [row] = await hotQuery<OrderWithLinesRow>(db, ORDER_WITH_LINES, [storeId, sourceOrderId]);
  if (row === undefined) return null;
  return {
    id: row.id,
    storeId: row.store_id,
    orderNumber: row.order_number,
    sourceOrderId: row.source_order_id,
    sourceOrderNumber: row.source_order_number,
    status: row.status,
    insuranceSelected: row.insurance_selected,
    subtotalCents: BigInt(row.subtotal_cents),
    amountCoveredCents: BigInt(row.amount_covered_cents),
    orderTotalCents: bigintOrNull(row.order_total_cents),
    shippingTotalCents: bigintOrNull(row.shipping_total_cents),
    discountsTotalCents: bigintOrNull(row.discounts_total_cents),
    taxesCents: bigintOrNull(row.taxes_cents),
    customerFirstName: row.customer_first_name,
    customerLastName: row.customer_last_name,
    customerEmail: row.customer_email,
    shippingAddress: row.shipping_address,
    platformId: row.platform_id,
    sourceCreatedOn: row.source_created_on,
    createdOn: row.created_on,
    updatedOn: row.updated_on,
    cancelledOn: row.cancelled_on,
    lineItems: row.line_items.map((item) => ({
      sourceId: item.source_id,
      name: item.name,
      priceCents: BigInt(item.price_cents),
      quantity: item.quantity,
      sourceProductId: item.source_product_id,
      sku: item.sku,
      isInsured: item.is_insured,
      imageUrl: item.image_url,
    })),
    ledgerEntries: row.ledger_entries.map((entry) => ({ amountCents: BigInt(entry.amount_cents), reason: entry.reason })),
  };
}

/** Locks the order row for the rest of the transaction, so concurrent changes to one order queue up. */
async function lockOrder(tx: Transaction, storeId: string, sourceOrderId: string): Promise<StoredOrder> {
  const id = await lockExistingOrderRow(tx, storeId, sourceOrderId);
  return tx.order.findUniqueOrThrow({ where: { id }, include: orderInclude });
}

/** Merges a partial address into the stored one; the result must be a complete address. */
function mergeAddress(field: string, stored: unknown, patch: Partial<AddressValue>): AddressValue {
  const merged = { ...(typeof stored === 'object' && stored !== null ? stored : {}), ...patch };
  const parsed = Address.safeParse(merged);
  if (!parsed.success) {
    throw new AppError('invalid_request', `The merged ${field} is not a complete address.`, fieldErrorsFromIssues(parsed.error.issues, [field]));
  }
  return parsed.data;
}

/**
 * What an update may not change (409, every such field listed; the same value again is fine):
 * - source_created_on: it dated the premium booking, and billing counted the booking in that
 *   month. Moving it would make the order read one month while billing counts another.
 * - subtotal and insurance_selected of a cancelled order: a cancelled order no longer re-prices;
 *   its booked premium stays as it was when it was cancelled (reversals only come from refunds).
 */
function assertUpdatable(current: StoredOrder, patch: OrderUpdateInput): void {
  const refused: FieldError[] = [];
  if (patch.source_created_on !== undefined && new Date(patch.source_created_on).getTime() !== current.sourceCreatedOn.getTime()) {
    refused.push({ field: 'source_created_on', message: 'cannot change: it dates the premium booking, already counted in its billing month' });
  }
  if (current.status === 'cancelled') {
    if (patch.subtotal !== undefined && patch.subtotal !== Number(current.subtotalCents)) {
      refused.push({ field: 'subtotal', message: 'cannot change on a cancelled order: it no longer re-prices' });
    }
    if (patch.insurance_selected !== undefined && patch.insurance_selected !== current.insuranceSelected) {
      refused.push({ field: 'insurance_selected', message: 'cannot change on a cancelled order: it no longer re-prices' });
    }
  }
  if (refused.length > 0) throw new AppError('conflict', 'The update changes what this order can no longer change.', refused);
}

export async function updateOrder(
  db: Database,
  scope: StoreScope,
  sourceOrderId: string,
  patch: OrderUpdateInput,
  now: Date,
): Promise<OrderRecord> {
  if (patch.line_items) assertUniqueLineItemIds(patch.line_items);
  if (Object.values(patch).every((value) => value === undefined)) return getOrder(db, scope, sourceOrderId);

  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, scope.store.id, sourceOrderId);
    assertUpdatable(current, patch);
    const data: Prisma.OrderUncheckedUpdateInput = { updatedOn: now };
    if (patch.source_order_number !== undefined) data.sourceOrderNumber = patch.source_order_number;
    if (patch.order_total !== undefined) data.orderTotalCents = patch.order_total;
    if (patch.shipping_total !== undefined) data.shippingTotalCents = patch.shipping_total;
    if (patch.discounts_total !== undefined) data.discountsTotalCents = patch.discounts_total;
    if (patch.taxes !== undefined) data.taxesCents = patch.taxes;
    if (patch.customer_details) {
      const customer = patch.customer_details;
      if (customer.first_name !== undefined) data.customerFirstName = customer.first_name;
      if (customer.last_name !== undefined) data.customerLastName = customer.last_name;
      if (customer.email !== undefined) data.customerEmail = customer.email;
      if (customer.phone !== undefined) data.customerPhone = customer.phone;
    }
    if (patch.shipping_details) data.shippingAddress = mergeAddress('shipping_details', current.shippingAddress, patch.shipping_details);
    if (patch.billing_address) data.billingAddress = mergeAddress('billing_address', current.billingAddress, patch.billing_address);

    // Only subtotal and insurance_selected re-price (SPEC.md §3), with the order's own pricing terms.
    const subtotalCents = patch.subtotal ?? Number(current.subtotalCents);
    const insuranceSelected = patch.insurance_selected ?? current.insuranceSelected;
    if (subtotalCents !== Number(current.subtotalCents) || insuranceSelected !== current.insuranceSelected) {
      const terms: PricingTerms = {
        rateBps: current.rateBps,
        minPremiumCents: Number(current.minPremiumCents),
        maxCoveredCents: optionalCents(current.maxCoveredCents),
      };
      const target = insuranceSelected ? priceCoverage(subtotalCents, terms) : { coveredCents: 0, premiumCents: 0 };
      data.subtotalCents = subtotalCents;
      data.insuranceSelected = insuranceSelected;
      data.amountCoveredCents = target.coveredCents;
      data.pricingSource = insuranceSelected ? 'rate' : 'none';
      const totals = ledgerTotals(current.ledgerEntries.map((e) => ({ amountCents: Number(e.amountCents), reason: e.reason })));
      const amountCents = repricingAmountCents(totals, target.premiumCents);
      if (amountCents !== 0) {
        await tx.premiumLedgerEntry.create({
          data: { storeId: scope.store.id, orderId: current.id, amountCents, reason: 'repricing', effectiveAt: now },
        });
      }
    }
    if (patch.line_items) {
      await tx.orderLineItem.deleteMany({ where: { orderId: current.id } });
      await tx.orderLineItem.createMany({ data: lineItemRows(patch.line_items).map((row) => ({ ...row, orderId: current.id })) });
    }
    const row = await tx.order.update({ where: { id: current.id }, data, include: orderInclude });
    return toOrderRecord(row);
  });
}

export async function cancelOrder(db: Database, scope: StoreScope, sourceOrderId: string, now: Date): Promise<OrderRecord> {
  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, scope.store.id, sourceOrderId);
    // Cancelling twice succeeds and keeps the first cancelled_on. The booked premium is kept.
    if (current.status === 'cancelled') return toOrderRecord(current);
    if (await hasOpenClaim(tx, { orderId: current.id })) {
      throw new AppError('conflict', 'The order has an open claim; it cannot be cancelled until the claim is resolved.');
    }
    const row = await tx.order.update({
      where: { id: current.id },
      data: { status: 'cancelled', cancelledOn: now, updatedOn: now },
      include: orderInclude,
    });
    return toOrderRecord(row);
  });
}
