// Cancelling an order: the one rule, used by the merchant's cancel and by a full refund of the
// protection line. Cancelling sets status and cancelled_on once; the order, its history and its
// booked premium are kept; no new claim can be filed. The two doors differ on an open claim, on
// purpose (README, Money rules): a merchant's cancel is refused (409) so the claim keeps its
// order, while a refund cancels anyway, because the money already went back.
import type { Database, Transaction } from '../../db/client.js';
import type { CANCELLATION_CAUSES } from '../../../contract/merchant-events.js';
import { toOrderResponse } from '../../wire/orders.js';
import type { Actor, StoreScope } from '../actor.js';
import { recordAudit } from '../audit.js';
import { emitEvent, newEvent } from '../events.js';
import { hasOpenClaim } from '../claims.js';
import { AppError } from '../errors.js';
import { toOrderRecord, orderInclude, type OrderRecord, type StoredOrder } from './order-record.js';
import { lockOrder } from './update-order.js';

export type OpenClaimPolicy = 'refuse' | 'cancel_anyway';
export type CancellationCause = (typeof CANCELLATION_CAUSES)[number];

/** Why an order is cancelled, by who asks: a platform's message, else the merchant over the API. */
export const cancellationCauseOf = (actor: Actor): CancellationCause => (actor.kind === 'platform' ? 'platform' : 'api');

/**
 * Cancels a locked order and writes its order.cancelled event. Returns whether a claim on it was
 * open (only possible with cancel_anyway). Cancelling a cancelled order changes nothing.
 */
export async function cancelLockedOrder(
  tx: Transaction,
  order: { id: string; storeId: string; status: StoredOrder['status'] },
  now: Date,
  openClaims: OpenClaimPolicy,
  cause: { actor: Actor; cause: CancellationCause },
): Promise<{ cancelled: boolean; withOpenClaim: boolean; order?: OrderRecord }> {
  if (order.status === 'cancelled') return { cancelled: false, withOpenClaim: false };
  const withOpenClaim = await hasOpenClaim(tx, { orderId: order.id });
  if (withOpenClaim && openClaims === 'refuse') {
    throw new AppError('conflict', 'The order has an open claim; it cannot be cancelled until the claim is resolved.');
  }
  const cancelled = toOrderRecord(
    await tx.order.update({ where: { id: order.id }, data: { status: 'cancelled', cancelledOn: now, updatedOn: now }, include: orderInclude }),
  );
  const data = { ...toOrderResponse(cancelled), cancellation_cause: cause.cause };
  await emitEvent(tx, cause.actor, order.storeId, newEvent('order.cancelled', data), now);
  return { cancelled: true, withOpenClaim, order: cancelled };
}

export async function cancelOrder(db: Database, scope: StoreScope, sourceOrderId: string, now: Date): Promise<OrderRecord> {
  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, scope.store.id, sourceOrderId);
    // Cancelling twice succeeds and keeps the first cancelled_on.
    const { order } = await cancelLockedOrder(tx, current, now, 'refuse', { actor: scope.actor, cause: cancellationCauseOf(scope.actor) });
    if (order === undefined) return toOrderRecord(current);
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'order.cancelled', subject: { type: 'order', id: current.id }, at: now });
    return order;
  });
}
