// The request bodies the benchmark sends (bench/scenarios.ts, bench/trace-queries.ts), typed by
// the contract's own request schemas so that they cannot drift from what the API accepts.
import type { z } from 'zod';
import type { OrderRequest } from '../contract/orders.js';
import type { FulfillmentCreatedMessage, OrderPlacedMessage, RefundCreatedMessage } from '../contract/webhooks.js';
import { computeCheckDigit } from '../server/domain/shipments/index.js';

export const SHIPPING_DETAILS = {
  street_address1: '1600 Amphitheatre Pkwy',
  city: 'Mountain View',
  province: 'CA',
  zip: '94043',
  country_code: 'US',
};

/** A protected order of two lines (125.00), priced from `quoteId` when given. */
export function orderRequest(sourceOrderId: string, quoteId: string | undefined): z.input<typeof OrderRequest> {
  return {
    source_order_id: sourceOrderId,
    source_order_number: `#${sourceOrderId}`,
    subtotal: 125,
    insurance_selected: true,
    ...(quoteId === undefined ? {} : { quote_id: quoteId }),
    order_total: 141.23,
    shipping_total: 9.95,
    taxes: 6.28,
    currency: 'USD',
    customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+1 555 0100' },
    shipping_details: SHIPPING_DETAILS,
    line_items: [
      { source_id: 'li_1', name: 'Walnut desk organiser', price: 50, quantity: 2, sku: 'DESK-ORG-W', source_product_id: 'p_1' },
      { source_id: 'li_2', name: 'Brass pen tray', price: 25, quantity: 1, sku: 'PEN-TRAY-B', source_product_id: 'p_2' },
    ],
    source_created_on: '2026-11-20T10:00:00Z',
  };
}

/** A platform's order.placed message for `merchant`, with a protection line of 1.88. */
export function orderPlacedMessage(merchant: string, orderId: string, n: number): z.input<typeof OrderPlacedMessage> {
  return {
    merchant,
    event: 'order.placed',
    order: {
      id: orderId,
      number: `#P${n}`,
      created_at: '2026-11-20T10:00:00Z',
      customer: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      line_items: [
        { id: 'l1', sku: 'DESK-ORG', title: 'Desk organiser', unit_price_cents: 6250, quantity: 2 },
        { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 188, quantity: 1 },
      ],
    },
  };
}

/** A fulfilment of a pushed order: one parcel, its carrier detected from the number. */
export function fulfillmentCreatedMessage(merchant: string, orderId: string, fulfillmentId: string, trackingNumber: string): z.input<typeof FulfillmentCreatedMessage> {
  return { merchant, event: 'fulfillment.created', order: { id: orderId }, fulfillment: { id: fulfillmentId, shipments: [{ tracking_number: trackingNumber }] } };
}

/** A refund of a pushed order's protection line (1.88): its premium is reversed. */
export function refundCreatedMessage(merchant: string, orderId: string, refundId: string): z.input<typeof RefundCreatedMessage> {
  return {
    merchant,
    event: 'refund.created',
    order: { id: orderId },
    refund: { id: refundId, amount_cents: 188, created_at: '2026-11-24T09:30:00Z', items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 188 }] },
  };
}

const UPS_SPEC = { name: 'mod10', evensMultiplier: 1, oddsMultiplier: 2 } as const;

/**
 * A valid UPS 1Z number, unique per (prefix, n): the carrier is detected and a tracking poll
 * scheduled, as for real traffic. `prefix` is six characters of [A-Z0-9].
 */
export function upsTrackingNumber(prefix: string, n: number): string {
  const serial = `${prefix}03${String(n).padStart(7, '0')}`;
  return `1Z${serial}${computeCheckDigit(UPS_SPEC, serial)}`;
}
