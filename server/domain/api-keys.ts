// Secret API keys (SPEC.md §5, DESIGN.md §4 "Keys"): ak_live_/ak_test_ + 40 random base62
// characters. Only the SHA-256 is stored; the plaintext is returned once, at issue.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/client.js';
import { AppError } from './errors.js';
import { isUuid } from './ids.js';
import { toStoreContext, type StoreContext } from './stores.js';

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

export function generateApiKey(mode: KeyMode): string {
  return `ak_${mode}_${randomBase62(RANDOM_LENGTH)}`;
}

export async function issueApiKey(
  db: Database,
  input: { storeSlug: string; mode: KeyMode; scope: KeyScope },
): Promise<IssuedKey> {
  const store = await db.store.findUnique({ where: { slug: input.storeSlug } });
  if (!store) throw new AppError('not_found', `No store with slug "${input.storeSlug}".`);
  const key = generateApiKey(input.mode);
  const last4 = key.slice(-4);
  const row = await db.apiKey.create({
    data: { storeId: store.id, mode: input.mode, scope: input.scope, keyHash: hashApiKey(key), last4 },
  });
  return { id: row.id, key, mode: input.mode, scope: input.scope, storeSlug: store.slug, last4 };
}

export async function revokeApiKey(db: Database, id: string, now: Date): Promise<{ id: string; revokedAt: Date }> {
  if (!isUuid(id)) throw new AppError('not_found', `No API key with id "${id}".`);
  // Revoking twice keeps the first revocation time.
  await db.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
  const row = await db.apiKey.findUnique({ where: { id } });
  if (!row?.revokedAt) throw new AppError('not_found', `No API key with id "${id}".`);
  return { id: row.id, revokedAt: row.revokedAt };
}

/**
 * Resolves a presented key to its caller, or throws 401 for a missing, malformed, unknown or
 * revoked key. Whether the caller may use a given route (scope) is the HTTP layer's decision.
 */
export async function authenticateApiKey(db: Database, presented: string | undefined): Promise<Caller> {
  if (presented === undefined || presented === '') {
    throw new AppError('unauthorized', 'No API key: send it in the token header or as Authorization: Bearer <key>.');
  }
  if (!API_KEY_PATTERN.test(presented)) {
    throw new AppError('unauthorized', 'The API key is malformed: keys look like ak_live_... or ak_test_....');
  }
  const presentedHash = hashApiKey(presented);
  const row = await db.apiKey.findUnique({ where: { keyHash: presentedHash }, include: { store: true } });
  // The lookup is by hash; the comparison is still constant-time so no timing reveals a near match.
  const matches =
    row !== null && timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(presentedHash, 'hex'));
  if (!row || !matches || row.revokedAt !== null) {
    throw new AppError('unauthorized', 'The API key is unknown or revoked.');
  }
  return { keyId: row.id, mode: row.mode, scope: row.scope, store: toStoreContext(row.store) };
}
