// A shopper's personal data as the wire carries it: the erasure's and the export's answers, for the
// API and for the platform's acknowledgements alike.
import type { z } from 'zod';
import type { CustomerDataExport, CustomerRedaction } from '../../contract/index.js';
import type { CustomerDataResult, CustomerRedactionResult } from '../domain/privacy/index.js';
import { claimPhotoUrl } from '../domain/claims/index.js';

type AddressOut = z.input<typeof CustomerDataExport>['orders'][number]['shipping_address'];
type CartItemsOut = z.input<typeof CustomerDataExport>['orders'][number]['quote_cart_items'];

/** Stored JSON is an object (an address) or an array (cart lines) or nothing, as the order was given it. */
const storedAddress = (value: unknown): AddressOut => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as AddressOut) : null);
const storedCartItems = (value: unknown): CartItemsOut => (Array.isArray(value) ? (value as CartItemsOut) : null);

/** Orders an erasure left for now: each has an open claim. */
export const toWithheldOrders = (withheld: readonly string[]): z.input<typeof CustomerRedaction>['withheld_orders'] =>
  withheld.map((sourceOrderId) => ({ source_order_id: sourceOrderId, reason: 'open_claim' as const }));

export function toCustomerRedaction(result: CustomerRedactionResult): z.input<typeof CustomerRedaction> {
  return { object: 'customer_redaction', id: result.request.id, redacted_orders: result.redacted, withheld_orders: toWithheldOrders(result.withheld) };
}

export function toCustomerDataExport(result: CustomerDataResult, generatedAt: Date): z.input<typeof CustomerDataExport> {
  return {
    object: 'customer_data',
    id: result.request.id,
    generated_at: generatedAt.toISOString(),
    orders: result.orders.map((order) => ({
      source_order_id: order.sourceOrderId,
      source_order_number: order.sourceOrderNumber,
      order_number: order.orderNumber,
      created_on: order.createdOn.toISOString(),
      customer: { first_name: order.customer.firstName, last_name: order.customer.lastName, email: order.customer.email, phone: order.customer.phone },
      shipping_address: storedAddress(order.shippingAddress),
      billing_address: storedAddress(order.billingAddress),
      line_items: order.lineItems.map((line) => ({ source_id: line.sourceId, name: line.name, quantity: line.quantity, image_url: line.imageUrl })),
      claims: order.claims.map((claim) => ({
        id: claim.id,
        reason: claim.reason,
        status: claim.status,
        created_on: claim.createdOn.toISOString(),
        description: claim.description,
        notes: claim.notes.map((note) => ({ status: note.status, note: note.note, created_at: note.createdAt.toISOString() })),
        photo_urls: claim.photoIds.map((photoId) => claimPhotoUrl(claim.id, photoId)),
      })),
      refund_notes: order.refundNotes.map((refund) => ({ refund_id: refund.refundId, note: refund.note })),
      quote_cart_items: storedCartItems(order.quoteCartItems),
    })),
  };
}
