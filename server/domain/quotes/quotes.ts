// Quotes (README, Concepts, "Pricing"): a priced cart, valid 24 hours, that an order may reference.
import type { z } from 'zod';
import type { QuoteRequest } from '../../../contract/quotes.js';
import { hotQuery, type Database, type HotStatement } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { AppError, isUuid } from '../kernel/index.js';

import { priceCoverage, type PricingTerms } from './pricing.js';
import type { StoreContext } from '../stores/index.js';

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

/** A quote as the request prices it, before it has an id: shared by live quotes and the sandbox. */
export function priceQuote(store: StoreContext, input: QuoteInput, now: Date): Omit<QuoteRecord, 'id'> {
  const cartValueCents = input.cart.covered.amount;
  const { premiumCents } = priceCoverage(cartValueCents, store.pricing);
  return { cartValueCents, premiumCents, cartRef: input.cart.cart_ref ?? null, createdAt: now, expiresAt: new Date(now.getTime() + QUOTE_LIFETIME_MS) };
}

/**
 * merchant_id is redundant with the key: naming another store is 404; naming no store at all (a
 * Route merchant id a switched plugin still sends) is ignored, as the key says which store it is.
 */
export async function assertMerchantIdFits(db: Database, store: StoreContext, merchantId: string | undefined): Promise<void> {
  if (merchantId === undefined || merchantId === store.id || merchantId === store.slug) return;
  const other = await db.store.findFirst({ where: isUuid(merchantId) ? { OR: [{ id: merchantId }, { slug: merchantId }] } : { slug: merchantId }, select: { id: true } });
  if (other) throw new AppError('not_found', 'merchant_id names another store than the one the key belongs to.');
}

export async function createQuote(db: Database, scope: Scope, input: QuoteInput, now: Date): Promise<QuoteRecord> {
  const { store } = scope;
  await assertMerchantIdFits(db, store, input.merchant_id);
  const { cartValueCents, premiumCents, cartRef, expiresAt } = priceQuote(store, input, now);
  const [row] = await hotQuery<{ id: string }>(db, INSERT_QUOTE, [
    store.id,
    cartValueCents,
    premiumCents,
    cartRef,
    // Recorded for dispute resolution only.
    input.cart.cart_items === undefined ? null : JSON.stringify(input.cart.cart_items),
    store.pricing.rateBps,
    store.pricing.minPremiumCents,
    store.pricing.maxCoveredCents,
    now,
    expiresAt,
  ]);
  if (row === undefined) throw new Error('the quote insert returned no row');
  knownQuotes(db).set(row.id, {
    storeId: store.id,
    coveredCents: cartValueCents,
    premiumCents,
    terms: { ...store.pricing },
    expiresAt,
  });
  return { id: row.id, cartValueCents, premiumCents, cartRef, createdAt: now, expiresAt };
}

/** A quote with the store's terms of the moment; the answer holds what was written, and the new id. */
const INSERT_QUOTE: HotStatement = {
  name: 'op_insert_quote',
  text: `INSERT INTO quotes (store_id, covered_cents, premium_cents, cart_ref, cart_items, rate_bps, min_premium_cents,
                               max_covered_cents, created_at, expires_at)
         VALUES ($1::uuid, $2::bigint, $3::bigint, $4, $5::jsonb, $6::int, $7::bigint, $8::bigint, $9::timestamptz, $10::timestamptz)
         RETURNING id`,
};

/** The quote an order names, by id within the store (primary key). */
const QUOTE_OF_STORE: HotStatement = {
  name: 'op_quote_of_store',
  text: `SELECT covered_cents::text AS covered_cents, premium_cents::text AS premium_cents, rate_bps,
                min_premium_cents::text AS min_premium_cents, max_covered_cents::text AS max_covered_cents, expires_at
           FROM quotes WHERE id = $1::uuid AND store_id = $2::uuid`,
};

interface QuoteRow {
  covered_cents: string;
  premium_cents: string;
  rate_bps: number;
  min_premium_cents: string;
  max_covered_cents: string | null;
  expires_at: Date;
}

/**
 * The cart-swap check: a quote prices an order only when the order's insurable value
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
  db: Database,
  storeId: string,
  quoteId: string | undefined,
  cartValueCents: number,
  now: Date,
): Promise<ResolvedQuote | null> {
  if (quoteId === undefined || !isUuid(quoteId)) return null;
  const id = quoteId.toLowerCase();
  const quote = knownQuotes(db).get(id) ?? (await readQuote(db, id, storeId));
  if (quote === null || quote.storeId !== storeId || quote.expiresAt.getTime() <= now.getTime()) return null;
  if (!cartMatchesQuote(quote.coveredCents, cartValueCents)) return null;
  return { id, premiumCents: quote.premiumCents, terms: { ...quote.terms } };
}

/** What an order needs of a quote. */
interface KnownQuote {
  storeId: string;
  coveredCents: number;
  premiumCents: number;
  terms: PricingTerms;
  expiresAt: Date;
}

/**
 * Quotes this instance issued or read. A quote never changes once written (the database refuses an
 * UPDATE: migration immutable_quotes), so a copy needs no invalidation; expiry is checked on use.
 * Keyed by id alone: ids are random UUIDs, and the store is checked on every use.
 */
/** The quotes this database handle has issued or read: immutable rows (the database refuses an UPDATE). */
const knownQuotes = (db: Database) => ({
  get: (id: string) => db.immutableRows.get(`quote:${id}`) as KnownQuote | undefined,
  set: (id: string, quote: KnownQuote) => void db.immutableRows.set(`quote:${id}`, quote),
});

async function readQuote(db: Database, id: string, storeId: string): Promise<KnownQuote | null> {
  const [row] = await hotQuery<QuoteRow>(db, QUOTE_OF_STORE, [id, storeId]);
  if (row === undefined) return null;
  const quote: KnownQuote = {
    storeId,
    coveredCents: Number(row.covered_cents),
    premiumCents: Number(row.premium_cents),
    terms: {
      rateBps: row.rate_bps,
      minPremiumCents: Number(row.min_premium_cents),
      maxCoveredCents: row.max_covered_cents === null ? null : Number(row.max_covered_cents),
    },
    expiresAt: row.expires_at,
  };
  knownQuotes(db).set(id, quote);
  return quote;
}
