// Claims (README, Concepts, "Claims"): filed on a protected, uncancelled order, optionally about one of its
// shipments and some of its line items. A claim is open until denied, paid or closed, and while it
// is open the order and the shipment it names cannot be cancelled.
import type { z } from 'zod';
import type { CLAIM_CHANNELS, CLAIM_STATUSES, ClaimRequest } from '../../../contract/claims.js';
import type { FieldError } from '../../../contract/errors.js';
import { isUniqueViolation, type Database, type Prisma, type Transaction } from '../../db/client.js';
import type { StoreScope } from '../access/actor.js';
import { actorColumns, type Actor } from '../access/actor.js';
import { toClaimResponse } from './claim-payload.js';
import { recordAudit } from '../access/audit.js';
import { emitEvent, newEvent } from '../events/events.js';
import { appliedAt, type Clock } from '../kernel/clock.js';
import { AppError } from '../kernel/errors.js';
import { lockExistingOrderRow, orderNotFound } from '../orders/order-lock.js';
import { assertUniqueIds, isUuid } from '../kernel/ids.js';
import { afterCursor, decodePageCursor, pageOf } from '../kernel/page-cursor.js';
import { withActorLabels } from '../access/actor-labels.js';
import { claimWindow } from './claim-windows.js';
import { photosOfClaims, type ClaimPhotoRecord } from './claim-photos.js';

export type ClaimInput = z.output<typeof ClaimRequest>;
/** The statuses, as the contract names them. */
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type ClaimChannel = (typeof CLAIM_CHANNELS)[number];
export type ClaimReason = ClaimInput['reason'];

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
  channel: ClaimChannel;
  photos: ClaimPhotoRecord[];
  createdOn: Date;
  updatedOn: Date;
  resolvedOn: Date | null;
}

const claimInclude = {
  order: { select: { sourceOrderId: true } },
  shipment: { select: { trackingNumber: true } },
} satisfies Prisma.ClaimInclude;
type StoredClaim = Prisma.ClaimGetPayload<{ include: typeof claimInclude }>;

function toClaimRecord(row: StoredClaim, photos: ClaimPhotoRecord[]): ClaimRecord {
  return {
    id: row.id,
    storeId: row.storeId,
    sourceOrderId: row.order.sourceOrderId,
    trackingNumber: row.shipment?.trackingNumber ?? null,
    reason: row.reason,
    description: row.description,
    items: row.items as ClaimRecord['items'],
    status: row.status,
    channel: row.channel,
    photos,
    createdOn: row.createdOn,
    updatedOn: row.updatedOn,
    resolvedOn: row.resolvedOn,
  };
}

/**
 * Claims with their photos. The photos are read by a statement of their own, after the claims: a
 * to-many include would have Prisma send two queries at once, which a transaction's one
 * connection cannot take (pg refuses a query while one runs, from pg 9).
 */
async function withPhotos(db: Database | Transaction, rows: StoredClaim[]): Promise<ClaimRecord[]> {
  const photos = await photosOfClaims(db, rows.map((row) => row.id));
  return rows.map((row) => toClaimRecord(row, photos.get(row.id) ?? []));
}

async function withPhotosOne(db: Database | Transaction, row: StoredClaim): Promise<ClaimRecord> {
  const [claim] = await withPhotos(db, [row]);
  return claim as ClaimRecord;
}

/** Where a claim comes from, by who files it: only these three front doors file claims. */
export function claimChannelOf(actor: Actor): ClaimChannel {
  switch (actor.kind) {
    case 'api_key':
      return 'api';
    case 'shopper':
      return 'shopper_page';
    case 'operator':
      return 'cli';
    case 'platform':
    case 'console_user':
    case 'system':
      throw new AppError('forbidden', 'Claims are filed through the API, the claim page or the operator\'s CLI.');
  }
}

/** The store is told which claim; a shopper sees theirs on the order page. */
const openClaimOnShipment = (claimId: string, channel: ClaimChannel) =>
  new AppError(
    'conflict',
    channel === 'shopper_page'
      ? 'This parcel already has an open claim: follow it from your order, or file again once it is resolved.'
      : `This parcel already has an open claim (${claimId}); follow that one, or wait until it is resolved.`,
  );

/** The items of a claim as stored and answered. */
export const claimItems = (input: ClaimInput) => (input.items ?? []).map((item) => ({ source_id: item.source_id, quantity: item.quantity }));

const claimNotFound = (id: string) => new AppError('not_found', `No claim with id "${id}" in this store.`);

/** The same rule for a statement of our own: whether the order `orderIdSql` names has an open claim. */
export const openClaimExistsSql = (orderIdSql: string) =>
  `EXISTS (SELECT 1 FROM claims c WHERE c.order_id = ${orderIdSql} AND c.status IN (${OPEN_CLAIM_STATUSES.map((status) => `'${status}'`).join(', ')}))`;

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

/** What only a shopper's filing carries: the photos uploaded for it. */
export interface ClaimAttachments {
  photoIds?: readonly string[];
}

/**
 * Files a claim: the one function behind the API, the claim page and the CLI. A shopper is also
 * held to the store's claim windows, must name a parcel, and must show a damaged one.
 */
export async function createClaim(db: Database, scope: StoreScope, input: ClaimInput, now: Date, attachments: ClaimAttachments = {}): Promise<ClaimRecord> {
  assertUniqueItems(input.items);
  const items = claimItems(input);
  const channel = claimChannelOf(scope.actor);
  const photoIds = [...new Set(attachments.photoIds ?? [])];

  try {
    return await db.$transaction(async (tx) => {
      // The order row lock serialises this with order and shipment cancellation, and with a second
      // filing on the same parcel.
      const orderId = await lockExistingOrderRow(tx, scope.store.id, input.source_order_id);
      const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, include: { lineItems: true } });
      if (order.status === 'cancelled') throw new AppError('conflict', 'The order is cancelled; no claim can be filed on it.');
      if (!order.insuranceSelected) throw new AppError('conflict', 'The order was not protected; no claim can be filed on it.');

      const errors: FieldError[] = [];
      let shipmentId: string | null = null;
      if (input.tracking_number !== undefined) {
        const shipment = await tx.shipment.findFirst({
          where: { orderId, trackingNumber: input.tracking_number, cancelledOn: null },
          include: { checkpoints: { select: { status: true, occurredAt: true } } },
        });
        if (shipment) {
          shipmentId = shipment.id;
          const open = await tx.claim.findFirst({ where: { shipmentId, status: { in: [...OPEN_CLAIM_STATUSES] } }, select: { id: true } });
          if (open) throw openClaimOnShipment(open.id, channel);
          if (channel === 'shopper_page') await assertWindowOpen(tx, scope.store.id, input.reason, shipment, now);
        } else errors.push({ field: 'tracking_number', message: 'is not an active shipment of this order' });
      } else if (channel === 'shopper_page') errors.push({ field: 'tracking_number', message: 'is required: choose the parcel' });
      const ordered = new Map(order.lineItems.map((line) => [line.sourceId, line.quantity]));
      items.forEach((item, index) => {
        const quantity = ordered.get(item.source_id);
        if (quantity === undefined) errors.push({ field: `items[${index}].source_id`, message: 'is not a line item of this order' });
        else if (item.quantity > quantity) errors.push({ field: `items[${index}].quantity`, message: `is more than the ${quantity} ordered` });
      });
      if (channel === 'shopper_page' && input.reason === 'damaged' && photoIds.length === 0) {
        errors.push({ field: 'photo_ids', message: 'must have at least one photo of the damage' });
      }
      if (errors.length > 0) throw new AppError('invalid_request', 'The claim does not match the order.', errors);

      const created = await tx.claim.create({
        data: {
          storeId: scope.store.id,
          orderId,
          shipmentId,
          reason: input.reason,
          description: input.description ?? null,
          items,
          status: 'open',
          channel,
          createdOn: now,
          updatedOn: now,
          history: { create: { fromStatus: null, toStatus: 'open', createdAt: now, ...actorColumns(scope.actor) } },
        },
        select: { id: true },
      });
      if (photoIds.length > 0) {
        // Only photos uploaded for this order and not yet in a claim: anything else is refused.
        const taken = await tx.claimPhoto.updateMany({ where: { id: { in: photoIds }, orderId, claimId: null }, data: { claimId: created.id } });
        if (taken.count !== photoIds.length) {
          throw new AppError('invalid_request', 'The claim names photos it cannot use.', [
            { field: 'photo_ids', message: 'must name photos uploaded for this order and not already in a claim' },
          ]);
        }
      }
      const claim = await withPhotosOne(tx, await tx.claim.findUniqueOrThrow({ where: { id: created.id }, include: claimInclude }));
      await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'claim.filed', subject: { type: 'claim', id: claim.id }, at: now });
      await emitEvent(tx, scope.actor, scope.store.id, newEvent('claim.created', toClaimResponse(claim)), now);
      return claim;
    });
  } catch (error) {
    // The partial unique index on open claims per parcel: a filing that raced past the check.
    if (isUniqueViolation(error)) throw new AppError('conflict', 'This parcel already has an open claim; follow that one, or wait until it is resolved.');
    throw error;
  }
}

/** A shopper files within the store's windows (claim-windows.ts); the 409 says why not. */
async function assertWindowOpen(
  tx: Transaction,
  storeId: string,
  reason: ClaimReason,
  parcel: Parameters<typeof claimWindow>[1],
  now: Date,
): Promise<void> {
  const settings = await tx.store.findUniqueOrThrow({ where: { id: storeId }, select: { claimLostAfterDays: true, claimAfterDeliveryDays: true } });
  const window = claimWindow(reason, parcel, { lostAfterDays: settings.claimLostAfterDays, afterDeliveryDays: settings.claimAfterDeliveryDays }, now);
  if (!window.open) throw new AppError('conflict', window.explanation);
}

export async function getClaim(db: Database, scope: StoreScope, id: string): Promise<ClaimRecord> {
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

export async function listClaims(db: Database, scope: StoreScope, sourceOrderId: string): Promise<ClaimRecord[]> {
  const notFound = orderNotFound(sourceOrderId);
  const order = await db.order.findUnique({
    where: { storeId_sourceOrderId: { storeId: scope.store.id, sourceOrderId } },
    select: { id: true },
  });
  if (!order) throw notFound;
  const rows = await db.claim.findMany({ where: { orderId: order.id }, include: claimInclude, orderBy: [{ createdOn: 'asc' }, { id: 'asc' }] });
  return withPhotos(db, rows);
}

/**
 * Moves a claim to a new status (the operator's CLI, or a store's console user: `storeId` then
 * confines it to that store's claims). Setting the current status again is a no-op.
 */
export async function setClaimStatus(db: Database, actor: Actor, id: string, status: ClaimStatus, clock: Clock, note?: string, storeId?: string): Promise<ClaimRecord> {
  if (!isUuid(id)) throw new AppError('not_found', `No claim with id "${id}".`);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ status: ClaimStatus; updated_on: Date }>>`
      SELECT status, updated_on FROM claims WHERE id = ${id}::uuid AND (${storeId ?? null}::uuid IS NULL OR store_id = ${storeId ?? null}::uuid) FOR UPDATE`;
    const current = locked[0]?.status;
    if (current === undefined) throw new AppError('not_found', `No claim with id "${id}".`);
    // Dated once the claim's lock is held, so its history and events follow the order of decisions.
    const now = appliedAt(clock, locked[0]?.updated_on ?? new Date(0));
    if (current === status) return withPhotosOne(tx, await tx.claim.findUniqueOrThrow({ where: { id }, include: claimInclude }));
    if (!CLAIM_TRANSITIONS[current].includes(status)) {
      const allowed = CLAIM_TRANSITIONS[current];
      throw new AppError(
        'conflict',
        `A ${current} claim cannot become ${status}; ${allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'it is final'}.`,
      );
    }
    const resolved = !OPEN_CLAIM_STATUSES.includes(status);
    const claim = await withPhotosOne(
      tx,
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
  return { claims: await withPhotos(db, page), nextCursor };
}

/** A claim's status changes, oldest first, each with who made it. */
export async function claimHistory(db: Database, claim: Pick<ClaimRecord, 'id' | 'storeId'>) {
  return withActorLabels(db, claim.storeId, await db.claimStatusChange.findMany({ where: { claimId: claim.id }, orderBy: { id: 'asc' } }));
}
