// Reading claims: one by id, an order's, the store's queue, and a claim's history.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { withActorLabels } from '../access/index.js';
import { afterCursor, decodePageCursor, isUuid, pageOf } from '../kernel/index.js';

import { orderNotFound } from '../orders/index.js';
import { toStoreContext, type StoreContext } from '../stores/index.js';
import { normalizedReference } from './claim-reference.js';
import { claimInclude, claimNotFound, withDetails, withDetailsOne, type ClaimRecord, type ClaimStatus } from './claim-record.js';

export async function getClaim(db: Database, scope: Scope, id: string, now: Date): Promise<ClaimRecord> {
  if (!isUuid(id)) throw claimNotFound(id);
  const row = await db.claim.findFirst({ where: { id, storeId: scope.store.id }, include: claimInclude });
  if (!row) throw claimNotFound(id);
  return withDetailsOne(db, row, now);
}

/** A claim of one order (the shopper's session), or null. */
export async function findClaimOfOrder(db: Database, orderId: string, claimId: string, now: Date): Promise<ClaimRecord | null> {
  const row = await db.claim.findFirst({ where: { id: claimId, orderId }, include: claimInclude });
  return row === null ? null : withDetailsOne(db, row, now);
}

/** The store's claim with this reference (typed in any case, with or without its dash), if any. */
export async function findClaimByReference(db: Database, scope: Scope, reference: string, now: Date): Promise<ClaimRecord[]> {
  const row = await db.claim.findUnique({ where: { storeId_reference: { storeId: scope.store.id, reference: normalizedReference(reference) } }, include: claimInclude });
  return row === null ? [] : [await withDetailsOne(db, row, now)];
}

export async function listClaims(db: Database, scope: Scope, sourceOrderId: string, now: Date): Promise<ClaimRecord[]> {
  const notFound = orderNotFound(sourceOrderId);
  const order = await db.order.findUnique({
    where: { storeId_sourceOrderId: { storeId: scope.store.id, sourceOrderId } },
    select: { id: true },
  });
  if (!order) throw notFound;
  const rows = await db.claim.findMany({ where: { storeId: scope.store.id, orderId: order.id }, include: claimInclude, orderBy: [{ createdOn: 'asc' }, { id: 'asc' }] });
  return withDetails(db, rows, now);
}

/** A store's claims, oldest first (the console's queue), of one status or all, a page at a time. */
export async function listStoreClaims(
  db: Database,
  scope: Scope,
  query: { status?: ClaimStatus; cursor?: string; reference?: string },
  limit: number,
  now: Date,
): Promise<{ claims: ClaimRecord[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? null : decodePageCursor(query.cursor);
  const rows = await db.claim.findMany({
    where: {
      storeId: scope.store.id,
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.reference === undefined ? {} : { reference: normalizedReference(query.reference) }),
      ...afterCursor(after, 'asc'),
    },
    include: claimInclude,
    orderBy: [{ createdOn: 'asc' }, { id: 'asc' }],
    take: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit);
  return { claims: await withDetails(db, page, now), nextCursor };
}

/** A claim's status changes, oldest first, each with who made it. */
export async function claimHistory(db: Database, scope: Scope, claim: Pick<ClaimRecord, 'id'>) {
  return withActorLabels(db, scope.store.id, await db.claimStatusChange.findMany({ where: { claimId: claim.id, claim: { storeId: scope.store.id } }, orderBy: { id: 'asc' } }));
}

/** The store a claim belongs to, for the operator who names a claim by its id alone. */
export async function findClaimStore(db: Database, id: string): Promise<StoreContext> {
  const row = isUuid(id) ? await db.claim.findFirst({ where: { id }, select: { store: true } }) : null;
  if (row === null) throw claimNotFound(id);
  return toStoreContext(row.store);
}
