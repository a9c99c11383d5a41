// A claim as the domain keeps it, and the rules every claim operation shares: which statuses are
// open, which may follow which, where a claim comes from, and how an open one blocks cancelling.
// Claims are filed on a protected, uncancelled order, optionally about one of its shipments and
// some of its line items; a claim is open until denied, paid or closed.
import type { z } from 'zod';
import type { CLAIM_ACTOR_KINDS, CLAIM_CHANNELS, CLAIM_STATUSES, ClaimRequest, RESOLUTION_TYPES } from '../../../contract/claims.js';
import type { Database, Prisma, Transaction } from '../../db/client.js';
import type { Actor } from '../access/index.js';
import { AppError, assertUniqueIds } from '../kernel/index.js';
import { evidenceOfClaims, type ClaimEvidence } from './claim-evidence.js';
import { photosOfClaims, type ClaimPhotoRecord } from './claim-photos.js';

export type ClaimInput = z.output<typeof ClaimRequest>;
/** The statuses, as the contract names them. */
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type ClaimChannel = (typeof CLAIM_CHANNELS)[number];
export type ClaimReason = ClaimInput['reason'];
export type ResolutionType = (typeof RESOLUTION_TYPES)[number];

export interface ClaimResolution {
  type: ResolutionType;
  amountCents: number;
  note: string | null;
}

export interface ClaimPayout {
  amountCents: number;
  paidOn: Date;
  reference: string | null;
}

/** A status change as the claim answers it: who made it, and for a rule, which and what it read. */
export interface ClaimHistoryRecord {
  fromStatus: ClaimStatus | null;
  toStatus: ClaimStatus;
  note: string | null;
  changedOn: Date;
  by: { kind: (typeof CLAIM_ACTOR_KINDS)[number]; id: string | null; rule: { name: string; version: number; evidence: unknown } | null } | null;
}

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
  reference: string;
  amountClaimedCents: number;
  resolution: ClaimResolution | null;
  payout: ClaimPayout | null;
  evidence: ClaimEvidence;
  history: ClaimHistoryRecord[];
}

export const claimInclude = {
  order: { select: { sourceOrderId: true } },
  shipment: { select: { trackingNumber: true } },
} satisfies Prisma.ClaimInclude;
export type StoredClaim = Prisma.ClaimGetPayload<{ include: typeof claimInclude }>;

interface ClaimDetails {
  photos: ClaimPhotoRecord[];
  evidence: ClaimEvidence;
  history: ClaimHistoryRecord[];
}

function toClaimRecord(row: StoredClaim, details: ClaimDetails): ClaimRecord {
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
    photos: details.photos,
    createdOn: row.createdOn,
    updatedOn: row.updatedOn,
    resolvedOn: row.resolvedOn,
    reference: row.reference,
    amountClaimedCents: Number(row.amountClaimedCents),
    resolution:
      row.resolutionType === null || row.resolutionAmountCents === null
        ? null
        : { type: row.resolutionType as ResolutionType, amountCents: Number(row.resolutionAmountCents), note: row.resolutionNote },
    payout:
      row.payoutAmountCents === null || row.payoutPaidOn === null ? null : { amountCents: Number(row.payoutAmountCents), paidOn: row.payoutPaidOn, reference: row.payoutReference },
    evidence: details.evidence,
    history: details.history,
  };
}

type StatusChangeRow = Prisma.ClaimStatusChangeGetPayload<object>;

function toHistoryRecord(change: StatusChangeRow): ClaimHistoryRecord {
  const by: ClaimHistoryRecord['by'] =
    change.ruleName !== null && change.ruleVersion !== null
      ? { kind: 'rule', id: null, rule: { name: change.ruleName, version: change.ruleVersion, evidence: change.evidence } }
      : change.actorKind === null
        ? null
        : { kind: change.actorKind, id: change.actorId, rule: null };
  return { fromStatus: change.fromStatus, toStatus: change.toStatus, note: change.note, changedOn: change.createdAt, by };
}

/**
 * Claims with their photos, history and evidence as of `now`. Each is read by a statement of its
 * own, after the claims: a to-many include would have Prisma send two queries at once, which a
 * transaction's one connection cannot take (pg refuses a query while one runs, from pg 9).
 */
export async function withDetails(db: Database | Transaction, rows: StoredClaim[], now: Date): Promise<ClaimRecord[]> {
  const ids = rows.map((row) => row.id);
  // The claims' stores (one, but for the operator's runs over all): every read below names them.
  const storeIds = [...new Set(rows.map((row) => row.storeId))];
  const photos = await photosOfClaims(db, storeIds, ids);
  const changes = ids.length === 0 ? [] : await db.claimStatusChange.findMany({ where: { storeId: { in: storeIds }, claimId: { in: ids } }, orderBy: { id: 'asc' } });
  const evidence = await evidenceOfClaims(db, rows.map((row) => ({ id: row.id, storeId: row.storeId, orderId: row.orderId, shipmentId: row.shipmentId, filedWithinWindow: row.filedWithinWindow })), now);
  return rows.map((row) =>
    toClaimRecord(row, {
      photos: photos.get(row.id) ?? [],
      history: changes.filter((change) => change.claimId === row.id).map(toHistoryRecord),
      evidence: evidence.get(row.id) as ClaimEvidence,
    }),
  );
}

export async function withDetailsOne(db: Database | Transaction, row: StoredClaim, now: Date): Promise<ClaimRecord> {
  const [claim] = await withDetails(db, [row], now);
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
export const openClaimExistsSql = (orderAlias: string) =>
  `EXISTS (SELECT 1 FROM claims c WHERE c.order_id = ${orderAlias}.id AND c.store_id = ${orderAlias}.store_id AND c.status IN (${OPEN_CLAIM_STATUSES.map((status) => `'${status}'`).join(', ')}))`;

/** An open claim on the order as a whole, or on the given shipment of it, blocks cancelling. */
export async function hasOpenClaim(tx: Transaction, target: { storeId: string; orderId: string; shipmentId?: string }): Promise<boolean> {
  const shipmentScope = target.shipmentId === undefined ? {} : { OR: [{ shipmentId: target.shipmentId }, { shipmentId: null }] };
  const open = await tx.claim.findFirst({
    where: { storeId: target.storeId, orderId: target.orderId, status: { in: [...OPEN_CLAIM_STATUSES] }, ...shipmentScope },
    select: { id: true },
  });
  return open !== null;
}

/** A claim names each line item once: 422 naming every repeat. */
export function assertUniqueItems(items: ClaimInput['items']): void {
  assertUniqueIds(items, (item) => item.source_id, 'items', 'Claim items must name each line item once.');
}

