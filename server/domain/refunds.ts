// refund.created from a platform (SPEC.md §6.2): reverses exactly the refunded cents of the
// protection line, matched by SKU (never by title), clamped to the premium remaining; a reversal
// that leaves no premium behaves like a cancellation. refund.id makes a redelivery a no-op.
// Deliveries of refunds of one order run one at a time under the order's row lock.
import type { z } from 'zod';
import type { RefundCreatedMessage } from '../../contract/webhooks.js';
import { isUniqueViolation, type Database } from '../db/client.js';
import { ledgerTotals } from './ledger.js';
import { isProtectionSku } from './protection-line.js';
import { lockMessageTarget } from './pushed-orders.js';
import type { StoreContext } from './stores.js';

export type RefundCreated = z.output<typeof RefundCreatedMessage>;

export interface RefundAcknowledgement {
  mode: 'live' | 'test';
  reversedCents: number;
  /** The premium the order still holds after this refund. */
  premiumCents: number;
  duplicate: boolean;
}

export async function reverseRefund(db: Database, store: StoreContext, message: RefundCreated, now: Date): Promise<RefundAcknowledgement> {
  const { refund } = message;
  try {
    return await db.$transaction(async (tx) => {
      const target = await lockMessageTarget(tx, store.id, message.order.id);
      if (target.kind === 'test') return { mode: 'test', reversedCents: 0, premiumCents: 0, duplicate: false };

      const order = await tx.order.findUniqueOrThrow({
        where: { id: target.orderId },
        include: { ledgerEntries: { select: { amountCents: true, reason: true } } },
      });
      const totals = ledgerTotals(order.ledgerEntries.map((e) => ({ amountCents: Number(e.amountCents), reason: e.reason })));
      const previous = await tx.refund.findUnique({
        where: { storeId_sourceRefundId: { storeId: store.id, sourceRefundId: refund.id } },
        select: { id: true },
      });
      if (previous) return { mode: 'live', reversedCents: 0, premiumCents: totals.netCents, duplicate: true };

      const protectionRefundedCents = (refund.items ?? [])
        .filter((item) => isProtectionSku(item.sku, store.protectionSkus, order.protectionSku))
        .reduce((sum, item) => sum + (item.refunded_cents ?? 0), 0);
      const reversedCents = Math.min(protectionRefundedCents, totals.netCents);
      // The credit lands on the invoice of the week the money went back.
      const effectiveAt = refund.created_at === undefined ? now : new Date(refund.created_at);

      const stored = await tx.refund.create({
        data: {
          storeId: store.id,
          orderId: order.id,
          sourceRefundId: refund.id,
          amountCents: refund.amount_cents ?? null,
          protectionRefundedCents,
          reversedCents,
          note: refund.note ?? null,
          refundedAt: refund.created_at === undefined ? null : effectiveAt,
          receivedAt: now,
        },
      });
      if (reversedCents > 0) {
        await tx.premiumLedgerEntry.create({
          data: { storeId: store.id, orderId: order.id, amountCents: -reversedCents, reason: 'reversal', effectiveAt, refundId: stored.id },
        });
        // The whole premium went back: the order is cancelled (its history and claims are kept).
        if (totals.netCents - reversedCents === 0 && order.status !== 'cancelled') {
          await tx.order.update({ where: { id: order.id }, data: { status: 'cancelled', cancelledOn: now, updatedOn: now } });
        }
      }
      return { mode: 'live', reversedCents, premiumCents: totals.netCents - reversedCents, duplicate: false };
    });
  } catch (error) {
    // Backstop: the unique (store, refund id) refuses a second row even if the lock were bypassed.
    if (isUniqueViolation(error)) return reverseRefund(db, store, message, now);
    throw error;
  }
}
