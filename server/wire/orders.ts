// What the order routes read and answer besides the order itself (domain/orders/order-payload.ts):
// the 409 of a create that already landed, and an update's body read as a whole order.
import type { z } from 'zod';
import { centsToMajorNumber, fieldErrorsFromIssues, OrderRequest, type OrderConflictResponse } from '../../contract/index.js';
import type { OrderCreateInput, OrderExistsError, OrderRecord, WholeBody } from '../domain/orders/index.js';

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
    paid_to_insure: centsToMajorNumber(order.paidToInsureCents),
  };
}

/** An update's body read as a whole order for `sourceOrderId` (the path names it), or why it is not one. */
export function wholeOrderFrom(body: unknown, sourceOrderId: string): WholeBody<OrderCreateInput> {
  const parsed = OrderRequest.safeParse({ ...(typeof body === 'object' ? body : {}), source_order_id: sourceOrderId });
  return parsed.success ? { input: parsed.data } : { problems: fieldErrorsFromIssues(parsed.error.issues) };
}
