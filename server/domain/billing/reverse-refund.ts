// refund.created from a platform (README, Platform webhooks): reverses exactly the refunded cents of the
// protection line, matched by SKU (never by title), clamped to the premium remaining; a reversal
// that leaves no premium behaves like a cancellation. refund.id makes a redelivery a no-op.
// Deliveries of refunds of one order run one at a time under the order's row lock.
//
// Decisions where the specification is silent (README, "Money rules"):
// - The credit is dated to refund.created_at, but never before the latest booking or re-pricing of
//   the order (a credit cannot precede the premium it reverses: a refund dated before the order
//   existed would put a credit in a month without its booking) and never after receipt.
// - A refund id already used on another order of the store is refused (409) and counted: taking it
//   for a redelivery would silently reverse nothing on the second order.
// - A full refund of the protection line cancels the order even while a claim on it is open. A
//   merchant's cancel is refused then (409) to protect the claim, but a refund cannot be refused:
//   the money already went back. The open claim stays as it is and is decided as usual; no new
//   claim can be filed on the cancelled order.
import type { PlatformActor, Scope } from '../access/index.js';
import type { z } from 'zod';
import type { RefundCreatedMessage } from '../../../contract/webhooks.js';
import { inConnectionTransaction, isUniqueViolation, lazyStatement, type Database } from '../../db/client.js';
import { centsToMajorNumber } from '../../../contract/money.js';
import { cancellationAuditSql, cancelledAt, isProtectionSku, orderCancelledEvent, type OrderRecord, type OrderWithLinesRow, orderWithLinesSql, toOrderRecord, toOrderResponse, toOrderRow } from '../orders/index.js';
import { openClaimExistsSql } from '../claims/index.js';
import { eventInsertSql, eventParameters, newEvent, type NewEvent } from '../events/index.js';


import { AppError, appliedAt, type Clock } from '../kernel/index.js';


import { lockMessageOrderOn } from '../platforms/index.js';

export type RefundCreated = z.output<typeof RefundCreatedMessage>;

export interface RefundAcknowledgement {
  mode: 'live' | 'test';
  reversedCents: number;
  /** The premium the order still holds after this refund. */
  premiumCents: number;
  duplicate: boolean;
  /** This refund cancelled the order while a claim on it was open (see the decisions above). */
  cancelledWithOpenClaim?: boolean;
}

/** A refund id the store already used for another order: refused, not taken for a redelivery. */
export class RefundIdReusedError extends AppError {
  constructor(refundId: string) {
    super('conflict', `Refund id "${refundId}" was already used for another order of this store; refund ids must be unique per refund.`, [
      { field: 'refund.id', message: 'already used for another order of this store' },
    ]);
  }
}

/** The date of a credit: the refund's own, within [latest charge of the order, receipt]. */
export function creditDate(refundedAt: Date | undefined, latestChargeAt: Date | null, receivedAt: Date): Date {
  const wanted = Math.min((refundedAt ?? receivedAt).getTime(), receivedAt.getTime());
  return new Date(latestChargeAt === null ? wanted : Math.max(wanted, latestChargeAt.getTime()));
}

/**
 * Reverses a live refund (a test-mode one goes to the sandbox, domain/sandbox/sandbox.ts) on one
 * connection in one transaction, without Prisma's layer (its interactive transaction took about ten round trips and 5 ms of CPU a refund): lock the order; read it with
 * its lines, ledger, any earlier use of the refund id and whether a claim is open; write the refund,
 * the reversal, the cancellation and their events in one statement.
 *
 * The lock and the read are two statements on purpose. Under READ COMMITTED, a statement that waits
 * for a row lock re-reads only the locked row: its subqueries keep the snapshot taken before the
 * wait, so a ledger read in the locking statement could miss a reversal committed meanwhile and
 * reverse the same premium twice. The read that follows the lock takes a new snapshot.
 */
export async function reverseRefund(db: Database, scope: Scope<PlatformActor>, message: RefundCreated, clock: Clock): Promise<RefundAcknowledgement> {
  const { store } = scope;
  const { refund } = message;
  try {
    return await inConnectionTransaction(db, async (client) => {
      await lockMessageOrderOn(client, store.id, message.order.id);

      const read = await client.query<RefundTargetRow>({ name: REFUND_TARGET.name, text: REFUND_TARGET.text, values: [store.id, message.order.id, refund.id] });
      const row = read.rows[0];
      if (row === undefined) throw new Error('the locked order was not found by its own store and id');
      const order = toOrderRecord(toOrderRow(row));
      // Dated once the order's lock is held, after every change applied before it (domain/kernel/clock.ts).
      const now = appliedAt(clock, order.updatedOn);
      const netCents = order.paidToInsureCents;
      if (row.previous_refund_order_id !== null && row.previous_refund_order_id !== order.id) throw new RefundIdReusedError(refund.id);
      if (row.previous_refund_order_id !== null) return { mode: 'live', reversedCents: 0, premiumCents: netCents, duplicate: true };

      const protectionRefundedCents = (refund.items ?? [])
        .filter((item) => isProtectionSku(item.sku, store.protectionSkus, row.protection_sku))
        .reduce((sum, item) => sum + (item.refunded_cents ?? 0), 0);
      const reversedCents = Math.min(protectionRefundedCents, netCents);
      const remainingCents = netCents - reversedCents;
      const refundedAt = refund.created_at === undefined ? null : new Date(refund.created_at);
      // The credit lands on the invoice of the week the money went back (see the decisions above).
      const effectiveAt = creditDate(refundedAt ?? undefined, row.latest_charge_at, now);
      // The whole premium went back: the order is cancelled (its history and claims are kept),
      // open claim or not: see the decisions above.
      const cancels = reversedCents > 0 && remainingCents === 0 && order.status !== 'cancelled';

      const reversed: OrderRecord = reversedCents > 0 ? { ...order, paidToInsureCents: remainingCents, updatedOn: now } : order;
      const reversal = { refund_id: refund.id, amount_reversed: centsToMajorNumber(reversedCents), premium_remaining: centsToMajorNumber(remainingCents) };
      const reversedEvent = reversedCents > 0 ? newEvent('premium.reversed', { ...toOrderResponse(reversed), reversal }) : null;
      // The cancellation follows the reversal it comes from, a millisecond later: the two events of
      // one order never share a created_at (domain/kernel/clock.ts).
      const cancelAt = new Date(now.getTime() + 1);
      const cancelledEvent = cancels ? orderCancelledEvent(cancelledAt(reversed, cancelAt), 'refund') : null;
      // An event not written still fills its parameters (with nulls): the statement is prepared once.
      const eventValues = (event: NewEvent | null, at: Date) => (event === null ? Array<null>(6).fill(null) : eventParameters(store.id, scope.actor, event, at));
      await client.query({
        name: WRITE_REFUND.name,
        text: WRITE_REFUND.text,
        values: [
          store.id,
          order.id,
          refund.id,
          refund.amount_cents ?? null,
          protectionRefundedCents,
          reversedCents,
          refund.note ?? null,
          refundedAt,
          now,
          effectiveAt,
          cancels,
          ...eventValues(reversedEvent, now),
          ...eventValues(cancelledEvent, cancelAt),
        ],
      });
      return {
        mode: 'live',
        reversedCents,
        premiumCents: remainingCents,
        duplicate: false,
        ...(cancels ? { cancelledWithOpenClaim: row.has_open_claim } : {}),
      };
    });
  } catch (error) {
    // Backstop: the unique (store, refund id) refuses a second row even if the lock were bypassed.
    if (isUniqueViolation(error)) return reverseRefund(db, scope, message, clock);
    throw error;
  }
}

interface RefundTargetRow extends OrderWithLinesRow {
  protection_sku: string | null;
  /** The latest booking or re-pricing: a credit is never dated before it. */
  latest_charge_at: Date | null;
  /** The order an earlier refund with this id belongs to, if there was one. */
  previous_refund_order_id: string | null;
  has_open_claim: boolean;
}

/** Run after the order's lock (see reverseRefund): the order, and what the refund decides on. */
const REFUND_TARGET = lazyStatement(
  'op_refund_target',
  () =>
    orderWithLinesSql(`,
          o.protection_sku,
          (SELECT max(e.effective_at) FROM premium_ledger_entries e WHERE e.order_id = o.id AND e.store_id = o.store_id AND e.reason <> 'reversal') AS latest_charge_at,
          (SELECT r.order_id FROM refunds r WHERE r.store_id = $1::uuid AND r.source_refund_id = $3) AS previous_refund_order_id,
          ${openClaimExistsSql('o')} AS has_open_claim`),
);

/**
 * The refund; its reversal entry when it reverses cents; the cancellation when it leaves no
 * premium; and their events, premium.reversed first (the cancellation's reads the reversal's row,
 * so its sequence number comes after).
 */
const WRITE_REFUND = lazyStatement('op_write_refund', () => {
  /** The cancellation's audit row, as cancelOrder writes it, with the cancellation event's actor and time. */
  const CANCELLED_AUDIT = cancellationAuditSql({ storeId: '$1::uuid', orderId: '$2::uuid', actorKind: '$20::actor_kind', actorId: '$21', cause: "'refund'", at: '$23::timestamptz', when: '$11::boolean' });
  /** The reversal's event follows the refund's eleven parameters, the cancellation's follows it. */
  const REVERSED_EVENT = eventInsertSql(12, { name: 'reversed_event', from: 'r', where: '$6::bigint > 0' });
  const CANCELLED_EVENT = eventInsertSql(18, { name: 'cancelled_event', from: 'reversed_event', where: '$11::boolean' });
  return `WITH r AS (
           INSERT INTO refunds (store_id, order_id, source_refund_id, amount_cents, protection_refunded_cents, reversed_cents, note, refunded_at, received_at)
           VALUES ($1::uuid, $2::uuid, $3, $4::bigint, $5::bigint, $6::bigint, $7, $8::timestamptz, $9::timestamptz)
           RETURNING id
         ), ledger AS (
           INSERT INTO premium_ledger_entries (store_id, order_id, amount_cents, reason, effective_at, refund_id)
           SELECT $1::uuid, $2::uuid, -$6::bigint, 'reversal', $10::timestamptz, r.id FROM r WHERE $6::bigint > 0
         ), changed AS (
           -- A reversal changes the order's premium, a full one cancels it: either moves updated_on,
           -- which dates the order's next change after this one.
           UPDATE orders SET status = CASE WHEN $11::boolean THEN 'cancelled'::order_status ELSE status END,
                             cancelled_on = CASE WHEN $11::boolean THEN $23::timestamptz ELSE cancelled_on END,
                             updated_on = CASE WHEN $11::boolean THEN $23::timestamptz ELSE $9::timestamptz END
            WHERE id = $2::uuid AND ($11::boolean OR $6::bigint > 0)
         ), cancelled_audit AS (
           ${CANCELLED_AUDIT}
         ), reversed_event AS (
           ${REVERSED_EVENT.event}
         ), reversed_deliveries AS (
           ${REVERSED_EVENT.deliveries}
         ), cancelled_event AS (
           ${CANCELLED_EVENT.event}
         ), cancelled_deliveries AS (
           ${CANCELLED_EVENT.deliveries}
         )
         SELECT id FROM r`;
});
