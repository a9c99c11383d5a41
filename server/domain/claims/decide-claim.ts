// Deciding a claim: moving it to its next status, with the note that says why, as its history,
// audit row and claim.status_changed event record it.
import type { Database } from '../../db/client.js';
import { actorColumns, recordAudit, type Scope } from '../access/index.js';

import { emitEvent, newEvent } from '../events/index.js';
import { AppError, appliedAt, type Clock, isUuid } from '../kernel/index.js';


import { toClaimResponse } from './claim-payload.js';
import { CLAIM_TRANSITIONS, claimInclude, claimNotFound, OPEN_CLAIM_STATUSES, withPhotosOne, type ClaimRecord, type ClaimStatus } from './claim-record.js';

/**
 * Moves one of the store's claims to a new status (a console user, or the operator's CLI once it
 * found the claim's store). Setting the current status again is a no-op.
 */
export async function decideClaim(db: Database, scope: Scope, id: string, status: ClaimStatus, clock: Clock, note?: string): Promise<ClaimRecord> {
  const { actor } = scope;
  if (!isUuid(id)) throw claimNotFound(id);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ status: ClaimStatus; updated_on: Date }>>`
      SELECT status, updated_on FROM claims WHERE id = ${id}::uuid AND store_id = ${scope.store.id}::uuid FOR UPDATE`;
    const current = locked[0]?.status;
    if (current === undefined) throw claimNotFound(id);
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

