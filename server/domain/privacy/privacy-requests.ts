// Privacy requests (README, "Personal data"): every erasure and access request a store receives, from
// its API key, its platform or the operator, is recorded here with who asked and what came of it,
// so a store can show that it answered. The record holds no personal data: never the email a
// request named, only counts and the ids of orders still owed.
//
// A platform's request carries the platform's own id for it, unique per store: a redelivery finds
// the first record, and the unique index (not a prior read) decides which delivery recorded it.
import { storeRowKey, type Database, type Transaction } from '../../db/client.js';
import type { PrivacyRequest, PrivacyRequestKind, PrivacyRequestStatus } from '../../db/generated/client.js';
import { type Actor, actorColumns, recordAudit } from '../access/index.js';

import type { Scope } from '../access/index.js';

export type { PrivacyRequestKind, PrivacyRequestStatus };

/** The platform's id for a request it sent, and the platform. */
export interface SourceRequest {
  platformId: string;
  requestId: string;
}

export type PrivacyRequestRecord = PrivacyRequest;

/** What recording a request found: a new record, or the one a redelivery of it made before. */
export interface RecordedRequest {
  request: PrivacyRequestRecord;
  /** True when the platform's request id was recorded already. */
  existing: boolean;
}

/**
 * Records a request as pending. With a platform's request id, a second delivery of it (even a
 * concurrent one) answers the first record instead. A store erasure conflicting with one already
 * pending for the store (the partial unique index) also answers that one.
 */
export async function recordPrivacyRequest(
  db: Database,
  input: { storeId: string; kind: PrivacyRequestKind; actor: Actor; source: SourceRequest | null; receivedAt: Date; dueAt: Date | null },
  attempt = 1,
): Promise<RecordedRequest> {
  // The request and its audit row land together, or neither does.
  const inserted = await db.$transaction(async (tx) => {
    const [row] = await tx.privacyRequest.createManyAndReturn({
      data: [
        {
          storeId: input.storeId,
          kind: input.kind,
          status: 'pending',
          ...actorColumns(input.actor),
          platformId: input.source?.platformId ?? null,
          sourceRequestId: input.source?.requestId ?? null,
          receivedAt: input.receivedAt,
          dueAt: input.dueAt,
        },
      ],
      skipDuplicates: true,
    });
    if (row !== undefined) {
      await recordAudit(tx, input.actor, { storeId: input.storeId, action: 'privacy_request.received', subject: { type: 'privacy_request', id: row.id }, details: { kind: input.kind }, at: input.receivedAt });
    }
    return row;
  });
  if (inserted !== undefined) return { request: inserted, existing: false };
  const sameRequest = input.source
    ? await db.privacyRequest.findFirst({ where: { storeId: input.storeId, kind: input.kind, platformId: input.source.platformId, sourceRequestId: input.source.requestId } })
    : null;
  // Otherwise the conflict was the other index: a store erasure already pending under another id.
  const existing = sameRequest ?? (await db.privacyRequest.findFirst({ where: { storeId: input.storeId, kind: input.kind, status: 'pending' } }));
  if (existing !== null) return { request: existing, existing: true };
  // The pending one was settled or cancelled in between: record this one after all.
  if (attempt < 3) return recordPrivacyRequest(db, input, attempt + 1);
  throw new Error('privacy request neither recorded nor found');
}

/** Settles a request with what came of it: completed, or still pending for the orders it owes. */
export async function settlePrivacyRequest(
  db: Database | Transaction,
  request: Pick<PrivacyRequestRecord, 'id' | 'storeId'>,
  outcome: { matched: number; erased: number; withheld: string[]; at: Date },
): Promise<void> {
  const owesMore = outcome.withheld.length > 0;
  await db.privacyRequest.update({
    where: storeRowKey(request.storeId, request.id),
    data: {
      status: owesMore ? 'pending' : 'completed',
      completedAt: owesMore ? null : outcome.at,
      // Owing orders: due again at once, so the erasure job's next run retries them.
      dueAt: owesMore ? outcome.at : undefined,
      ordersMatched: { increment: outcome.matched },
      ordersErased: { increment: outcome.erased },
      ordersWithheld: outcome.withheld.length,
      withheldSourceOrderIds: outcome.withheld,
    },
  });
}

/** A store's requests, newest first (the operator's list). */
export async function listPrivacyRequests(db: Database, scope: Scope, limit: number): Promise<PrivacyRequestRecord[]> {
  return db.privacyRequest.findMany({ where: { storeId: scope.store.id }, orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }], take: limit });
}
