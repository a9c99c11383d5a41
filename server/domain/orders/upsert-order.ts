// Update-or-create, for clients that cannot tell whether the service has an order: Route's
// PrestaShop module reads first, takes any answer with a body (a 404 included) as "it exists", and
// sends the whole order to the update route (docs/route-compatibility.md). Only stores with the
// route client profile get it; for every other store this is the documented update, 404 included.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import type { Clock } from '../kernel/index.js';
import { AppError } from '../kernel/index.js';
import { createOrder, OrderExistsError } from './create-order.js';
import type { OrderCreateInput, OrderRecord, OrderUpdateInput } from './order-record.js';
import { updateOrder } from './update-order.js';

export interface UpsertOutcome {
  order: OrderRecord;
  created: boolean;
}

/** The same body read as a complete object, or the reasons it is not one. */
export type WholeBody<Input> = { input: Input } | { problems: AppError['fieldErrors'] };

/**
 * The update route's command: the documented update, or, for a route-profile store, the upsert
 * below. The one place the profile decides what an update may do.
 */
export async function updateOrderAsProfileAllows(
  db: Database,
  scope: Scope,
  sourceOrderId: string,
  patch: OrderUpdateInput,
  readWhole: () => WholeBody<OrderCreateInput>,
  clock: Clock,
): Promise<UpsertOutcome> {
  if (scope.store.clientProfile !== 'route') return { order: await updateOrder(db, scope, sourceOrderId, patch, clock), created: false };
  return upsertOrder(db, scope, sourceOrderId, patch, readWhole, clock);
}

/**
 * Updates the order, or creates it from the whole body when the store does not have it.
 * `readWhole` is called only then; when the body is not a whole order the answer stays 404,
 * listing why. A create that loses a race to another create updates the winner instead.
 */
export async function upsertOrder(
  db: Database,
  scope: Scope,
  sourceOrderId: string,
  patch: OrderUpdateInput,
  readWhole: () => WholeBody<OrderCreateInput>,
  clock: Clock,
): Promise<UpsertOutcome> {
  let whole: WholeBody<OrderCreateInput>;
  try {
    return { order: await updateOrder(db, scope, sourceOrderId, patch, clock), created: false };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
    whole = readWhole();
    if ('problems' in whole) {
      throw new AppError('not_found', `No order "${sourceOrderId}" in this store, and the body is not a whole order that could create it.`, whole.problems);
    }
  }
  try {
    return { order: await createOrder(db, scope, whole.input, clock.now()), created: true };
  } catch (error) {
    if (!(error instanceof OrderExistsError)) throw error;
    return { order: await updateOrder(db, scope, sourceOrderId, patch, clock), created: false };
  }
}
