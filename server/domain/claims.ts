// Claims (README, Concepts, "Claims"): filed on a protected, uncancelled order, optionally about one of its
// shipments and some of its line items. A claim is open until denied, paid or closed, and while it
// is open the order and the shipment it names cannot be cancelled.
import type { z } from 'zod';
import type { CLAIM_STATUSES, ClaimRequest } from '../../contract/claims.js';
import type { FieldError } from '../../contract/errors.js';
import type { Database, Prisma, Transaction } from '../db/client.js';
import type { StoreScope } from './actor.js';
import { actorColumns, type Actor } from './actor.js';
import { toClaimResponse } from '../wire/claims.js';
import { recordAudit } from './audit.js';
import { emitEvent, newEvent } from './events.js';
import { AppError } from './errors.js';
import { lockExistingOrderRow, orderNotFound } from './order-lock.js';
import { assertUniqueIds, isUuid } from './ids.js';
import { afterCursor, decodePageCursor, pageOf } from './page-cursor.js';
import { withActorLabels } from './actor-labels.js';

export type ClaimInput = z.output<typeof ClaimRequest>;
/** The statuses, as the contract names them. */
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
type ClaimReason = ClaimInput['reason'];

/** Statuses in which a claim still blocks cancellations. */
export const OPEN_CLAIM_STATUSES: readonly ClaimStatus[] = ['open', 'in_review', 'approved'];

/** Which status may follow which. denied and closed are final; a paid claim can only be closed. */
export const CLAIM_TRANSITIONS: Readonly<Record<ClaimStatus, readonly ClaimStatus[]>> = {
  open: ['in_review', 'approved', 'denied', 'closed'],
  in_review: ['approved', 'denied', 'closed'],
  approved: ['paid', 'closed'],
  paid: ['closed'],
  denied: [],
  closed: [],
};

export interface ClaimRecord {
  id: string;
  storeId: string;
  sourceOrderId: string;
  trackingNumber: string | null;
  reason: ClaimReason;
  description: string | null;
  items: Array<{ source_id: string; quantity: number }>;
  status: ClaimStatus;
  createdOn: Date;
  updatedOn: Date;
  resolvedOn: Date | null;
}

const claimInclude = {
  order: { select: { sourceOrderId: true } },
  shipment: { select: { trackingNumber: true } },
} satisfies Prisma.ClaimInclude;
type StoredClaim = Prisma.ClaimGetPayload<{ include: typeof claimInclude }>;

function toClaimRecord(row: StoredClaim): ClaimRecord {
  return {
    id: row.id,
    storeId: row.storeId,
    sourceOrderId: row.order.sourceOrderId,
    trackingNumber: row.shipment?.trackingNumber ?? null,
    reason: row.reason,
    description: row.description,
    items: row.items as ClaimRecord['items'],
    status: row.status,
    createdOn: row.createdOn,
    updatedOn: row.updatedOn,
    resolvedOn: row.resolvedOn,
  };
}

/** The items of a claim as stored and answered. */
export const claimItems = (input: ClaimInput) => (input.items ?? []).map((item) => ({ source_id: item.source_id, quantity: item.quantity }));

const claimNotFound = (id: string) => new AppError('not_found', `No claim with id "${id}" in this store.`);

/** An open claim on the order as a whole, or on the given shipment of it, blocks cancelling. */
export async function hasOpenClaim(tx: Transaction, target: { orderId: string; shipmentId?: string }): Promise<boolean> {
  const shipmentScope = target.shipmentId === undefined ? {} : { OR: [{ shipmentId: target.shipmentId }, { shipmentId: null }] };
  const open = await tx.claim.findFirst({
    where: { orderId: target.orderId, status: { in: [...OPEN_CLAIM_STATUSES] }, ...shipmentScope },
    select: { id: true },
  });
  return open !== null;
}

/** A claim names each line item once: 422 naming every repeat. */
export function assertUniqueItems(items: ClaimInput['items']): void {
  assertUniqueIds(items, (item) => item.source_id, 'items', 'Claim items must name each line item once.');
}

export async function createClaim(db: Database, scope: StoreScope, input: ClaimInput, now: Date): Promise<ClaimRecord> {
  assertUniqueItems(input.items);
  const items = claimItems(input);

  return db.$transaction(async (tx) => {
    // The order row lock serialises this with order and shipment cancellation.
    const orderId = await lockExistingOrderRow(tx, scope.store.id, input.source_order_id);
    const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, include: { lineItems: true } });
    if (order.status === 'cancelled') throw new AppError('conflict', 'The order is cancelled; no claim can be filed on it.');
    if (!order.insuranceSelected) throw new AppError('conflict', 'The order was not protected; no claim can be filed on it.');

    const errors: FieldError[] = [];
    let shipmentId: string | null = null;
    if (input.tracking_number !== undefined) {
      const shipment = await tx.shipment.findFirst({
        where: { orderId, trackingNumber: input.tracking_number, cancelledOn: null },
        select: { id: true },
      });
      if (shipment) shipmentId = shipment.id;
      else errors.push({ field: 'tracking_number', message: 'is not an active shipment of this order' });
    }
    const ordered = new Map(order.lineItems.map((line) => [line.sourceId, line.quantity]));
    items.forEach((item, index) => {
      const quantity = ordered.get(item.source_id);
      if (quantity === undefined) errors.push({ field: `items[${index}].source_id`, message: 'is not a line item of this order' });
      else if (item.quantity > quantity) errors.push({ field: `items[${index}].quantity`, message: `is more than the ${quantity} ordered` });
    });
    if (errors.length > 0) throw new AppError('invalid_request', 'The claim does not match the order.', errors);

    const row = await tx.claim.create({
      data: {
        storeId: scope.store.id,
        orderId,
        shipmentId,
        reason: input.reason,
        description: input.description ?? null,
        items,
        status: 'open',
        createdOn: now,
        updatedOn: now,
        history: { create: { fromStatus: null, toStatus: 'open', createdAt: now, ...actorColumns(scope.actor) } },
      },
      include: claimInclude,
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'claim.filed', subject: { type: 'claim', id: row.id }, at: now });
    const claim = toClaimRecord(row);
    await emitEvent(tx, scope.actor, scope.store.id, newEvent('claim.created', toClaimResponse(claim)), now);
    return claim;
  });
}

export async function getClaim(db: Database, scope: StoreScope, id: string): Promise<ClaimRecord> {
  if (!isUuid(id)) throw claimNotFound(id);
  const row = await db.claim.findFirst({ where: { id, storeId: scope.store.id }, include: claimInclude });
  if (!row) throw claimNotFound(id);
  return toClaimRecord(row);
}

export async function listClaims(db: Database, scope: StoreScope, sourceOrderId: string): Promise<ClaimRecord[]> {
  const notFound = orderNotFound(sourceOrderId);
  const order = await db.order.findUnique({
    where: { storeId_sourceOrderId: { storeId: scope.store.id, sourceOrderId } },
    select: { id: true },
  });
  if (!order) throw notFound;
  const rows = await db.claim.findMany({ where: { orderId: order.id }, include: claimInclude, orderBy: [{ createdOn: 'asc' }, { id: 'asc' }] });
  return rows.map(toClaimRecord);
}

/**
 * Moves a claim to a new status (the operator's CLI, or a store's console user: `storeId` then
 * confines it to that store's claims). Setting the current status again is a no-op.
 */
export async function setClaimStatus(db: Database, actor: Actor, id: string, status: ClaimStatus, now: Date, note?: string, storeId?: string): Promise<ClaimRecord> {
  if (!isUuid(id)) throw new AppError('not_found', `No claim with id "${id}".`);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ status: ClaimStatus }>>`
      SELECT status FROM claims WHERE id = ${id}::uuid AND (${storeId ?? null}::uuid IS NULL OR store_id = ${storeId ?? null}::uuid) FOR UPDATE`;
    const current = locked[0]?.status;
    if (current === undefined) throw new AppError('not_found', `No claim with id "${id}".`);
    if (current === status) return toClaimRecord(await tx.claim.findUniqueOrThrow({ where: { id }, include: claimInclude }));
    if (!CLAIM_TRANSITIONS[current].includes(status)) {
      const allowed = CLAIM_TRANSITIONS[current];
      throw new AppError(
        'conflict',
        `A ${current} claim cannot become ${status}; ${allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'it is final'}.`,
      );
    }
    const resolved = !OPEN_CLAIM_STATUSES.includes(status);
    const claim = toClaimRecord(
      await tx.claim.update({
        where: { id },
        data: { status, updatedOn: now, ...(resolved ? { resolvedOn: now } : {}) },
        include: claimInclude,
      }),
    );
    await tx.claimStatusChange.create({ data: { claimId: id, fromStatus: current, toStatus: status, note: note ?? null, createdAt: now, ...actorColumns(actor) } });
    const details = { from: current, to: status };
    await recordAudit(tx, actor, { storeId: claim.storeId, action: 'claim.status_changed', subject: { type: 'claim', id }, details, at: now });
    const statusChange = { from_status: current, to_status: status, note: note ?? null, changed_on: now.toISOString() };
    await emitEvent(tx, actor, claim.storeId, newEvent('claim.status_changed', { ...toClaimResponse(claim), status_change: statusChange }), now);
    return claim;
  });
}

/** A store's claims, oldest first (the console's queue), of one status or all, a page at a time. */
export async function listStoreClaims(
  db: Database,
  storeId: string,
  query: { status?: ClaimStatus; cursor?: string },
  limit: number,
): Promise<{ claims: ClaimRecord[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? null : decodePageCursor(query.cursor);
  const rows = await db.claim.findMany({
    where: { storeId, ...(query.status === undefined ? {} : { status: query.status }), ...afterCursor(after, 'asc') },
    include: claimInclude,
    orderBy: [{ createdOn: 'asc' }, { id: 'asc' }],
    take: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit);
  return { claims: page.map(toClaimRecord), nextCursor };
}

/** A claim's status changes, oldest first, each with who made it. */
export async function claimHistory(db: Database, claim: Pick<ClaimRecord, 'id' | 'storeId'>) {
  return withActorLabels(db, claim.storeId, await db.claimStatusChange.findMany({ where: { claimId: claim.id }, orderBy: { id: 'asc' } }));
}
