// Reading claims: one by id, an order's, the store's queue, and a claim's history.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { withActorLabels } from '../access/index.js';
import { afterCursor, decodePageCursor, isUuid, pageOf } from '../kernel/index.js';

import { orderNotFound } from '../orders/index.js';
import { toStoreContext, type StoreContext } from '../stores/index.js';
import { claimInclude, claimNotFound, withPhotos, withPhotosOne, type ClaimRecord, type ClaimStatus } from './claim-record.js';

export async function getClaim(db: Database, scope: Scope, id: string): Promise<ClaimRecord> {
  if (!isUuid(id)) throw claimNotFound(id);
  const row = await db.claim.findFirst({ where: { id, storeId: scope.store.id }, include: claimInclude });
  if (!row) throw claimNotFound(id);
  return withPhotosOne(db, row);
}

/** A claim of one order (the shopper's session), or null. */
export async function findClaimOfOrder(db: Database, orderId: string, claimId: string): Promise<ClaimRecord | null> {
  const row = await db.claim.findFirst({ where: { id: claimId, orderId }, include: claimInclude });
  return row === null ? null : withPhotosOne(db, row);
}

export async function listClaims(db: Database, scope: Scope, sourceOrderId: string): Promise<ClaimRecord[]> {
  const notFound = orderNotFound(sourceOrderId);
  const order = await db.order.findUnique({
    where: { storeId_sourceOrderId: { storeId: scope.store.id, sourceOrderId } },
    select: { id: true },
  });
  if (!order) throw notFound;
  const rows = await db.claim.findMany({ where: { orderId: order.id }, include: claimInclude, orderBy: [{ createdOn: 'asc' }, { id: 'asc' }] });
  return withPhotos(db, rows);
}

/** A store's claims, oldest first (the console's queue), of one status or all, a page at a time. */
export async function listStoreClaims(
  db: Database,
  scope: Scope,
  query: { status?: ClaimStatus; cursor?: string },
  limit: number,
): Promise<{ claims: ClaimRecord[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? null : decodePageCursor(query.cursor);
  const rows = await db.claim.findMany({
    where: { storeId: scope.store.id, ...(query.status === undefined ? {} : { status: query.status }), ...afterCursor(after, 'asc') },
    include: claimInclude,
    orderBy: [{ createdOn: 'asc' }, { id: 'asc' }],
    take: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit);
  return { claims: await withPhotos(db, page), nextCursor };
}

/** A claim's status changes, oldest first, each with who made it. */
export async function claimHistory(db: Database, scope: Scope, claim: Pick<ClaimRecord, 'id'>) {
  return withActorLabels(db, scope.store.id, await db.claimStatusChange.findMany({ where: { claimId: claim.id, claim: { storeId: scope.store.id } }, orderBy: { id: 'asc' } }));
}

/** The store a claim belongs to, for the operator who names a claim by its id alone. */
export async function findClaimStore(db: Database, id: string): Promise<StoreContext> {
  const row = isUuid(id) ? await db.claim.findUnique({ where: { id }, select: { store: true } }) : null;
  if (row === null) throw claimNotFound(id);
  return toStoreContext(row.store);
}
