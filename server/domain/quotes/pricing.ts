// How a premium is priced (README, Concepts, "Pricing"). All amounts are integer cents.
//   amount_covered = value capped at the store's maximum covered amount
//   premium        = max(min_premium, round_half_up(amount_covered x rate))   (0 when nothing is covered)

export interface PricingTerms {
  /** Basis points of the covered amount: 150 = 1.5 %. */
  rateBps: number;
  minPremiumCents: number;
  /** Null means no cap. */
  maxCoveredCents: number | null;
}

export interface Coverage {
  coveredCents: number;
  premiumCents: number;
}

export function coveredAmountCents(valueCents: number, terms: PricingTerms): number {
  return terms.maxCoveredCents === null ? valueCents : Math.min(valueCents, terms.maxCoveredCents);
}

/** Rate premium on an already-capped covered amount. BigInt keeps cents x bps exact beyond 2^53. */
export function ratePremiumCents(coveredCents: number, terms: PricingTerms): number {
  if (coveredCents <= 0) return 0;
  const halfUp = (BigInt(coveredCents) * BigInt(terms.rateBps) + 5_000n) / 10_000n;
  return Math.max(terms.minPremiumCents, Number(halfUp));
}

export function priceCoverage(valueCents: number, terms: PricingTerms): Coverage {
  const coveredCents = coveredAmountCents(valueCents, terms);
  return { coveredCents, premiumCents: ratePremiumCents(coveredCents, terms) };
}
