// The order row lock. Every change to an order, and everything hung on it (a shipment, a claim, a
// platform's fulfilment or refund), takes its row first: changes to one order queue up, and two
// transactions never wait on each other's foreign-key checks in opposite orders (a deadlock).
import type { Transaction } from '../../db/client.js';
import { AppError } from '../kernel/index.js';

export function orderNotFound(sourceOrderId: string): AppError {
  return new AppError('not_found', `No order with source_order_id "${sourceOrderId}" in this store.`);
}

/** Locks the store's order for the rest of the transaction; its id, or undefined when there is none. */
export async function lockOrderRow(tx: Transaction, storeId: string, sourceOrderId: string): Promise<string | undefined> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM orders WHERE store_id = ${storeId}::uuid AND source_order_id = ${sourceOrderId} FOR UPDATE`;
  return locked[0]?.id;
}

/** The same, for an order that must exist: 404 otherwise. */
export async function lockExistingOrderRow(tx: Transaction, storeId: string, sourceOrderId: string): Promise<string> {
  const id = await lockOrderRow(tx, storeId, sourceOrderId);
  if (id === undefined) throw orderNotFound(sourceOrderId);
  return id;
}
