// What a new order pays, and how the order records what priced it: a resolved quote, the sender's
// own figure (platform pushes), or the store's configured rate (README, Concepts, "Pricing").
import type { Database } from '../../db/client.js';
import { coveredAmountCents, priceCoverage, resolveQuote } from '../quotes/index.js';

import type { StoreContext } from '../stores/index.js';
import type { OrderColumns } from './create-order.js';
import type { OrderCreateInput, OrderPricing } from './order-record.js';

export interface PricingRequest {
  insuranceSelected: boolean;
  /** The insurable value of the cart, in cents. */
  valueCents: number;
  quoteId: string | undefined;
  /** A premium the sender computed itself (order push protection_cents): used when no quote resolves. */
  senderPremiumCents?: number | undefined;
}

/**
 * What a new order pays: the quoted premium when the quote resolves (same store, live, unexpired,
 * cart within tolerance), else the sender's own figure when it gave one, else the configured rate.
 */
export async function priceNewOrder(db: Database, store: StoreContext, request: PricingRequest, now: Date): Promise<OrderPricing> {
  const quote = request.insuranceSelected ? await resolveQuote(db, store.id, request.quoteId, request.valueCents, now) : null;
  if (quote) {
    return {
      source: 'quote',
      quoteId: quote.id,
      terms: quote.terms,
      coveredCents: coveredAmountCents(request.valueCents, quote.terms),
      premiumCents: quote.premiumCents,
    };
  }
  return priceWithoutQuote(store, request);
}

/**
 * The price when no quote resolves: the sender's own figure when it gave one, else the configured
 * rate. All a test-mode order gets, as test mode never sees a stored quote.
 */
export function priceWithoutQuote(store: StoreContext, request: PricingRequest): OrderPricing {
  const storeTerms = store.pricing;
  if (!request.insuranceSelected) {
    return { source: 'none', quoteId: null, terms: storeTerms, coveredCents: 0, premiumCents: 0 };
  }
  if (request.senderPremiumCents !== undefined) {
    return {
      source: 'sender',
      quoteId: null,
      terms: storeTerms,
      coveredCents: coveredAmountCents(request.valueCents, storeTerms),
      premiumCents: request.senderPremiumCents,
    };
  }
  return { source: 'rate', quoteId: null, terms: storeTerms, ...priceCoverage(request.valueCents, storeTerms) };
}

/** How an order records what priced it: the source, the quote, the cover and the terms applied. */
export function pricingColumns(pricing: OrderPricing): Pick<OrderColumns, 'quoteId' | 'pricingSource' | 'amountCoveredCents' | 'rateBps' | 'minPremiumCents' | 'maxCoveredCents'> {
  return {
    quoteId: pricing.quoteId,
    pricingSource: pricing.source,
    amountCoveredCents: pricing.coveredCents,
    rateBps: pricing.terms.rateBps,
    minPremiumCents: pricing.terms.minPremiumCents,
    maxCoveredCents: pricing.terms.maxCoveredCents,
  };
}

/** What a new order asks of pricing. */
export const pricingRequestOf = (input: OrderCreateInput): PricingRequest => ({
  insuranceSelected: input.insurance_selected,
  valueCents: input.subtotal,
  quoteId: input.quote_id,
});
