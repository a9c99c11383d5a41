// Secret API keys (README, Concepts, "Keys and modes"): ak_live_/ak_test_ + 40 random base62
// characters. Only the SHA-256 is stored; the plaintext is returned once, at issue.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hotQuery, type Database, type HotStatement } from '../../db/client.js';
import type { Store } from '../../db/generated/client.js';
import type { CallerCache } from './api-key-cache.js';
import type { Scope } from './actor.js';
import { recordAudit } from './audit.js';
import { AppError, isUuid } from '../kernel/index.js';
import { ApiKeyName } from '../../../contract/console/api-keys.js';
import { fieldErrorsFromIssues } from '../../../contract/errors.js';

import { toStoreContext, type StoreContext, type StoreRow } from '../stores/index.js';

export type KeyMode = 'live' | 'test';
export type KeyScope = 'store' | 'account';

export const API_KEY_PATTERN = /^ak_(live|test)_[A-Za-z0-9]{32,128}$/;
const RANDOM_LENGTH = 40;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface Caller {
  keyId: string;
  mode: KeyMode;
  scope: KeyScope;
  store: StoreContext;
}

export interface IssuedKey {
  id: string;
  /** The plaintext key: shown once, never stored. */
  key: string;
  /** The name given at issue, trimmed; null if none. */
  name: string | null;
  mode: KeyMode;
  scope: KeyScope;
  storeSlug: string;
  last4: string;
}

/** The mode a presented key claims by its prefix, whether or not it is valid (for the mode headers). */
export function modeOfPresentedKey(presented: string | undefined): KeyMode {
  return presented?.startsWith('ak_test_') ? 'test' : 'live';
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 x 62: rejecting bytes above it keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/**
 * The WooCommerce webhook secret Route's plugin derives from a key: the hex SHA-256 of
 * "<merchant id>-<secret token>", where the merchant id is our store id (GET /v1/merchants tells the
 * plugin) and the token is the key. A salted one-way hash of the key, stored beside the key's own
 * hash so signed WooCommerce deliveries can be checked while the key itself is never stored.
 */
export function derivedWooCommerceSecret(storeId: string, key: string): string {
  return createHash('sha256').update(`${storeId}-${key}`, 'utf8').digest('hex');
}

export function generateApiKey(mode: KeyMode): string {
  return `ak_${mode}_${randomBase62(RANDOM_LENGTH)}`;
}

/** A key's name, checked by the contract's rule (trimmed, 1-100 characters, no control characters). */
function checkedKeyName(name: string | null | undefined): string | null {
  if (name === undefined || name === null) return null;
  const parsed = ApiKeyName.safeParse(name);
  if (!parsed.success) throw new AppError('invalid_request', 'The key name is not valid.', fieldErrorsFromIssues(parsed.error.issues, ['name']));
  return parsed.data;
}

export async function issueApiKey(db: Database, scope: Scope, input: { mode: KeyMode; scope: KeyScope; name?: string | null | undefined }): Promise<IssuedKey> {
  const { store, actor } = scope;
  const name = checkedKeyName(input.name);
  const key = generateApiKey(input.mode);
  const last4 = key.slice(-4);
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        storeId: store.id,
        mode: input.mode,
        scope: input.scope,
        name,
        keyHash: hashApiKey(key),
        last4,
        woocommerceWebhookSecret: derivedWooCommerceSecret(store.id, key),
      },
    });
    const details = { mode: input.mode, scope: input.scope, last4, ...(name === null ? {} : { name }) };
    await recordAudit(tx, actor, { storeId: store.id, action: 'api_key.created', subject: { type: 'api_key', id: created.id }, details, at: created.createdAt });
    return created;
  });
  return { id: row.id, key, name, mode: input.mode, scope: input.scope, storeSlug: store.slug, last4 };
}

/** The store a key belongs to, for the operator who names a key by its id alone. */
export async function findApiKeyStore(db: Database, id: string): Promise<StoreContext> {
  const row = isUuid(id) ? await db.apiKey.findUnique({ where: { id }, select: { store: true } }) : null;
  if (row === null) throw new AppError('not_found', `No API key with id "${id}".`);
  return toStoreContext(row.store);
}

/** Revokes one of the store's keys. */
export async function revokeApiKey(db: Database, scope: Scope, id: string, now: Date): Promise<{ id: string; revokedAt: Date }> {
  if (!isUuid(id)) throw new AppError('not_found', `No API key with id "${id}".`);
  const { actor } = scope;
  const ofStore = { storeId: scope.store.id };
  return db.$transaction(async (tx) => {
    // Revoking twice keeps the first revocation time, and records the revocation once.
    const { count } = await tx.apiKey.updateMany({ where: { id, revokedAt: null, ...ofStore }, data: { revokedAt: now } });
    const row = await tx.apiKey.findFirst({ where: { id, ...ofStore } });
    if (!row?.revokedAt) throw new AppError('not_found', `No API key with id "${id}".`);
    if (count > 0) await recordAudit(tx, actor, { storeId: row.storeId, action: 'api_key.revoked', subject: { type: 'api_key', id }, at: now });
    return { id: row.id, revokedAt: row.revokedAt };
  });
}

/** A store's keys, newest first (the console's list). */
export async function listApiKeys(db: Database, scope: Scope) {
  return db.apiKey.findMany({ where: { storeId: scope.store.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/**
 * Resolves a presented key to its caller, or throws 401 for a missing, malformed, unknown or
 * revoked key. Whether the caller may use a given route (scope) is the HTTP layer's decision.
 */
export async function authenticateApiKey(db: Database, presented: string | undefined, cache?: CallerCache): Promise<Caller> {
  if (presented === undefined || presented === '') {
    throw new AppError('unauthorized', 'No API key: send it in the token header or as Authorization: Bearer <key>.');
  }
  if (!API_KEY_PATTERN.test(presented)) {
    throw new AppError('unauthorized', 'The API key is malformed: keys look like ak_live_... or ak_test_....');
  }
  const presentedHash = hashApiKey(presented);
  // Only valid keys are cached, under their hash (a near miss finds nothing, as in the index).
  const cached = cache?.get(presentedHash);
  if (cached !== undefined) return cached;
  const generation = cache?.generation() ?? 0;
  const row = await findKeyWithStore(db, presentedHash);
  // The lookup is by hash; the comparison is still constant-time so no timing reveals a near match.
  const matches =
    row !== null && timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(presentedHash, 'hex'));
  if (!row || !matches || row.revokedAt !== null) {
    throw new AppError('unauthorized', 'The API key is unknown or revoked.');
  }
  if (!row.hasDerivedSecret) {
    // A key issued before derived secrets were kept: its plaintext is in hand now, once.
    await db.$executeRaw`UPDATE api_keys SET woocommerce_webhook_secret = ${derivedWooCommerceSecret(row.store.id, presented)}
                          WHERE id = ${row.id}::uuid AND woocommerce_webhook_secret IS NULL`;
  }
  const caller: Caller = { keyId: row.id, mode: row.mode, scope: row.scope, store: toStoreContext(row.store) };
  cache?.set(presentedHash, caller, generation);
  return caller;
}

interface KeyWithStore {
  id: string;
  mode: KeyMode;
  scope: KeyScope;
  keyHash: string;
  revokedAt: Date | null;
  hasDerivedSecret: boolean;
  store: StoreRow;
}

/** The key and its store in one statement, where Prisma's include takes two. */
const KEY_WITH_STORE: HotStatement = {
  name: 'op_api_key_with_store',
  text: `SELECT k.id, k.mode::text AS mode, k.scope::text AS scope, k.key_hash, k.revoked_at,
                s.id AS store_id, s.slug, s.name, s.rate_bps, s.min_premium_cents::text AS min_premium_cents,
                s.max_covered_cents::text AS max_covered_cents, s.protection_skus, s.quote_origin::text AS quote_origin,
                s.client_profile::text AS client_profile, s.created_at,
                k.woocommerce_webhook_secret IS NOT NULL AS has_derived_secret
           FROM api_keys k JOIN stores s ON s.id = k.store_id
          WHERE k.key_hash = $1`,
};

interface KeyWithStoreRow {
  id: string;
  mode: KeyMode;
  scope: KeyScope;
  key_hash: string;
  revoked_at: Date | null;
  store_id: string;
  slug: string;
  name: string;
  rate_bps: number;
  min_premium_cents: string;
  max_covered_cents: string | null;
  protection_skus: string[];
  quote_origin: Store['quoteOrigin'];
  client_profile: Store['clientProfile'];
  created_at: Date;
  has_derived_secret: boolean;
}

/** The key and its store, when the callers' cache does not have them. */
async function findKeyWithStore(db: Database, keyHash: string): Promise<KeyWithStore | null> {
  const [row] = await hotQuery<KeyWithStoreRow>(db, KEY_WITH_STORE, [keyHash]);
  if (row === undefined) return null;
  return {
    id: row.id,
    mode: row.mode,
    scope: row.scope,
    keyHash: row.key_hash,
    revokedAt: row.revoked_at,
    hasDerivedSecret: row.has_derived_secret,
    store: {
      id: row.store_id,
      slug: row.slug,
      name: row.name,
      rateBps: row.rate_bps,
      minPremiumCents: BigInt(row.min_premium_cents),
      maxCoveredCents: row.max_covered_cents === null ? null : BigInt(row.max_covered_cents),
      protectionSkus: row.protection_skus,
      quoteOrigin: row.quote_origin,
      clientProfile: row.client_profile,
      createdAt: row.created_at,
    },
  };
}
