// Deciding a claim (docs/claims.md): moving it to its next status, with the note that says why, and
// what approving and paying carry: the resolution (refund, reorder or store credit, and its amount)
// and the payout. The one function behind the API, the console, the CLI and the claim rules; its
// history row, audit row and claim.status_changed event are written in the same transaction.
import type { ClaimEvidenceValues } from '../../../contract/claims.js';
import { centsToMajorString } from '../../../contract/money.js';
import type { FieldError } from '../../../contract/errors.js';
import { storeRowKey, type Database, type Transaction } from '../../db/client.js';
import { actorColumns, recordAudit, type Actor, type Scope } from '../access/index.js';
import { emitEvent, newEvent } from '../events/index.js';
import { AppError, appliedAt, type Clock, isUuid } from '../kernel/index.js';
import { toClaimResponse } from './claim-payload.js';
import {
  CLAIM_TRANSITIONS,
  claimInclude,
  claimNotFound,
  OPEN_CLAIM_STATUSES,
  withDetailsOne,
  type ClaimRecord,
  type ClaimStatus,
  type ResolutionType,
} from './claim-record.js';

export interface ClaimDecision {
  status: ClaimStatus;
  note?: string | undefined;
  /** To approve: how it is made good; the amount is amount_claimed unless given. */
  resolution?: { type: ResolutionType; amountCents?: number | undefined; note?: string | undefined } | undefined;
  /** To mark paid: what was paid out, when (now unless given) and the merchant's reference. */
  payout?: { amountCents: number; paidOn?: Date | undefined; reference?: string | undefined } | undefined;
}

/** A rule's decision: its history row names the rule, the rule set's version and the evidence it read. */
export interface RuleDecision {
  ruleName: string;
  ruleVersion: number;
  evidence: ClaimEvidenceValues;
}

/** The actor of a rule's decision in the audit log: the rules themselves, not whoever filed. */
export const CLAIM_RULES_ACTOR: Actor = { kind: 'system', job: 'claim-rules' };

/** Resolutions that give money back: at most what the claim is worth. */
const CAPPED_RESOLUTIONS: readonly ResolutionType[] = ['refund', 'store_credit'];

/**
 * Moves one of the store's claims to a new status (a person in the console, a key over the API, the
 * operator's CLI once it found the claim's store). The claim's row lock orders decisions made at
 * once: the first applies, and one that no longer fits the status it finds (the same status again
 * included) is 409, so the history shows one decision.
 */
export async function decideClaim(db: Database, scope: Scope, id: string, decision: ClaimDecision, clock: Clock): Promise<ClaimRecord> {
  if (!isUuid(id)) throw claimNotFound(id);
  return db.$transaction((tx) => decideClaimIn(tx, scope, id, decision, clock));
}

/** The decision inside a transaction the caller holds (a filing's, for a rule deciding at once). */
export async function decideClaimIn(tx: Transaction, scope: Scope, id: string, decision: ClaimDecision, clock: Clock, rule?: RuleDecision): Promise<ClaimRecord> {
  const { status } = decision;
  const locked = await tx.$queryRaw<Array<{ status: ClaimStatus; updated_on: Date; amount_claimed_cents: bigint; resolution_amount_cents: bigint | null }>>`
    SELECT status, updated_on, amount_claimed_cents, resolution_amount_cents
      FROM claims WHERE id = ${id}::uuid AND store_id = ${scope.store.id}::uuid FOR UPDATE`;
  const row = locked[0];
  if (row === undefined) throw claimNotFound(id);
  const current = row.status;
  // Dated once the claim's lock is held, so its history and events follow the order of decisions.
  const now = appliedAt(clock, row.updated_on);
  // A rule decides only a claim still open; whoever decided first (a person, another rule) stands.
  if (rule !== undefined && current !== 'open') throw new AppError('conflict', `The claim is ${current} already; the rule "${rule.ruleName}" does not decide it.`);
  if (current === status) throw new AppError('conflict', `The claim is ${current} already: someone decided it first.`);
  if (!CLAIM_TRANSITIONS[current].includes(status)) {
    const allowed = CLAIM_TRANSITIONS[current];
    throw new AppError('conflict', `The claim is ${current}: it cannot become ${status}; ${allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'it is final'}.`);
  }
  const amountClaimed = Number(row.amount_claimed_cents);
  const resolution = checkedResolution(decision, amountClaimed);
  const payout = checkedPayout(decision, row.resolution_amount_cents === null ? null : Number(row.resolution_amount_cents), now);

  const resolved = !OPEN_CLAIM_STATUSES.includes(status);
  const actor = rule === undefined ? scope.actor : CLAIM_RULES_ACTOR;
  await tx.claim.update({
    where: storeRowKey(scope.store.id, id),
    data: {
      status,
      updatedOn: now,
      ...(resolved ? { resolvedOn: now } : {}),
      ...(resolution === null ? {} : { resolutionType: resolution.type, resolutionAmountCents: resolution.amountCents, resolutionNote: resolution.note }),
      ...(payout === null ? {} : { payoutAmountCents: payout.amountCents, payoutPaidOn: payout.paidOn, payoutReference: payout.reference }),
    },
  });
  await tx.claimStatusChange.create({
    data: {
      claimId: id,
      storeId: scope.store.id,
      fromStatus: current,
      toStatus: status,
      note: decision.note ?? null,
      createdAt: now,
      ...actorColumns(actor),
      ...(rule === undefined ? {} : { ruleName: rule.ruleName, ruleVersion: rule.ruleVersion, evidence: rule.evidence }),
    },
  });
  const claim = await withDetailsOne(tx, await tx.claim.findUniqueOrThrow({ where: storeRowKey(scope.store.id, id), include: claimInclude }), now);
  const details = { from: current, to: status, ...(rule === undefined ? {} : { rule: rule.ruleName, rule_version: rule.ruleVersion }) };
  await recordAudit(tx, actor, { storeId: claim.storeId, action: 'claim.status_changed', subject: { type: 'claim', id }, details, at: now });
  const statusChange = { from_status: current, to_status: status, note: decision.note ?? null, changed_on: now.toISOString() };
  await emitEvent(tx, actor, claim.storeId, newEvent('claim.status_changed', { ...toClaimResponse(claim), status_change: statusChange }), now);
  return claim;
}

/** Approving needs a resolution, and only approving takes one; money back is at most what is claimed. */
function checkedResolution(decision: ClaimDecision, amountClaimedCents: number): { type: ResolutionType; amountCents: number; note: string | null } | null {
  const { resolution } = decision;
  if (decision.status !== 'approved') {
    if (resolution !== undefined) throw new AppError('invalid_request', 'Only an approval takes a resolution.', [{ field: 'resolution', message: 'is only for status approved' }]);
    return null;
  }
  if (resolution === undefined) {
    throw new AppError('invalid_request', 'An approval says how the claim is made good.', [{ field: 'resolution', message: 'is required to approve: refund, reorder or store_credit' }]);
  }
  const amountCents = resolution.amountCents ?? amountClaimedCents;
  if (CAPPED_RESOLUTIONS.includes(resolution.type) && amountCents > amountClaimedCents) {
    throw new AppError('unprocessable', 'The resolution is worth more than the claim.', [
      { field: 'resolution.amount', message: `must be at most amount_claimed (${centsToMajorString(amountClaimedCents)}) for a ${resolution.type}` },
    ]);
  }
  return { type: resolution.type, amountCents, note: resolution.note ?? null };
}

/** Marking paid needs a payout, and only that takes one; it is at most the resolution's amount. */
function checkedPayout(decision: ClaimDecision, resolutionCents: number | null, now: Date): { amountCents: number; paidOn: Date; reference: string | null } | null {
  const { payout } = decision;
  const errors: FieldError[] = [];
  if (decision.status !== 'paid') {
    if (payout !== undefined) throw new AppError('invalid_request', 'Only marking paid takes a payout.', [{ field: 'payout', message: 'is only for status paid' }]);
    return null;
  }
  if (payout === undefined) throw new AppError('invalid_request', 'Marking a claim paid says what was paid.', [{ field: 'payout', message: 'is required to mark paid' }]);
  if (resolutionCents !== null && payout.amountCents > resolutionCents) {
    errors.push({ field: 'payout.amount', message: `must be at most the resolution's amount (${centsToMajorString(resolutionCents)})` });
  }
  const paidOn = payout.paidOn ?? now;
  if (paidOn.getTime() > now.getTime() + 60_000) errors.push({ field: 'payout.paid_on', message: 'must not be in the future' });
  if (errors.length > 0) throw new AppError('unprocessable', 'The payout does not fit the claim.', errors);
  return { amountCents: payout.amountCents, paidOn, reference: payout.reference ?? null };
}
