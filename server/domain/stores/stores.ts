// Stores (merchants) and their integration settings.
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/client.js';
import type { Store } from '../../db/generated/client.js';
import { codePointLength } from '../../../contract/common.js';
import type { FieldError } from '../../../contract/errors.js';
import type { Scope, ServiceScope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import { SLUG_PATTERN, SLUG_RULE } from './slug.js';
import type { PricingTerms } from '../quotes/index.js';

export type QuoteOrigin = 'backend' | 'browser';

/**
 * Which client the store's integration is (README, Route's plugins): `standard` reads the
 * documented API exactly; `route` also reads what Route's own store plugins send, and answers in
 * Route's vocabulary where the plugins branch on it (docs/route-compatibility.md).
 */
export const CLIENT_PROFILES = ['standard', 'route'] as const;
export type ClientProfile = (typeof CLIENT_PROFILES)[number];

export interface StoreContext {
  id: string;
  slug: string;
  name: string;
  pricing: PricingTerms;
  /** SKUs declared by the store in addition to the built-in protection SKUs. */
  protectionSkus: string[];
  quoteOrigin: QuoteOrigin;
  clientProfile: ClientProfile;
}

export interface NewStore {
  slug: string;
  name: string;
  pricing: PricingTerms;
  protectionSkus: string[];
  quoteOrigin: QuoteOrigin;
  clientProfile: ClientProfile;
}

/** A rate is in basis points of the covered amount: 0 to 100 %. */
export const MAX_RATE_BPS = 10_000;
/** The longest SKU an order line may carry: a longer declared protection SKU could never match. */
export const MAX_SKU_LENGTH = 255;

/** Whether a declared protection SKU can ever match a line: not blank, not too long. */
export const isUsableSku = (sku: string): boolean => sku.trim() !== '' && codePointLength(sku) <= MAX_SKU_LENGTH;
export const SKU_RULE = `must be non-blank and at most ${MAX_SKU_LENGTH} characters`;

/** What is wrong with a store's settings, field by field: the rules every door applies (CLI, console). */
export function storeSettingsProblems(settings: {
  slug?: string;
  name?: string;
  pricing?: PricingTerms;
  protectionSkus?: readonly string[];
  woocommerceWebhookSecret?: string | null | undefined;
}): FieldError[] {
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
  const secret = settings.woocommerceWebhookSecret;
  if (typeof secret === 'string' && (secret.trim() !== secret || secret.length < 16 || secret.length > 200)) {
    problems.push({ field: 'woocommerce_webhook_secret', message: 'must be 16 to 200 characters with no surrounding space, as WooCommerce shows it' });
  }
  return problems;
}

function assertValidSettings(settings: Parameters<typeof storeSettingsProblems>[0]): void {
  const problems = storeSettingsProblems(settings);
  if (problems.length > 0) throw new AppError('invalid_request', 'The store settings are not valid.', problems);
}

/** A store's row without its secrets: all a StoreContext is made of. */
export type StoreRow = Omit<
  Store,
  'woocommerceWebhookSecret' | 'personalDataRetentionDays' | 'brandAccentColor' | 'supportEmail' | 'supportUrl' | 'claimLostAfterDays' | 'claimAfterDeliveryDays'
>;

export function toStoreContext(row: StoreRow): StoreContext {
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
    clientProfile: row.clientProfile,
  };
}

export async function createStore(db: Database, service: ServiceScope, input: NewStore): Promise<StoreContext> {
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
          clientProfile: input.clientProfile,
        },
      });
      const details = { slug: row.slug, rate_bps: row.rateBps, protection_skus: row.protectionSkus, quote_origin: row.quoteOrigin, client_profile: row.clientProfile };
      await recordAudit(tx, service.actor, { storeId: row.id, action: 'store.created', subject: { type: 'store', id: row.id }, details, at: new Date() });
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

/** A store by its id, for work that starts from a row of the store (a job, an operator's command). */
export async function findStoreById(db: Database, id: string): Promise<StoreContext> {
  const row = await db.store.findUnique({ where: { id } });
  if (!row) throw new AppError('not_found', `No store with id "${id}".`);
  return toStoreContext(row);
}

/** The integration declarations a store can change later (README, Protection SKUs and other integration declarations). */
export interface StoreDeclarations {
  /** Replaces the declared protection SKUs when given. */
  protectionSkus?: string[];
  quoteOrigin?: QuoteOrigin;
  clientProfile?: ClientProfile;
  /** The secret Route's WooCommerce plugin signs with, when it is not derived from one of our keys; null forgets it. */
  woocommerceWebhookSecret?: string | null;
  /** Days an order's personal data is kept after its last activity (README, Personal data). */
  personalDataRetentionDays?: number;
}

/** The retention a store may set: a day to a hundred years. */
export const MAX_RETENTION_DAYS = 36_500;

export async function updateStoreDeclarations(db: Database, scope: Scope, declarations: StoreDeclarations): Promise<StoreContext> {
  assertValidSettings({ protectionSkus: declarations.protectionSkus, woocommerceWebhookSecret: declarations.woocommerceWebhookSecret });
  const retention = declarations.personalDataRetentionDays;
  if (retention !== undefined && !(Number.isInteger(retention) && retention >= 1 && retention <= MAX_RETENTION_DAYS)) {
    throw new AppError('invalid_request', 'The retention is out of range.', [
      { field: 'personal_data_retention_days', message: `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}` },
    ]);
  }
  return db.$transaction(async (tx) => {
    const row = await tx.store.update({
      where: { id: scope.store.id },
      data: {
        ...(declarations.protectionSkus === undefined ? {} : { protectionSkus: declarations.protectionSkus }),
        ...(declarations.quoteOrigin === undefined ? {} : { quoteOrigin: declarations.quoteOrigin }),
        ...(declarations.clientProfile === undefined ? {} : { clientProfile: declarations.clientProfile }),
        ...(declarations.woocommerceWebhookSecret === undefined ? {} : { woocommerceWebhookSecret: declarations.woocommerceWebhookSecret }),
        ...(declarations.personalDataRetentionDays === undefined ? {} : { personalDataRetentionDays: declarations.personalDataRetentionDays }),
      },
    });
    const details = {
      ...(declarations.protectionSkus === undefined ? {} : { protection_skus: declarations.protectionSkus }),
      ...(declarations.quoteOrigin === undefined ? {} : { quote_origin: declarations.quoteOrigin }),
      ...(declarations.clientProfile === undefined ? {} : { client_profile: declarations.clientProfile }),
      // That a secret was declared or forgotten, never the secret.
      ...(declarations.woocommerceWebhookSecret === undefined ? {} : { woocommerce_webhook_secret: declarations.woocommerceWebhookSecret === null ? 'forgotten' : 'declared' }),
      ...(declarations.personalDataRetentionDays === undefined ? {} : { personal_data_retention_days: declarations.personalDataRetentionDays }),
    };
    await recordAudit(tx, scope.actor, { storeId: row.id, action: 'store.settings_changed', subject: { type: 'store', id: row.id }, details, at: new Date() });
    return toStoreContext(row);
  });
}
