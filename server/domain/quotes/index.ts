// Quotes: the premium for a cart at checkout, and the one pricing rule every door uses.
export { coveredAmountCents, priceCoverage, type PricingTerms, ratePremiumCents } from './pricing.js';
export { assertMerchantIdFits, cartMatchesQuote, createQuote, priceQuote, type QuoteInput, type QuoteRecord, resolveQuote } from './quotes.js';
