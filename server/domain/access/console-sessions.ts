// Console sessions (docs/console.md), after Lucia's guide to sessions: the cookie carries a random
// token, the database keeps only its SHA-256, so a copy of the table opens no session. A session
// lasts 12 hours from its last use (at most 7 days), is replaced at every login and password
// setup, and is destroyed at logout. Its CSRF token is derived from the session token (HMAC), so
// it needs no storage and dies with the session.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { MerchantUser } from '../../db/generated/client.js';
import { newToken, tokenHash } from './merchant-users.js';
import { toStoreContext, type StoreContext } from '../stores/index.js';

export const SESSION_IDLE_MS = 12 * 3600 * 1000;
export const SESSION_MAX_MS = 7 * 24 * 3600 * 1000;
/** A session's expiry moves on at most this often, so a busy page is not a write per request. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface ConsoleSessionRecord {
  token: string;
  expiresAt: Date;
  user: MerchantUser;
  /** The user's store: the console's scope (http/console-session.ts). */
  store: StoreContext;
}

/** Opens a session for the user (a login or a password setup), ending `replacing` if given. */
export async function openSession(db: Database, user: MerchantUser, now: Date, replacing?: string): Promise<ConsoleSessionRecord> {
  const { token, hash } = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
  await db.$transaction([
    ...(replacing === undefined ? [] : [db.consoleSession.deleteMany({ where: { tokenHash: tokenHash(replacing) } })]),
    db.consoleSession.create({ data: { tokenHash: hash, userId: user.id, createdAt: now, expiresAt, lastSeenAt: now } }),
  ]);
  const store = toStoreContext(await db.store.findUniqueOrThrow({ where: { id: user.storeId } }));
  return { token, expiresAt, user, store };
}

/** The live session of a token, its idle expiry moved on; null when unknown, expired or its user disabled. */
export async function findSession(db: Database, token: string, now: Date): Promise<ConsoleSessionRecord | null> {
  const row = await db.consoleSession.findUnique({
    where: { tokenHash: tokenHash(token) },
    include: { user: { include: { store: true } } },
  });
  if (row === null || row.expiresAt <= now || row.user.disabledAt !== null) return null;
  let expiresAt = row.expiresAt;
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, row.createdAt.getTime() + SESSION_MAX_MS));
    await db.consoleSession.updateMany({ where: { tokenHash: row.tokenHash }, data: { lastSeenAt: now, expiresAt } });
  }
  const { store, ...user } = row.user;
  return { token, expiresAt, user, store: toStoreContext(store) };
}

export async function destroySession(db: Database, token: string): Promise<void> {
  await db.consoleSession.deleteMany({ where: { tokenHash: tokenHash(token) } });
}

/** Sessions past their expiry, removed by the hourly retention sweep. */
export async function deleteExpiredSessions(db: Database, now: Date): Promise<number> {
  return (await db.consoleSession.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}

/** The session's CSRF token (OWASP's HMAC-based token pattern, keyed by the session token itself). */
export const csrfTokenOf = (sessionToken: string): string => createHmac('sha256', sessionToken).update('console-csrf').digest('base64url');

export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
