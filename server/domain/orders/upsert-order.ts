// Update-or-create, for clients that cannot tell whether the service has an order: Route's
// PrestaShop module reads first, takes any answer with a body (a 404 included) as "it exists", and
// sends the whole order to the update route (docs/route-compatibility.md). Only stores with the
// route client profile get it; the documented update answers 404 for an order the store lacks.
import type { Database } from '../../db/client.js';
import type { StoreScope } from '../actor.js';
import { AppError } from '../errors.js';
import { createOrder, OrderExistsError } from './create-order.js';
import type { OrderCreateInput, OrderRecord, OrderUpdateInput } from './order-record.js';
import { updateOrder } from './update-order.js';

export interface UpsertOutcome {
  order: OrderRecord;
  created: boolean;
}

/**
 * Updates the order, or creates it from `whole` when the store does not have it. `whole` is the
 * same body read as a complete order, or the reasons it is not one (then the answer stays 404,
 * listing them). A create that loses a race to another creates updates the winner instead.
 */
export async function upsertOrder(
  db: Database,
  scope: StoreScope,
  sourceOrderId: string,
  patch: OrderUpdateInput,
  whole: { input: OrderCreateInput } | { problems: AppError['fieldErrors'] },
  now: Date,
): Promise<UpsertOutcome> {
  try {
    return { order: await updateOrder(db, scope, sourceOrderId, patch, now), created: false };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
    if ('problems' in whole) {
      throw new AppError('not_found', `No order "${sourceOrderId}" in this store, and the body is not a whole order that could create it.`, whole.problems);
    }
  }
  try {
    return { order: await createOrder(db, scope, whole.input, now), created: true };
  } catch (error) {
    if (!(error instanceof OrderExistsError)) throw error;
    return { order: await updateOrder(db, scope, sourceOrderId, patch, now), created: false };
  }
}
