// Stores (merchants) and their integration settings.
import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/client.js';
import type { Store } from '../db/generated/client.js';
import { AppError } from './errors.js';
import type { PricingTerms } from './pricing.js';

export type QuoteOrigin = 'backend' | 'browser';

export interface StoreContext {
  id: string;
  slug: string;
  name: string;
  pricing: PricingTerms;
  /** SKUs declared by the store in addition to the built-in protection SKUs. */
  protectionSkus: string[];
  quoteOrigin: QuoteOrigin;
}

export interface NewStore {
  slug: string;
  name: string;
  pricing: PricingTerms;
  protectionSkus: string[];
  quoteOrigin: QuoteOrigin;
}

export const STORE_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function toStoreContext(row: Store): StoreContext {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    pricing: {
      rateBps: row.rateBps,
      minPremiumCents: Number(row.minPremiumCents),
      maxCoveredCents: row.maxCoveredCents === null ? null : Number(row.maxCoveredCents),
    },
    protectionSkus: row.protectionSkus,
    quoteOrigin: row.quoteOrigin,
  };
}

export async function createStore(db: Database, input: NewStore): Promise<StoreContext> {
  try {
    const row = await db.store.create({
      data: {
        slug: input.slug,
        name: input.name,
        rateBps: input.pricing.rateBps,
        minPremiumCents: input.pricing.minPremiumCents,
        maxCoveredCents: input.pricing.maxCoveredCents,
        protectionSkus: input.protectionSkus,
        quoteOrigin: input.quoteOrigin,
      },
    });
    return toStoreContext(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', `A store with slug "${input.slug}" already exists.`);
    throw error;
  }
}

export async function findStoreBySlug(db: Database, slug: string): Promise<StoreContext> {
  const row = await db.store.findUnique({ where: { slug } });
  if (!row) throw new AppError('not_found', `No store with slug "${slug}".`);
  return toStoreContext(row);
}

/** The integration declarations a store can change later (SPEC.md §1 point 4). */
export interface StoreDeclarations {
  /** Replaces the declared protection SKUs when given. */
  protectionSkus?: string[];
  quoteOrigin?: QuoteOrigin;
}

export async function updateStoreDeclarations(db: Database, slug: string, declarations: StoreDeclarations): Promise<StoreContext> {
  const existing = await db.store.findUnique({ where: { slug } });
  if (!existing) throw new AppError('not_found', `No store with slug "${slug}".`);
  const row = await db.store.update({
    where: { slug },
    data: {
      ...(declarations.protectionSkus === undefined ? {} : { protectionSkus: declarations.protectionSkus }),
      ...(declarations.quoteOrigin === undefined ? {} : { quoteOrigin: declarations.quoteOrigin }),
    },
  });
  return toStoreContext(row);
}
