// A WooCommerce REST v3 order, as its webhooks deliver it, read into the documented order request:
// the same schema, the same rules and the same error list as an order sent over REST.
import type { z } from 'zod';
import { fieldErrorsFromIssues, majorTextToCents, OrderRequest, QUOTE_AMOUNT_PATTERN, type WooCommerceOrder } from '../../contract/index.js';
import { readRouteAmount } from '../../contract/client-profile.js';
import { findProtectionLine } from '../domain/orders/index.js';
import { wooCommerceStatusAction, type WooCommerceOrderEvent } from '../domain/platforms/index.js';

type WooOrder = z.output<typeof WooCommerceOrder>;
type WooLine = WooOrder['line_items'][number];

function metaValue(entries: ReadonlyArray<{ key: string; value?: unknown }> | undefined, key: string): unknown {
  return entries?.find((entry) => entry.key === key)?.value;
}

/** The plugin stamps its status lists on each order as JSON text: ["wc-processing","wc-completed"]. */
function stampedStatuses(order: WooOrder, key: string): string[] | undefined {
  const value = metaValue(order.meta_data, key);
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed) || !parsed.every((status) => typeof status === 'string')) return undefined;
    return parsed.map((status: string) => status.replace(/^wc-/, ''));
  } catch {
    return undefined;
  }
}

/** The quote id inside the quote answer the plugin kept on the order (_routeapp_quote). */
function quoteIdOf(order: WooOrder): string | undefined {
  const value = metaValue(order.meta_data, '_routeapp_quote');
  if (typeof value !== 'string') return undefined;
  try {
    const quote: unknown = JSON.parse(value);
    const id = typeof quote === 'object' && quote !== null ? (quote as { id?: unknown }).id : undefined;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** WooCommerce formats amounts as decimal strings to the store's decimals: "40.00". */
const cents = (text: string | undefined): number | null => {
  const value = readRouteAmount(text);
  return typeof value === 'number' && QUOTE_AMOUNT_PATTERN.test(String(value)) ? majorTextToCents(String(value)) : null;
};

const isVirtual = (line: WooLine) => {
  const flag = metaValue(line.meta_data, '_routeapp_virtual');
  return flag === 1 || flag === '1' || flag === true;
};

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);

/**
 * The documented order request for a WooCommerce order: the subtotal is the pre-discount value of
 * the shippable lines (what Route's plugin sends as amount_covered), the order is protected when
 * it has the plugin's fee line, and each line's unit price is its pre-discount subtotal over its
 * quantity to the nearest cent (recorded, never priced).
 */
function orderRequestBody(order: WooOrder, protectedByFee: boolean): Record<string, unknown> {
  const billing = order.billing ?? {};
  const shipping = nonEmpty(order.shipping?.address_1) === undefined ? billing : (order.shipping ?? {});
  const lineCents = order.line_items.map((line) => cents(line.subtotal));
  const insurable = order.line_items.reduce((sum, line, index) => (isVirtual(line) ? sum : sum + (lineCents[index] ?? 0)), 0);
  const amount = (text: string | undefined) => {
    const value = cents(text);
    return value === null ? text : value / 100;
  };
  return {
    source_order_id: String(order.id),
    source_order_number: nonEmpty(order.number) ?? String(order.id),
    subtotal: insurable / 100,
    insurance_selected: protectedByFee,
    quote_id: quoteIdOf(order),
    order_total: amount(order.total),
    shipping_total: amount(order.shipping_total),
    discounts_total: amount(order.discount_total),
    taxes: amount(order.total_tax),
    currency: order.currency,
    customer_details: {
      first_name: billing.first_name ?? '',
      last_name: billing.last_name ?? '',
      email: billing.email ?? '',
      phone: nonEmpty(billing.phone),
    },
    shipping_details: {
      street_address1: shipping.address_1 ?? '',
      street_address2: nonEmpty(shipping.address_2) ?? null,
      city: shipping.city ?? '',
      province: nonEmpty(shipping.state),
      zip: nonEmpty(shipping.postcode),
      country_code: shipping.country ?? '',
    },
    line_items: order.line_items.map((line, index) => {
      const subtotal = lineCents[index];
      return {
        source_id: String(line.id),
        name: line.name,
        price: subtotal === null || subtotal === undefined ? line.subtotal : Math.round(subtotal / Math.max(1, line.quantity)) / 100,
        quantity: line.quantity,
        source_product_id: String(line.variation_id || line.product_id || ''),
        sku: nonEmpty(line.sku ?? undefined),
        is_insured: !isVirtual(line),
      };
    }),
    source_created_on: /Z|[+-]\d{2}:\d{2}$/.test(order.date_created_gmt) ? order.date_created_gmt : `${order.date_created_gmt}Z`,
  };
}

/** What a delivered order (order.updated) asks for. */
export function wooCommerceOrderEvent(order: WooOrder, declaredSkus: readonly string[]): WooCommerceOrderEvent {
  const sourceOrderId = String(order.id);
  const status = order.status.replace(/^wc-/, '');
  const stamped = {
    protectedStatuses: stampedStatuses(order, '_routeapp_included_order_statuses'),
    cancelStatuses: stampedStatuses(order, '_routeapp_cancel_order_statuses'),
  };
  switch (wooCommerceStatusAction(status, stamped)) {
    case 'cancel':
      return { kind: 'cancel', sourceOrderId, reason: `the order is ${status}` };
    case 'ignore':
      return { kind: 'ignore', sourceOrderId, reason: `status ${status} neither books nor cancels an order` };
    case 'book':
      break;
  }
  const fees = (order.fee_lines ?? []).map((fee) => ({ title: fee.name }));
  const body = orderRequestBody(order, findProtectionLine(fees, declaredSkus) !== -1);
  const parsed = OrderRequest.safeParse(body);
  if (!parsed.success) return { kind: 'upsert', sourceOrderId, whole: { problems: fieldErrorsFromIssues(parsed.error.issues) }, patch: {} };
  const { source_order_id: _id, quote_id: _quote, ...patch } = parsed.data;
  return { kind: 'upsert', sourceOrderId, whole: { input: parsed.data }, patch };
}
