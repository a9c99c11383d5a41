// The premium ledger: every booking, re-pricing and reversal is an append-only entry in cents.
// What an order paid to insure is always derived from its entries, never stored as a number.

export type LedgerReason = 'booking' | 'repricing' | 'reversal';

export interface LedgerMovement {
  /** As stored (bigint), as read by a hot statement (text), or as a number. */
  amountCents: number | bigint | string;
  reason: LedgerReason;
}

export interface LedgerTotals {
  /** Bookings plus re-pricings: the premium currently charged before any reversal. */
  chargedCents: number;
  /** Sum of reversals, as a positive number. */
  reversedCents: number;
  /** paid_to_insure: charged minus reversed. */
  netCents: number;
}

/** The one fold of an order's ledger entries into what it was charged, what was reversed, and what it holds. */
export function ledgerTotals(entries: readonly LedgerMovement[]): LedgerTotals {
  let chargedCents = 0;
  let reversedCents = 0;
  for (const entry of entries) {
    const cents = Number(entry.amountCents);
    if (entry.reason === 'reversal') reversedCents -= cents;
    else chargedCents += cents;
  }
  return { chargedCents, reversedCents, netCents: chargedCents - reversedCents };
}

/**
 * The re-pricing entry that moves the charged premium to `targetPremiumCents`. Reversals already
 * made stay made, and the net premium never goes below zero (it cannot reverse more than it holds).
 * Returns 0 when nothing moves.
 */
export function repricingAmountCents(totals: LedgerTotals, targetPremiumCents: number): number {
  const delta = targetPremiumCents - totals.chargedCents;
  // 0 - net rather than -net: a fully reversed order must give 0, not -0.
  return Math.max(delta, 0 - totals.netCents);
}
