// Order commands, one verb-noun file each, and the one order shape they answer.
export { cancellationAuditSql, cancelledAt, cancelOrder, orderCancelledEvent } from './cancel-order.js';
export { assertUniqueLineItemIds, createOrder, insertOrder, orderColumns, OrderExistsError, type LineItemRow, type OrderColumns } from './create-order.js';
export { getOrder } from './get-order.js';
export { toOrderResponse } from './order-payload.js';
export { lineItemRows, orderInclude, toOrderRecord, type OrderCreateInput, type OrderPricing, type OrderRecord, type OrderUpdateInput } from './order-record.js';
export { priceNewOrder, priceWithoutQuote, pricingColumns, pricingRequestOf, type PricingRequest } from './price-order.js';
export { erasedEventData, redactOrder, redactOrders, type RedactionOutcome } from './redact-order.js';
export { updateOrder } from './update-order.js';
export { updateOrderAsProfileAllows, upsertOrder, type WholeBody } from './upsert-order.js';
