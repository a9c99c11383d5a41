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
import type { PlatformScope } from './actor.js';
import type { z } from 'zod';
import type { RefundCreatedMessage } from '../../contract/webhooks.js';
import { isUniqueViolation, type Database } from '../db/client.js';
import { centsToMajorNumber } from '../../contract/money.js';
import { toOrderResponse } from '../wire/orders.js';
import { emitEvent, newEvent } from './events.js';
import { ledgerTotals } from './ledger.js';
import { cancelLockedOrder, orderInclude, toOrderRecord } from './orders/index.js';
import { AppError } from './errors.js';
import { isProtectionSku } from './protection-line.js';
import { lockMessageTarget } from './pushed-orders.js';

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

export async function reverseRefund(db: Database, scope: PlatformScope, message: RefundCreated, now: Date): Promise<RefundAcknowledgement> {
  const { store } = scope;
  const { refund } = message;
  try {
    return await db.$transaction(async (tx) => {
      const target = await lockMessageTarget(tx, store.id, message.order.id);
      if (target.kind === 'test') return { mode: 'test', reversedCents: 0, premiumCents: 0, duplicate: false };

      const order = await tx.order.findUniqueOrThrow({
        where: { id: target.orderId },
        include: { ledgerEntries: { select: { amountCents: true, reason: true, effectiveAt: true } } },
      });
      const totals = ledgerTotals(order.ledgerEntries);
      const previous = await tx.refund.findUnique({
        where: { storeId_sourceRefundId: { storeId: store.id, sourceRefundId: refund.id } },
        select: { orderId: true },
      });
      if (previous && previous.orderId !== order.id) throw new RefundIdReusedError(refund.id);
      if (previous) return { mode: 'live', reversedCents: 0, premiumCents: totals.netCents, duplicate: true };

      const protectionRefundedCents = (refund.items ?? [])
        .filter((item) => isProtectionSku(item.sku, store.protectionSkus, order.protectionSku))
        .reduce((sum, item) => sum + (item.refunded_cents ?? 0), 0);
      const reversedCents = Math.min(protectionRefundedCents, totals.netCents);
      // The credit lands on the invoice of the week the money went back (see the decisions above).
      const charges = order.ledgerEntries.filter((entry) => entry.reason !== 'reversal').map((entry) => entry.effectiveAt.getTime());
      const latestChargeAt = charges.length === 0 ? null : new Date(Math.max(...charges));
      const effectiveAt = creditDate(refund.created_at === undefined ? undefined : new Date(refund.created_at), latestChargeAt, now);

      const stored = await tx.refund.create({
        data: {
          storeId: store.id,
          orderId: order.id,
          sourceRefundId: refund.id,
          amountCents: refund.amount_cents ?? null,
          protectionRefundedCents,
          reversedCents,
          note: refund.note ?? null,
          refundedAt: refund.created_at === undefined ? null : new Date(refund.created_at),
          receivedAt: now,
        },
      });
      if (reversedCents > 0) {
        await tx.premiumLedgerEntry.create({
          data: { storeId: store.id, orderId: order.id, amountCents: -reversedCents, reason: 'reversal', effectiveAt, refundId: stored.id },
        });
        const reversed = toOrderRecord(await tx.order.findUniqueOrThrow({ where: { id: order.id }, include: orderInclude }));
        const reversal = {
          refund_id: refund.id,
          amount_reversed: centsToMajorNumber(reversedCents),
          premium_remaining: centsToMajorNumber(totals.netCents - reversedCents),
        };
        await emitEvent(tx, scope.actor, store.id, newEvent('premium.reversed', { ...toOrderResponse(reversed), reversal }), now);
        // The whole premium went back: the order is cancelled (its history and claims are kept),
        // open claim or not: see the decisions above.
        if (totals.netCents - reversedCents === 0) {
          const { withOpenClaim } = await cancelLockedOrder(tx, order, now, 'cancel_anyway', { actor: scope.actor, cause: 'refund' });
          return { mode: 'live', reversedCents, premiumCents: 0, duplicate: false, cancelledWithOpenClaim: withOpenClaim };
        }
      }
      return { mode: 'live', reversedCents, premiumCents: totals.netCents - reversedCents, duplicate: false };
    });
  } catch (error) {
    // Backstop: the unique (store, refund id) refuses a second row even if the lock were bypassed.
    if (isUniqueViolation(error)) return reverseRefund(db, scope, message, now);
    throw error;
  }
}
