// An order as the wire carries it: the order answer, and the 409 of a create that already landed.
import type { z } from 'zod';
import { centsToMajorNumber, fieldErrorsFromIssues, OrderRequest, type OrderConflictResponse, type OrderResponse } from '../../contract/index.js';
import type { OrderCreateInput, OrderExistsError, OrderRecord, WholeBody } from '../domain/orders/index.js';

const money = (cents: number) => centsToMajorNumber(cents);
const optionalMoney = (cents: number | null) => (cents === null ? null : centsToMajorNumber(cents));

export function toOrderResponse(order: OrderRecord): z.input<typeof OrderResponse> {
  return {
    id: order.id,
    merchant_id: order.storeId,
    order_number: order.orderNumber,
    source_order_id: order.sourceOrderId,
    source_order_number: order.sourceOrderNumber,
    status: order.status,
    insured_status: order.insuranceSelected ? 'insured_selected' : 'not_selected',
    insurance_selected: order.insuranceSelected,
    currency: 'USD',
    exchange_rate: 1,
    subtotal: money(order.subtotalCents),
    subtotal_usd: money(order.subtotalCents),
    amount_covered: money(order.amountCoveredCents),
    amount_covered_usd: money(order.amountCoveredCents),
    paid_to_insure: money(order.paidToInsureCents),
    paid_to_insure_usd: money(order.paidToInsureCents),
    order_total: optionalMoney(order.orderTotalCents),
    order_total_usd: optionalMoney(order.orderTotalCents),
    shipping_total: optionalMoney(order.shippingTotalCents),
    shipping_total_usd: optionalMoney(order.shippingTotalCents),
    discounts_total: optionalMoney(order.discountsTotalCents),
    discounts_total_usd: optionalMoney(order.discountsTotalCents),
    taxes: optionalMoney(order.taxesCents),
    taxes_usd: optionalMoney(order.taxesCents),
    first_name: order.firstName,
    last_name: order.lastName,
    has_pii: order.hasPii,
    platform_id: order.platformId,
    line_items: order.lineItems.map((item) => ({
      source_id: item.sourceId,
      name: item.name,
      price: money(item.priceCents),
      quantity: item.quantity,
      source_product_id: item.sourceProductId,
      sku: item.sku,
      is_insured: item.isInsured,
      image_url: item.imageUrl,
    })),
    source_created_on: order.sourceCreatedOn.toISOString(),
    created_on: order.createdOn.toISOString(),
    updated_on: order.updatedOn.toISOString(),
    cancelled_on: order.cancelledOn?.toISOString() ?? null,
  };
}

/** The 409 of order create, with what a retrying client needs of the order that exists. */
export function toOrderConflict(error: OrderExistsError): z.input<typeof OrderConflictResponse> {
  const order = error.existing;
  return {
    error: error.message,
    error_code: 'conflict',
    errors: [],
    id: order.id,
    order_number: order.orderNumber,
    insured_status: order.insuranceSelected ? 'insured_selected' : 'not_selected',
    paid_to_insure: money(order.paidToInsureCents),
  };
}

/** An update's body read as a whole order for `sourceOrderId` (the path names it), or why it is not one. */
export function wholeOrderFrom(body: unknown, sourceOrderId: string): WholeBody<OrderCreateInput> {
  const parsed = OrderRequest.safeParse({ ...(typeof body === 'object' ? body : {}), source_order_id: sourceOrderId });
  return parsed.success ? { input: parsed.data } : { problems: fieldErrorsFromIssues(parsed.error.issues) };
}
