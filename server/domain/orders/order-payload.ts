// An order as the API answers it, and as every event about it carries it: built from the domain's
// record with the contract's types, so the HTTP answer and the event payload are one shape.
import type { z } from 'zod';
import { centsToMajorNumber, type OrderResponse } from '../../../contract/index.js';
import type { OrderRecord } from './order-record.js';

const money = (cents: number) => centsToMajorNumber(cents);
const optionalMoney = (cents: number | null) => (cents === null ? null : centsToMajorNumber(cents));

/** The order answer (OrderResponse). */
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
