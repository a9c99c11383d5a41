// A store's claim rules and a dry run as the API and the console answer them: amounts in major
// units, as every REST amount.
import type { z } from 'zod';
import type { ClaimRulesDryRunResponse, ClaimRulesResponse } from '../../../contract/claim-rules.js';
import { centsToMajorNumber } from '../../../contract/money.js';
import type { ClaimRule, ClaimRuleSet } from './claim-rules.js';
import type { DryRunResult } from './dry-run-claim-rules.js';

/** A rule as sent: max_amount is kept in cents, and answered in major units. */
function toWireRule(rule: ClaimRule): z.input<typeof ClaimRulesResponse>['rules'][number] {
  const { max_amount: maxAmount, ...when } = rule.when;
  return { ...rule, when: { ...when, ...(maxAmount === undefined ? {} : { max_amount: centsToMajorNumber(maxAmount) }) } };
}

export function toClaimRulesResponse(set: ClaimRuleSet): z.input<typeof ClaimRulesResponse> {
  return { version: set.version, rules: set.rules.map(toWireRule), updated_at: set.updatedAt?.toISOString() ?? null };
}

export function toDryRunResponse(result: DryRunResult): z.input<typeof ClaimRulesDryRunResponse> {
  const tally = (from: Pick<DryRunResult, 'approve' | 'deny' | 'review' | 'amountApprovedCents'>) => ({
    approve: from.approve,
    deny: from.deny,
    review: from.review,
    amount_approved: centsToMajorNumber(from.amountApprovedCents),
  });
  return {
    considered: result.considered,
    ...tally(result),
    none: result.none,
    by_rule: result.byRule.map((rule) => ({ name: rule.name, ...tally(rule) })),
    disagreements: result.disagreements.map((item) => ({ claim_id: item.claimId, reference: item.reference, decided: item.decided, rules_would: item.rulesWould, rule: item.rule })),
  };
}
