// Idempotency keys (Stripe's semantics) for the merchant API's POST and PATCH routes, live keys:
// the first request with a key runs and, when it succeeds, its answer is kept for 24 hours; the same
// key with the same request gets that answer again; with another request, or while the first still
// runs, it is refused. One row per store and key, claimed by a single INSERT, so that requests
// sharing a key run once whichever instance receives them.
import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from '../../../contract/policy.js';
import type { Database } from '../../db/client.js';

export const IDEMPOTENCY_WINDOW_HOURS = 24;
/**
 * A key still marked running after this long belongs to a request whose instance died (every
 * request ends long before: the shutdown drain and the database statement timeouts are shorter),
 * and the same request may take it over.
 */
export const ABANDONED_AFTER_SECONDS = 120;
/** What a caller waits before retrying while the first request still runs. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

/** Why a presented key cannot be used (the contract's IDEMPOTENCY_KEY_PATTERN), or null when it can. */
export function idempotencyKeyProblem(key: string): string | null {
  if (IDEMPOTENCY_KEY_PATTERN.test(key)) return null;
  if (key.length === 0) return 'must not be empty';
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`;
  return 'must be visible ASCII characters, without spaces (a UUID is a good key)';
}

/** What identifies a request: the method, the path with its query, and the body's exact bytes. */
export function idempotencyRequestHash(method: string, pathWithQuery: string, rawBody: Uint8Array): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${pathWithQuery}\n`).update(rawBody).digest('hex');
}

export interface IdempotencyRequest {
  storeId: string;
  key: string;
  requestHash: string;
}

/** The claim this request holds on its key: the time it started is its token. */
export interface IdempotencyClaim extends IdempotencyRequest {
  startedAt: Date;
}

export type IdempotencyOutcome =
  | { kind: 'run'; claim: IdempotencyClaim }
  | { kind: 'replay'; status: number; bodyText: string }
  | { kind: 'in_progress' }
  | { kind: 'different_request' };

/**
 * Claims the key for this request, or says what the request gets instead. The INSERT is the
 * decision: it succeeds for the first request, for a key whose 24 hours are over, and for the same
 * request after an abandoned run; every other request reads what the key holds.
 */
export async function claimIdempotencyKey(db: Database, request: IdempotencyRequest, now: Date): Promise<IdempotencyOutcome> {
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_WINDOW_HOURS * 3600_000);
  const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_SECONDS * 1000);
  // A key released between the INSERT and the read (its first request failed) is claimed again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const claimed = await db.$queryRaw<Array<{ claimed: number }>>`
      INSERT INTO idempotency_keys (store_id, key, request_hash, state, started_at, expires_at)
      VALUES (${request.storeId}::uuid, ${request.key}, ${request.requestHash}, 'running', ${now}, ${expiresAt})
      ON CONFLICT (store_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, state = 'running', started_at = EXCLUDED.started_at,
            expires_at = EXCLUDED.expires_at, response_status = NULL, response_body = NULL
        WHERE idempotency_keys.expires_at <= ${now}
           OR (idempotency_keys.state = 'running' AND idempotency_keys.started_at <= ${abandonedBefore}
               AND idempotency_keys.request_hash = EXCLUDED.request_hash)
      RETURNING 1 AS claimed`;
    if (claimed.length === 1) return { kind: 'run', claim: { ...request, startedAt: now } };

    const held = await db.idempotencyKey.findUnique({ where: { storeId_key: { storeId: request.storeId, key: request.key } } });
    if (held === null) continue;
    if (held.requestHash !== request.requestHash) return { kind: 'different_request' };
    if (held.state === 'running' || held.responseStatus === null || held.responseBody === null) return { kind: 'in_progress' };
    return { kind: 'replay', status: held.responseStatus, bodyText: held.responseBody };
  }
  return { kind: 'in_progress' };
}

/**
 * Settles a run once its answer is known. A success with a body (its JSON text, exactly as sent)
 * is kept for the key's retries; anything else gives the key back, so that a retry runs afresh:
 * after a 4xx nothing happened, after a 5xx nothing was written (every write is one transaction).
 */
export async function settleIdempotentRun(db: Database, claim: IdempotencyClaim, status: number, bodyText: string | undefined): Promise<void> {
  if (status >= 200 && status < 300 && bodyText !== undefined) await recordIdempotentAnswer(db, claim, status, bodyText);
  else await releaseIdempotencyKey(db, claim);
}

/** Keeps a successful answer for the key's retries. Only the claim's own run can record it. */
async function recordIdempotentAnswer(db: Database, claim: IdempotencyClaim, status: number, body: string): Promise<void> {
  await db.idempotencyKey.updateMany({
    where: { storeId: claim.storeId, key: claim.key, requestHash: claim.requestHash, state: 'running', startedAt: claim.startedAt },
    data: { state: 'done', responseStatus: status, responseBody: body },
  });
}

/** Gives the key back. Only the claim's own run can release it. */
async function releaseIdempotencyKey(db: Database, claim: IdempotencyClaim): Promise<void> {
  await db.idempotencyKey.deleteMany({
    where: { storeId: claim.storeId, key: claim.key, requestHash: claim.requestHash, state: 'running', startedAt: claim.startedAt },
  });
}

/** Deletes the keys whose 24 hours are over; returns how many. */
export async function sweepExpiredIdempotencyKeys(db: Database, now: Date): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
