// Order commands, one verb-noun file each, and the one order shape they answer.
export { cancellationAuditSql, cancelledAt, cancelOrder, orderCancelledEvent } from './cancel-order.js';
export {
  assertUniqueLineItemIds,
  createOrder,
  insertOrder,
  type LineItemRow,
  type OrderColumns,
  orderColumns,
  OrderExistsError,
} from './create-order.js';
export { getOrder } from './get-order.js';
export { lockExistingOrderRow, orderNotFound } from './order-lock.js';
export { toOrderResponse } from './order-payload.js';
export {
  lineItemRows,
  type OrderCreateInput,
  orderInclude,
  type OrderPricing,
  type OrderRecord,
  type OrderUpdateInput,
  type OrderWithLinesRow,
  orderWithLinesSql,
  toOrderRecord,
  toOrderRow,
} from './order-record.js';
export { orderContact, type OrderContact } from './order-contact.js';
export { orderHistory, type OrderSearch, type OrderSummary, searchOrders } from './order-search.js';
export { priceNewOrder, priceWithoutQuote, pricingColumns, type PricingRequest, pricingRequestOf } from './price-order.js';
export { findProtectionLine, isProtectionSku } from './protection-line.js';
export { erasedEventData, type RedactionOutcome, redactOrder, redactOrders } from './redact-order.js';
export { updateOrder } from './update-order.js';
export { updateOrderAsProfileAllows, upsertOrder, type WholeBody } from './upsert-order.js';
