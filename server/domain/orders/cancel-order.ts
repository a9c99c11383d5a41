// Cancelling an order: the one rule, used by the merchant's cancel and by a full refund of the
// protection line. Cancelling sets status and cancelled_on once; the order, its history and its
// booked premium are kept; no new claim can be filed. The two doors differ on an open claim, on
// purpose (README, Money rules): a merchant's cancel is refused (409) so the claim keeps its
// order, while a refund cancels anyway, because the money already went back.
import type { Database, Transaction } from '../../db/client.js';
import type { StoreScope } from '../actor.js';
import { recordAudit } from '../audit.js';
import { hasOpenClaim } from '../claims.js';
import { AppError } from '../errors.js';
import { toOrderRecord, orderInclude, type OrderRecord, type StoredOrder } from './order-record.js';
import { lockOrder } from './update-order.js';

export type OpenClaimPolicy = 'refuse' | 'cancel_anyway';

/**
 * Cancels a locked order. Returns whether a claim on it was open (only possible with
 * cancel_anyway). Cancelling a cancelled order changes nothing.
 */
export async function cancelLockedOrder(
  tx: Transaction,
  order: { id: string; status: StoredOrder['status'] },
  now: Date,
  openClaims: OpenClaimPolicy,
): Promise<{ cancelled: boolean; withOpenClaim: boolean }> {
  if (order.status === 'cancelled') return { cancelled: false, withOpenClaim: false };
  const withOpenClaim = await hasOpenClaim(tx, { orderId: order.id });
  if (withOpenClaim && openClaims === 'refuse') {
    throw new AppError('conflict', 'The order has an open claim; it cannot be cancelled until the claim is resolved.');
  }
  await tx.order.update({ where: { id: order.id }, data: { status: 'cancelled', cancelledOn: now, updatedOn: now } });
  return { cancelled: true, withOpenClaim };
}

export async function cancelOrder(db: Database, scope: StoreScope, sourceOrderId: string, now: Date): Promise<OrderRecord> {
  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, scope.store.id, sourceOrderId);
    // Cancelling twice succeeds and keeps the first cancelled_on.
    const { cancelled } = await cancelLockedOrder(tx, current, now, 'refuse');
    if (cancelled) {
      await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'order.cancelled', subject: { type: 'order', id: current.id }, at: now });
    }
    return toOrderRecord(await tx.order.findUniqueOrThrow({ where: { id: current.id }, include: orderInclude }));
  });
}
