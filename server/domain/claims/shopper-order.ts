// The shopper's order: the one order of a claim-page session, still holding its shopper's email (an
// erasure ends every session on it), in the session's store. Every shopper read goes through it.
import type { Database } from '../../db/client.js';
import type { Scope, ShopperActor } from '../access/index.js';
import { AppError } from '../kernel/index.js';

export const sessionEnded = () => new AppError('unauthorized', 'Your session has ended. Look up your order again.');

export const shopperOrderWhere = (scope: Scope<ShopperActor>) => ({ id: scope.actor.orderId, storeId: scope.store.id, customerEmailLookup: { not: null } }) as const;

export interface ParcelItem {
  sourceId: string;
  name: string;
  quantity: number;
}

/**
 * The session's order without its parcels and claims: what filing and a claim's page need (the
 * order page's read carries everything, and is needed only there).
 */
export async function shopperOrderRef(db: Database, scope: Scope<ShopperActor>) {
  const order = await db.order.findFirst({
    where: shopperOrderWhere(scope),
    select: { id: true, storeId: true, sourceOrderId: true, sourceOrderNumber: true, lineItems: { select: { sourceId: true, name: true } } },
  });
  if (order === null) throw sessionEnded();
  return order;
}

/** That the session's order is still there for its shopper (uploads and photo reads). */
export async function assertShopperOrder(db: Database, scope: Scope<ShopperActor>): Promise<void> {
  const order = await db.order.findFirst({ where: shopperOrderWhere(scope), select: { id: true } });
  if (order === null) throw sessionEnded();
}
