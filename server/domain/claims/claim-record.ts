// A claim as the domain keeps it, and the rules every claim operation shares: which statuses are
// open, which may follow which, where a claim comes from, and how an open one blocks cancelling.
// Claims are filed on a protected, uncancelled order, optionally about one of its shipments and
// some of its line items; a claim is open until denied, paid or closed.
import type { z } from 'zod';
import type { CLAIM_CHANNELS, CLAIM_STATUSES, ClaimRequest } from '../../../contract/claims.js';
import type { Database, Prisma, Transaction } from '../../db/client.js';
import type { Actor } from '../access/index.js';
import { AppError, assertUniqueIds } from '../kernel/index.js';

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

export const claimInclude = {
  order: { select: { sourceOrderId: true } },
  shipment: { select: { trackingNumber: true } },
} satisfies Prisma.ClaimInclude;
export type StoredClaim = Prisma.ClaimGetPayload<{ include: typeof claimInclude }>;

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
export async function withPhotos(db: Database | Transaction, rows: StoredClaim[]): Promise<ClaimRecord[]> {
  const photos = await photosOfClaims(db, rows.map((row) => row.id));
  return rows.map((row) => toClaimRecord(row, photos.get(row.id) ?? []));
}

export async function withPhotosOne(db: Database | Transaction, row: StoredClaim): Promise<ClaimRecord> {
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

/** The items of a claim as stored and answered. */
export const claimItems = (input: ClaimInput) => (input.items ?? []).map((item) => ({ source_id: item.source_id, quantity: item.quantity }));

export const claimNotFound = (id: string) => new AppError('not_found', `No claim with id "${id}" in this store.`);

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

