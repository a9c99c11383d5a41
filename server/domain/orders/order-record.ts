// The one shape of an order inside the service (OrderRecord) and the one mapping to it from a
// stored row, whichever statement read it. The premium an order holds is never a stored number:
// it is the fold of its ledger entries (ledger.ts).
import type { z } from 'zod';
import type { Address } from '../../../contract/common.js';
import type { OrderRequest, OrderUpdateRequest } from '../../../contract/orders.js';
import { hotQuery, type Database, type HotStatement, type Prisma } from '../../db/client.js';
import { ledgerTotals } from '../billing/index.js';
import type { PricingTerms } from '../quotes/index.js';
import { hasPersonalData } from '../privacy/index.js';

export type OrderCreateInput = z.output<typeof OrderRequest>;
export type OrderUpdateInput = z.output<typeof OrderUpdateRequest>;
export type LineItemInput = OrderCreateInput['line_items'][number];
export type AddressValue = z.output<typeof Address>;

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

export type PricingSource = 'quote' | 'rate' | 'none' | 'sender';

export const orderInclude = {
  lineItems: { orderBy: { position: 'asc' } },
  ledgerEntries: { select: { amountCents: true, reason: true } },
} satisfies Prisma.OrderInclude;
export type StoredOrder = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

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
  | 'customerPhone'
  | 'shippingAddress'
  | 'billingAddress'
  | 'platformId'
  | 'sourceCreatedOn'
  | 'createdOn'
  | 'updatedOn'
  | 'cancelledOn'
> & {
  lineItems: Array<Pick<StoredOrder['lineItems'][number], 'sourceId' | 'name' | 'priceCents' | 'quantity' | 'sourceProductId' | 'sku' | 'isInsured' | 'imageUrl'>>;
  ledgerEntries: StoredOrder['ledgerEntries'];
};

export const optionalCents = (value: bigint | null): number | null => (value === null ? null : Number(value));

export function toOrderRecord(row: OrderRow): OrderRecord {
  const totals = ledgerTotals(row.ledgerEntries);
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
    hasPii: hasPersonalData(row),
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

/**
 * The order with its lines (in the merchant's order) and its ledger entries, in one statement by
 * the (store_id, source_order_id) unique index; the Prisma include it replaces takes three.
 * Amounts travel as text, so no bigint goes through a float. `extraColumns` adds a statement's own
 * columns after the order's (the refund's read, refunds.ts).
 */
export const orderWithLinesSql = (extraColumns = '') =>
  `SELECT o.id, o.store_id, o.order_number, o.source_order_id, o.source_order_number, o.status::text AS status,
          o.insurance_selected, o.subtotal_cents::text AS subtotal_cents, o.amount_covered_cents::text AS amount_covered_cents,
          o.order_total_cents::text AS order_total_cents, o.shipping_total_cents::text AS shipping_total_cents,
          o.discounts_total_cents::text AS discounts_total_cents, o.taxes_cents::text AS taxes_cents,
          o.customer_first_name, o.customer_last_name, o.customer_email, o.customer_phone, o.shipping_address,
          o.billing_address, o.platform_id,
          o.source_created_on, o.created_on, o.updated_on, o.cancelled_on,
          COALESCE((SELECT json_agg(json_build_object(
                      'source_id', li.source_id, 'name', li.name, 'price_cents', li.price_cents::text, 'quantity', li.quantity,
                      'source_product_id', li.source_product_id, 'sku', li.sku, 'is_insured', li.is_insured, 'image_url', li.image_url)
                      ORDER BY li.position)
                      FROM order_line_items li WHERE li.order_id = o.id AND li.store_id = o.store_id), '[]'::json) AS line_items,
          COALESCE((SELECT json_agg(json_build_object('amount_cents', e.amount_cents::text, 'reason', e.reason))
                      FROM premium_ledger_entries e WHERE e.order_id = o.id AND e.store_id = o.store_id), '[]'::json) AS ledger_entries
          ${extraColumns}
     FROM orders o
    WHERE o.store_id = $1::uuid AND o.source_order_id = $2`;

const ORDER_WITH_LINES: HotStatement = { name: 'op_order_with_lines', text: orderWithLinesSql() };

export interface OrderWithLinesRow {
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
  customer_phone: string | null;
  shipping_address: OrderRow['shippingAddress'];
  billing_address: OrderRow['billingAddress'];
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

export async function selectOrder(db: Database, storeId: string, sourceOrderId: string): Promise<OrderRow | null> {
  const [row] = await hotQuery<OrderWithLinesRow>(db, ORDER_WITH_LINES, [storeId, sourceOrderId]);
  return row === undefined ? null : toOrderRow(row);
}

/** A row of orderWithLinesSql as the one mapping (toOrderRecord) reads it. */
export function toOrderRow(row: OrderWithLinesRow): OrderRow {
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
    customerPhone: row.customer_phone,
    shippingAddress: row.shipping_address,
    billingAddress: row.billing_address,
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
