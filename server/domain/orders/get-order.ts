// Reads an order of the scope's store by its source_order_id, in one statement.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { orderNotFound } from './order-lock.js';
import { selectOrder, toOrderRecord, type OrderRecord } from './order-record.js';

export async function getOrder(db: Database, scope: Scope, sourceOrderId: string): Promise<OrderRecord> {
  const row = await selectOrder(db, scope.store.id, sourceOrderId);
  if (!row) throw orderNotFound(sourceOrderId);
  return toOrderRecord(row);
}
