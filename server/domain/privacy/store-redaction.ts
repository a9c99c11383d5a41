// A store's erasure (README, "Personal data"): its platform uninstalled it (store.redact, as
// Shopify's shop/redact), so 48 hours later every shopper's personal data of the store is erased,
// unless the platform (store.redact_cancelled: it was reinstalled) or the operator cancels it first.
// The erasure job (jobs/privacy-requests.ts) carries out what is due, order by order, as the
// retention job does; orders with an open claim wait for it, and the request stays pending.
import { storeRowKey, type Database } from '../../db/client.js';
import { actingFor, recordAudit, type Scope, type ServiceScope } from '../access/index.js';
import { findStoreById } from '../stores/index.js';
import { retryWithheldOrders } from './customer-data.js';

import { AppError } from '../kernel/index.js';
import { redactOrders } from '../orders/index.js';
import { HOLDS_PERSONAL_DATA } from './personal-data.js';
import { recordPrivacyRequest, settlePrivacyRequest, type PrivacyRequestRecord, type SourceRequest } from './privacy-requests.js';

/** How long an uninstalled store's data waits, so that a reinstall can cancel the erasure. */
export const STORE_REDACTION_DELAY_MS = 48 * 3600 * 1000;
/** Orders looked up at a time. */
const STORE_ERASURE_BATCH = 200;

export interface ScheduledStoreRedaction {
  request: PrivacyRequestRecord;
  /** A redelivery, or another request while one is already pending: that one stands. */
  duplicate: boolean;
}

/** Schedules the store's erasure 48 hours from now; one at a time per store. */
export async function scheduleStoreRedaction(db: Database, scope: Scope, source: SourceRequest | null, now: Date): Promise<ScheduledStoreRedaction> {
  const dueAt = new Date(now.getTime() + STORE_REDACTION_DELAY_MS);
  const recorded = await recordPrivacyRequest(db, { storeId: scope.store.id, kind: 'store_redact', actor: scope.actor, source, receivedAt: now, dueAt });
  return { request: recorded.request, duplicate: recorded.existing };
}

/**
 * Cancels the store's pending erasure (the one with the platform's request id when given). A
 * second cancellation answers the cancelled request again; an erasure already carried out is 409,
 * and none at all is 404.
 */
export async function cancelStoreRedaction(
  db: Database,
  scope: Scope,
  which: { platformId: string; requestId: string } | null,
  now: Date,
): Promise<{ request: PrivacyRequestRecord; duplicate: boolean }> {
  const where = which
    ? { storeId: scope.store.id, kind: 'store_redact' as const, platformId: which.platformId, sourceRequestId: which.requestId }
    : { storeId: scope.store.id, kind: 'store_redact' as const, status: 'pending' as const };
  // Only a pending one changes, so a cancellation and the job's completion cannot both win.
  const cancelled = await db.$transaction(async (tx) => {
    const [row] = await tx.privacyRequest.updateManyAndReturn({ where: { ...where, status: 'pending' }, data: { status: 'cancelled', cancelledAt: now } });
    if (row !== undefined) await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'privacy_request.cancelled', subject: { type: 'privacy_request', id: row.id }, at: now });
    return row;
  });
  if (cancelled !== undefined) return { request: cancelled, duplicate: false };
  const found = await db.privacyRequest.findFirst({ where, orderBy: { receivedAt: 'desc' } });
  if (found?.status === 'cancelled') return { request: found, duplicate: true };
  if (found?.status === 'completed') throw new AppError('conflict', "The store's erasure has already been carried out; it cannot be cancelled.");
  throw new AppError('not_found', 'No erasure of the store is pending.');
}

/** Erases the personal data of every order of the store, in batches; returns how many it erased. */
async function eraseStore(db: Database, scope: Scope, request: PrivacyRequestRecord, now: Date): Promise<number> {
  let erased = 0;
  let matched = 0;
  const withheld = new Set<string>();
  for (;;) {
    // A cancellation stops the erasure between batches.
    const current = await db.privacyRequest.findUnique({ where: storeRowKey(request.storeId, request.id), select: { status: true } });
    if (current?.status !== 'pending') return erased;
    const batch = await db.$queryRawUnsafe<Array<{ source_order_id: string }>>(
      `SELECT o.source_order_id FROM orders o
        WHERE o.store_id = $1::uuid AND (${HOLDS_PERSONAL_DATA}) AND o.source_order_id <> ALL ($2::text[])
        ORDER BY o.created_on LIMIT $3`,
      request.storeId,
      [...withheld],
      STORE_ERASURE_BATCH,
    );
    if (batch.length === 0) break;
    const outcome = await redactOrders(db, scope, batch.map((row) => row.source_order_id), now);
    matched += batch.length;
    erased += outcome.redacted.length;
    for (const id of outcome.withheld) withheld.add(id);
  }
  // Orders held back by open claims keep the request pending: the next run looks again.
  await settlePrivacyRequest(db, request, { matched, erased, withheld: [...withheld], at: now });
  return erased;
}

/** Carries out every request due at `now`: store erasures past their delay, and orders still owed. */
export async function runDuePrivacyRequests(db: Database, service: ServiceScope, now: Date): Promise<{ ordersErased: number; requests: number }> {
  const due = await db.privacyRequest.findMany({ where: { status: 'pending', dueAt: { lte: now } }, orderBy: { dueAt: 'asc' } });
  let ordersErased = 0;
  for (const request of due) {
    const scope = actingFor(service, await findStoreById(db, request.storeId));
    ordersErased += request.kind === 'store_redact' ? await eraseStore(db, scope, request, now) : await retryWithheldOrders(db, scope, request, now);
  }
  return { ordersErased, requests: due.length };
}
