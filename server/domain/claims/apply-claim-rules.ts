// The store's rules deciding claims on their own (docs/claims.md): when a claim is filed, and again
// while it is open whenever its evidence may have changed: a tracking update of its order, and the
// passing days that min_days_without_scan counts (the daily job). A rule's decision goes through
// decideClaim like anyone's, its history row naming the rule, the version and the evidence read.
import { Prisma, storeRowKey, type Database, type Transaction } from '../../db/client.js';
import { actingFor, type Scope, type ServiceScope } from '../access/index.js';
import { AppError, type Clock } from '../kernel/index.js';
import { findStoreById } from '../stores/index.js';
import { evidenceValues } from './claim-evidence.js';
import { claimInclude, withDetailsOne, type ClaimRecord } from './claim-record.js';
import { getClaimRules, type ClaimRule } from './claim-rules.js';
import { decideClaimIn, type ClaimDecision } from './decide-claim.js';
import { firstMatchingRule } from './evaluate-claim-rules.js';

/** What a rule's outcome does to a claim. */
export function ruleDecision(rule: ClaimRule): ClaimDecision {
  const note = rule.then.note_to_shopper;
  switch (rule.then.action) {
    case 'approve':
      return { status: 'approved', note, resolution: { type: rule.then.resolution_type ?? 'refund', note } };
    case 'deny':
      return { status: 'denied', note };
    case 'review':
      return { status: 'in_review', note };
  }
}

/** Runs the store's rules on an open claim, in the caller's transaction; the decided claim, or null. */
export async function applyClaimRulesIn(tx: Transaction, scope: Scope, claim: ClaimRecord, clock: Clock): Promise<ClaimRecord | null> {
  if (claim.status !== 'open') return null;
  const set = await getClaimRules(tx, scope);
  if (set.rules.length === 0) return null;
  const evidence = evidenceValues(claim.evidence);
  const match = firstMatchingRule(set.rules, { reason: claim.reason, amountClaimedCents: claim.amountClaimedCents, evidence });
  if (match === null) return null;
  return decideClaimIn(tx, scope, claim.id, ruleDecision(match.rule), clock, { ruleName: match.rule.name, ruleVersion: set.version, evidence });
}

/** Which claims a rerun is about: those a parcel's tracking speaks for (with its store when known), or all. */
type RerunScope = { shipmentId: string; storeId?: string } | 'all';

/**
 * The open claims rules may decide: those a parcel's tracking speaks for (claims on it, and
 * whole-order claims of its order), or every open claim of every store with rules.
 */
async function openClaimsToRun(db: Database, where: RerunScope): Promise<Array<{ id: string; storeId: string }>> {
  if (where !== 'all') {
    const ofStore = where.storeId === undefined ? Prisma.empty : Prisma.sql`AND s.store_id = ${where.storeId}::uuid`;
    return db.$queryRaw<Array<{ id: string; storeId: string }>>`
      SELECT c.id::text AS id, c.store_id::text AS "storeId"
        FROM claims c JOIN shipments s ON s.id = ${where.shipmentId}::uuid ${ofStore} AND c.store_id = s.store_id
       WHERE c.status = 'open' AND (c.shipment_id = s.id OR (c.shipment_id IS NULL AND c.order_id = s.order_id))
         AND EXISTS (SELECT 1 FROM claim_rule_sets r WHERE r.store_id = c.store_id)`;
  }
  return db.$queryRaw<Array<{ id: string; storeId: string }>>`
    SELECT c.id::text AS id, c.store_id::text AS "storeId"
      FROM claims c
     WHERE c.status = 'open' AND EXISTS (SELECT 1 FROM claim_rule_sets r WHERE r.store_id = c.store_id)
     ORDER BY c.created_on`;
}

/**
 * Runs the rules again on open claims, each in its own short transaction; returns how many they
 * decided. A claim someone decided meanwhile is left as they decided it.
 */
export async function rerunClaimRules(db: Database, service: ServiceScope, clock: Clock, where: RerunScope): Promise<number> {
  const claims = await openClaimsToRun(db, where);
  const scopes = new Map<string, Scope>();
  let decided = 0;
  for (const { id, storeId } of claims) {
    const scope = scopes.get(storeId) ?? actingFor(service, await findStoreById(db, storeId));
    scopes.set(storeId, scope);
    try {
      const outcome = await db.$transaction(async (tx) => {
        const row = await tx.claim.findUnique({ where: storeRowKey(storeId, id), include: claimInclude });
        if (row === null || row.status !== 'open') return null;
        return applyClaimRulesIn(tx, scope, await withDetailsOne(tx, row, clock.now()), clock);
      });
      if (outcome !== null) decided += 1;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'conflict')) throw error;
    }
  }
  return decided;
}
