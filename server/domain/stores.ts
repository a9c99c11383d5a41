// Stores (merchants) and their integration settings.
import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/client.js';
import type { Store } from '../db/generated/client.js';
import { codePointLength } from '../../contract/common.js';
import type { FieldError } from '../../contract/errors.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit.js';
import { AppError } from './errors.js';
import { SLUG_PATTERN, SLUG_RULE } from './slug.js';
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

/** A rate is in basis points of the covered amount: 0 to 100 %. */
export const MAX_RATE_BPS = 10_000;
/** The longest SKU an order line may carry: a longer declared protection SKU could never match. */
export const MAX_SKU_LENGTH = 255;

/** Whether a declared protection SKU can ever match a line: not blank, not too long. */
export const isUsableSku = (sku: string): boolean => sku.trim() !== '' && codePointLength(sku) <= MAX_SKU_LENGTH;
export const SKU_RULE = `must be non-blank and at most ${MAX_SKU_LENGTH} characters`;

/** What is wrong with a store's settings, field by field: the rules every door applies (CLI, console). */
export function storeSettingsProblems(settings: { slug?: string; name?: string; pricing?: PricingTerms; protectionSkus?: readonly string[] }): FieldError[] {
  const problems: FieldError[] = [];
  if (settings.slug !== undefined && !SLUG_PATTERN.test(settings.slug)) problems.push({ field: 'slug', message: SLUG_RULE });
  if (settings.name !== undefined && settings.name.trim() === '') problems.push({ field: 'name', message: 'must not be blank' });
  const pricing = settings.pricing;
  if (pricing !== undefined) {
    if (!Number.isInteger(pricing.rateBps) || pricing.rateBps < 0 || pricing.rateBps > MAX_RATE_BPS) {
      problems.push({ field: 'rate_bps', message: `must be an integer from 0 to ${MAX_RATE_BPS}` });
    }
    if (!Number.isInteger(pricing.minPremiumCents) || pricing.minPremiumCents < 0) problems.push({ field: 'min_premium', message: 'must not be negative' });
    if (pricing.maxCoveredCents !== null && (!Number.isInteger(pricing.maxCoveredCents) || pricing.maxCoveredCents < 0)) {
      problems.push({ field: 'max_covered', message: 'must not be negative' });
    }
  }
  (settings.protectionSkus ?? []).forEach((sku, index) => {
    if (!isUsableSku(sku)) problems.push({ field: `protection_skus[${index}]`, message: SKU_RULE });
  });
  return problems;
}

function assertValidSettings(settings: Parameters<typeof storeSettingsProblems>[0]): void {
  const problems = storeSettingsProblems(settings);
  if (problems.length > 0) throw new AppError('invalid_request', 'The store settings are not valid.', problems);
}

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

export async function createStore(db: Database, actor: Actor, input: NewStore): Promise<StoreContext> {
  assertValidSettings(input);
  try {
    return await db.$transaction(async (tx) => {
      const row = await tx.store.create({
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
      const details = { slug: row.slug, rate_bps: row.rateBps, protection_skus: row.protectionSkus, quote_origin: row.quoteOrigin };
      await recordAudit(tx, actor, { storeId: row.id, action: 'store.created', subject: { type: 'store', id: row.id }, details, at: new Date() });
      return toStoreContext(row);
    });
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

/** The integration declarations a store can change later (README, Protection SKUs and other integration declarations). */
export interface StoreDeclarations {
  /** Replaces the declared protection SKUs when given. */
  protectionSkus?: string[];
  quoteOrigin?: QuoteOrigin;
}

export async function updateStoreDeclarations(db: Database, actor: Actor, slug: string, declarations: StoreDeclarations): Promise<StoreContext> {
  assertValidSettings({ protectionSkus: declarations.protectionSkus });
  return db.$transaction(async (tx) => {
    const existing = await tx.store.findUnique({ where: { slug } });
    if (!existing) throw new AppError('not_found', `No store with slug "${slug}".`);
    const row = await tx.store.update({
      where: { slug },
      data: {
        ...(declarations.protectionSkus === undefined ? {} : { protectionSkus: declarations.protectionSkus }),
        ...(declarations.quoteOrigin === undefined ? {} : { quoteOrigin: declarations.quoteOrigin }),
      },
    });
    const details = {
      ...(declarations.protectionSkus === undefined ? {} : { protection_skus: declarations.protectionSkus }),
      ...(declarations.quoteOrigin === undefined ? {} : { quote_origin: declarations.quoteOrigin }),
    };
    await recordAudit(tx, actor, { storeId: row.id, action: 'store.settings_changed', subject: { type: 'store', id: row.id }, details, at: new Date() });
    return toStoreContext(row);
  });
}
