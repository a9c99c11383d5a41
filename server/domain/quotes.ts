// Quotes (SPEC.md §2.2, §2.3, §3 Quote): a priced cart, valid 24 hours, that an order may reference.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { QuoteRequest } from '../../contract/quotes.js';
import type { Database, Transaction } from '../db/client.js';
import type { Caller } from './api-keys.js';
import { AppError } from './errors.js';
import { isUuid } from './ids.js';
import { priceCoverage, type PricingTerms } from './pricing.js';

export type QuoteInput = z.output<typeof QuoteRequest>;

export const QUOTE_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface QuoteRecord {
  id: string;
  /** The insurable cart value as quoted. */
  cartValueCents: number;
  premiumCents: number;
  cartRef: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface ResolvedQuote {
  id: string;
  premiumCents: number;
  terms: PricingTerms;
}

export async function createQuote(db: Database, caller: Caller, input: QuoteInput, now: Date): Promise<QuoteRecord> {
  const { store } = caller;
  if (input.merchant_id !== undefined && input.merchant_id !== store.id && input.merchant_id !== store.slug) {
    throw new AppError('not_found', 'merchant_id names another store than the one the key belongs to.');
  }
  const cartValueCents = input.cart.covered.amount;
  const { premiumCents } = priceCoverage(cartValueCents, store.pricing);
  const expiresAt = new Date(now.getTime() + QUOTE_LIFETIME_MS);
  const cartRef = input.cart.cart_ref ?? null;

  if (caller.mode === 'test') {
    return { id: `test_${randomUUID()}`, cartValueCents, premiumCents, cartRef, createdAt: now, expiresAt };
  }
  const row = await db.quote.create({
    data: {
      storeId: store.id,
      coveredCents: cartValueCents,
      premiumCents,
      cartRef,
      // Recorded for dispute resolution only.
      cartItems: input.cart.cart_items === undefined ? undefined : (input.cart.cart_items as object[]),
      rateBps: store.pricing.rateBps,
      minPremiumCents: store.pricing.minPremiumCents,
      maxCoveredCents: store.pricing.maxCoveredCents,
      createdAt: now,
      expiresAt,
    },
  });
  return { id: row.id, cartValueCents, premiumCents, cartRef, createdAt: row.createdAt, expiresAt: row.expiresAt };
}

/**
 * The cart-swap check (DESIGN.md §4): a quote prices an order only when the order's insurable value
 * is within max(1 USD, 1 %) of the quoted value. Integer arithmetic, no rounding.
 */
export function cartMatchesQuote(quotedCents: number, cartCents: number): boolean {
  const difference = Math.abs(cartCents - quotedCents);
  return difference <= 100 || difference * 100 <= quotedCents;
}

/**
 * The quote that prices an order, or null. Any string is accepted as a quote id: an unknown,
 * malformed, expired or other-store id, or one whose cart no longer matches, resolves to null and
 * the order is priced from the configured rate. A bad quote id never fails an order.
 */
export async function resolveQuote(
  db: Database | Transaction,
  storeId: string,
  quoteId: string | undefined,
  cartValueCents: number,
  now: Date,
): Promise<ResolvedQuote | null> {
  if (quoteId === undefined || !isUuid(quoteId)) return null;
  const row = await db.quote.findFirst({ where: { id: quoteId.toLowerCase(), storeId } });
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  if (!cartMatchesQuote(Number(row.coveredCents), cartValueCents)) return null;
  return {
    id: row.id,
    premiumCents: Number(row.premiumCents),
    terms: {
      rateBps: row.rateBps,
      minPremiumCents: Number(row.minPremiumCents),
      maxCoveredCents: row.maxCoveredCents === null ? null : Number(row.maxCoveredCents),
    },
  };
}
