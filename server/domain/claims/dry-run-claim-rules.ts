// What a proposed rule list would have done (docs/claims.md): evaluated against the store's claims
// filed since a date, with their evidence as it is now, changing nothing. It counts what each rule
// would approve, deny and send to review, and names the claims a person decided otherwise.
import { DEFAULT_DRY_RUN_DAYS, MAX_DRY_RUN_CLAIMS, MAX_DRY_RUN_DAYS } from '../../../contract/claim-rules.js';
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { AppError, DAY_MS } from '../kernel/index.js';
import { evidenceValues } from './claim-evidence.js';
import { claimInclude, withDetails, type ClaimRecord } from './claim-record.js';
import type { ClaimRule } from './claim-rules.js';
import { firstMatchingRule } from './evaluate-claim-rules.js';

/** Claims read and evaluated at a time. */
const BATCH = 500;

export interface RuleTally {
  approve: number;
  deny: number;
  review: number;
  amountApprovedCents: number;
}

export interface DryRunResult extends RuleTally {
  considered: number;
  none: number;
  byRule: Array<RuleTally & { name: string }>;
  disagreements: Array<{ claimId: string; reference: string; decided: 'approved' | 'denied'; rulesWould: ClaimRule['then']['action']; rule: string }>;
}

/** What a person decided, if anyone did: the latest approval or denial not made by a rule. */
function personsDecision(claim: ClaimRecord): 'approved' | 'denied' | null {
  const decision = [...claim.history].reverse().find((change) => (change.toStatus === 'approved' || change.toStatus === 'denied') && change.by?.kind !== 'rule');
  return decision === undefined ? null : (decision.toStatus as 'approved' | 'denied');
}

const WOULD_DECIDE = { approve: 'approved', deny: 'denied' } as const;

export async function dryRunClaimRules(db: Database, scope: Scope, rules: readonly ClaimRule[], sinceGiven: Date | undefined, now: Date): Promise<DryRunResult> {
  const since = sinceGiven ?? new Date(now.getTime() - DEFAULT_DRY_RUN_DAYS * DAY_MS);
  if (since.getTime() < now.getTime() - MAX_DRY_RUN_DAYS * DAY_MS) {
    throw new AppError('invalid_request', 'The dry run looks back too far.', [{ field: 'since', message: `must be at most ${MAX_DRY_RUN_DAYS} days ago` }]);
  }
  const result: DryRunResult = { considered: 0, approve: 0, deny: 0, review: 0, none: 0, amountApprovedCents: 0, byRule: rules.map((rule) => ({ name: rule.name, approve: 0, deny: 0, review: 0, amountApprovedCents: 0 })), disagreements: [] };
  let cursor: { createdOn: Date; id: string } | null = null;
  while (result.considered < MAX_DRY_RUN_CLAIMS) {
    const rows: Awaited<ReturnType<typeof db.claim.findMany<{ include: typeof claimInclude }>>> = await db.claim.findMany({
      where: {
        storeId: scope.store.id,
        createdOn: { gte: since },
        ...(cursor === null ? {} : { OR: [{ createdOn: { gt: cursor.createdOn } }, { createdOn: cursor.createdOn, id: { gt: cursor.id } }] }),
      },
      include: claimInclude,
      orderBy: [{ createdOn: 'asc' }, { id: 'asc' }],
      take: Math.min(BATCH, MAX_DRY_RUN_CLAIMS - result.considered),
    });
    if (rows.length === 0) break;
    const last = rows[rows.length - 1];
    cursor = last === undefined ? null : { createdOn: last.createdOn, id: last.id };
    for (const claim of await withDetails(db, rows, now)) {
      result.considered += 1;
      const match = firstMatchingRule(rules, { reason: claim.reason, amountClaimedCents: claim.amountClaimedCents, evidence: evidenceValues(claim.evidence) });
      if (match === null) {
        result.none += 1;
        continue;
      }
      const { action } = match.rule.then;
      const tally = result.byRule[match.index] as RuleTally;
      result[action] += 1;
      tally[action] += 1;
      if (action === 'approve') {
        result.amountApprovedCents += claim.amountClaimedCents;
        tally.amountApprovedCents += claim.amountClaimedCents;
      }
      const decided = personsDecision(claim);
      if (decided !== null && action !== 'review' && WOULD_DECIDE[action] !== decided) {
        result.disagreements.push({ claimId: claim.id, reference: claim.reference, decided, rulesWould: action, rule: match.rule.name });
      }
    }
    if (rows.length < BATCH) break;
  }
  return result;
}
