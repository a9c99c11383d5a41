// Cancelling an order: status and cancelled_on are set once; the order, its history and its booked
// premium are kept; no new claim can be filed. There are two doors, which differ on an open claim
// on purpose (README, Money rules): the merchant's cancel, here, is refused (409) so the claim
// keeps its order; a full refund of the protection line cancels anyway, because the money already
// went back, in the refund's own statement (domain/billing/refunds.ts).
import { storeRowKey, type Database } from '../../db/client.js';
import type { CANCELLATION_CAUSES } from '../../../contract/merchant-events.js';
import { toOrderResponse } from './order-payload.js';
import type { Actor, Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { AppError, appliedAt, type Clock } from '../kernel/index.js';
import { emitEvent, newEvent } from '../events/index.js';
import { hasOpenClaim } from '../claims/index.js';

import { toOrderRecord, orderInclude, type OrderRecord } from './order-record.js';
import { lockOrder } from './update-order.js';

export type CancellationCause = (typeof CANCELLATION_CAUSES)[number];

/** Why an order is cancelled, by who asks: a platform's message, else the merchant over the API. */
export const cancellationCauseOf = (actor: Actor): CancellationCause => (actor.kind === 'platform' ? 'platform' : 'api');

/** The order as a cancellation at `now` leaves it (a cancelled order keeps its first cancelled_on). */
export const cancelledAt = (order: OrderRecord, now: Date): OrderRecord => ({ ...order, status: 'cancelled', cancelledOn: now, updatedOn: now });

/** The order.cancelled event of a cancelled order: the order as the API answers it, and why. */
export const orderCancelledEvent = (cancelled: OrderRecord, cause: CancellationCause) =>
  newEvent('order.cancelled', { ...toOrderResponse(cancelled), cancellation_cause: cause });

/**
 * The audit row of a cancellation, as the part of a statement that writes it (the refund's single
 * statement cancels there, billing/refunds.ts); cancelOrder writes the same row. Expressions:
 * store id, order id, actor kind and id, cause, time, and the condition under which it is written.
 */
export const cancellationAuditSql = (v: { storeId: string; orderId: string; actorKind: string; actorId: string; cause: string; at: string; when: string }) =>
  `INSERT INTO audit_events (store_id, actor_kind, actor_id, action, subject_type, subject_id, details, created_at)
   SELECT ${v.storeId}, ${v.actorKind}, ${v.actorId}, 'order.cancelled', 'order', ${v.orderId}::text, jsonb_build_object('cause', ${v.cause}::text), ${v.at}
    WHERE ${v.when}`;

export async function cancelOrder(db: Database, scope: Scope, sourceOrderId: string, clock: Clock): Promise<OrderRecord> {
  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, scope.store.id, sourceOrderId);
    const now = appliedAt(clock, current.updatedOn);
    // Cancelling twice succeeds and keeps the first cancelled_on.
    if (current.status === 'cancelled') return toOrderRecord(current);
    if (await hasOpenClaim(tx, { storeId: current.storeId, orderId: current.id })) {
      throw new AppError('conflict', 'The order has an open claim; it cannot be cancelled until the claim is resolved.');
    }
    const cancelled = toOrderRecord(
      await tx.order.update({ where: storeRowKey(current.storeId, current.id), data: { status: 'cancelled', cancelledOn: now, updatedOn: now }, include: orderInclude }),
    );
    await emitEvent(tx, scope.actor, scope.store.id, orderCancelledEvent(cancelled, cancellationCauseOf(scope.actor)), now);
    const details = { cause: cancellationCauseOf(scope.actor) };
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'order.cancelled', subject: { type: 'order', id: current.id }, details, at: now });
    return cancelled;
  });
}
