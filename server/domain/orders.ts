// Orders (SPEC.md §2.4, §2.5, §3 Order): create, read, update, cancel. The premium is booked in the
// ledger in the same transaction as the order; the database guards against duplicates.
import { randomInt, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { Address } from '../../contract/common.js';
import type { OrderRequest, OrderUpdateRequest } from '../../contract/orders.js';
import { fieldErrorsFromIssues, type FieldError } from '../../contract/errors.js';
import { isUniqueViolation, Prisma, type Database, type Transaction } from '../db/client.js';
import type { Caller, KeyMode } from './api-keys.js';
import { hasOpenClaim } from './claims.js';
import { AppError } from './errors.js';
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

const optionalCents = (value: bigint | null): number | null => (value === null ? null : Number(value));

function toOrderRecord(row: StoredOrder): OrderRecord {
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

function lineItemRows(items: readonly LineItemInput[]) {
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

/** SPEC.md §7: a duplicate id within the request itself is 422, every repeat listed. */
function assertUniqueLineItemIds(items: readonly LineItemInput[]): void {
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

function orderNotFound(sourceOrderId: string): AppError {
  return new AppError('not_found', `No order with source_order_id "${sourceOrderId}" in this store.`);
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
export async function priceNewOrder(db: Database, store: StoreContext, mode: KeyMode, request: PricingRequest, now: Date): Promise<OrderPricing> {
  const storeTerms = store.pricing;
  if (!request.insuranceSelected) {
    return { source: 'none', quoteId: null, terms: storeTerms, coveredCents: 0, premiumCents: 0 };
  }
  // Test mode never sees live data, so it never resolves a stored quote.
  const quote = mode === 'live' ? await resolveQuote(db, store.id, request.quoteId, request.valueCents, now) : null;
  if (quote) {
    return {
      source: 'quote',
      quoteId: quote.id,
      terms: quote.terms,
      coveredCents: coveredAmountCents(request.valueCents, quote.terms),
      premiumCents: quote.premiumCents,
    };
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

/** The order's columns as the request gives them; shared by live writes and test-mode answers. */
function orderColumns(caller: Caller, input: OrderCreateInput, pricing: OrderPricing, now: Date): OrderColumns {
  return {
    storeId: caller.store.id,
    sourceOrderId: input.source_order_id,
    sourceOrderNumber: input.source_order_number ?? input.source_order_id,
    insuranceSelected: input.insurance_selected,
    quoteId: pricing.quoteId,
    pricingSource: pricing.source,
    subtotalCents: input.subtotal,
    amountCoveredCents: pricing.coveredCents,
    orderTotalCents: input.order_total ?? null,
    shippingTotalCents: input.shipping_total ?? null,
    discountsTotalCents: input.discounts_total ?? null,
    taxesCents: input.taxes ?? null,
    rateBps: pricing.terms.rateBps,
    minPremiumCents: pricing.terms.minPremiumCents,
    maxCoveredCents: pricing.terms.maxCoveredCents,
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

function testOrderRecord(caller: Caller, input: OrderCreateInput, pricing: OrderPricing, now: Date): OrderRecord {
  const columns = orderColumns(caller, input, pricing, now);
  return {
    ...columns,
    id: `test_${randomUUID()}`,
    orderNumber: `TEST-${randomInt(100_000, 1_000_000)}`,
    status: 'created',
    paidToInsureCents: pricing.premiumCents,
    firstName: columns.customerFirstName,
    lastName: columns.customerLastName,
    hasPii: true,
    lineItems: lineItemRows(input.line_items),
    cancelledOn: null,
  };
}

export async function createOrder(db: Database, caller: Caller, input: OrderCreateInput, now: Date): Promise<OrderRecord> {
  assertUniqueLineItemIds(input.line_items);
  const pricing = await priceNewOrder(
    db,
    caller.store,
    caller.mode,
    { insuranceSelected: input.insurance_selected, valueCents: input.subtotal, quoteId: input.quote_id },
    now,
  );
  if (caller.mode === 'test') return testOrderRecord(caller, input, pricing, now);

  const inserted = await insertOrder(db, {
    columns: { ...orderColumns(caller, input, pricing, now), billingAddress: input.billing_address ?? null },
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
 * Stores a new order, its lines and its premium booking in one transaction: all of it lands or none
 * does. Returns null when the store already has an order with that source_order_id (the unique
 * constraint decides, so concurrent retries on any number of instances give exactly one order).
 */
export async function insertOrder(
  db: Database,
  order: { columns: OrderColumns; lineItems: LineItemRow[]; pricing: OrderPricing },
): Promise<OrderRecord | null> {
  const { columns, pricing } = order;
  const nullable = (value: AddressValue | null | undefined) => (value === null || value === undefined ? Prisma.DbNull : value);
  try {
    const row = await db.order.create({
      data: {
        ...columns,
        shippingAddress: nullable(columns.shippingAddress),
        billingAddress: nullable(columns.billingAddress),
        lineItems: { createMany: { data: order.lineItems } },
        ledgerEntries:
          pricing.premiumCents > 0
            ? {
                create: {
                  storeId: columns.storeId,
                  amountCents: pricing.premiumCents,
                  // The booking counts for the month the order was placed in.
                  reason: 'booking',
                  effectiveAt: columns.sourceCreatedOn,
                  quoteId: pricing.quoteId,
                },
              }
            : undefined,
      },
      include: orderInclude,
    });
    return toOrderRecord(row);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export async function getOrder(db: Database, caller: Caller, sourceOrderId: string): Promise<OrderRecord> {
  if (caller.mode === 'test') throw orderNotFound(sourceOrderId);
  const row = await db.order.findUnique({
    where: { storeId_sourceOrderId: { storeId: caller.store.id, sourceOrderId } },
    include: orderInclude,
  });
  if (!row) throw orderNotFound(sourceOrderId);
  return toOrderRecord(row);
}

/** Locks the order row for the rest of the transaction, so concurrent changes to one order queue up. */
async function lockOrder(tx: Transaction, storeId: string, sourceOrderId: string): Promise<StoredOrder> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM orders WHERE store_id = ${storeId}::uuid AND source_order_id = ${sourceOrderId} FOR UPDATE`;
  const id = locked[0]?.id;
  if (id === undefined) throw orderNotFound(sourceOrderId);
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

export async function updateOrder(
  db: Database,
  caller: Caller,
  sourceOrderId: string,
  patch: OrderUpdateInput,
  now: Date,
): Promise<OrderRecord> {
  if (patch.line_items) assertUniqueLineItemIds(patch.line_items);
  if (caller.mode === 'test') throw orderNotFound(sourceOrderId);
  if (Object.values(patch).every((value) => value === undefined)) return getOrder(db, caller, sourceOrderId);

  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, caller.store.id, sourceOrderId);
    const data: Prisma.OrderUncheckedUpdateInput = { updatedOn: now };
    if (patch.source_order_number !== undefined) data.sourceOrderNumber = patch.source_order_number;
    if (patch.order_total !== undefined) data.orderTotalCents = patch.order_total;
    if (patch.shipping_total !== undefined) data.shippingTotalCents = patch.shipping_total;
    if (patch.discounts_total !== undefined) data.discountsTotalCents = patch.discounts_total;
    if (patch.taxes !== undefined) data.taxesCents = patch.taxes;
    if (patch.source_created_on !== undefined) data.sourceCreatedOn = new Date(patch.source_created_on);
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
          data: { storeId: caller.store.id, orderId: current.id, amountCents, reason: 'repricing', effectiveAt: now },
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

export async function cancelOrder(db: Database, caller: Caller, sourceOrderId: string, now: Date): Promise<OrderRecord> {
  if (caller.mode === 'test') throw orderNotFound(sourceOrderId);
  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, caller.store.id, sourceOrderId);
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
