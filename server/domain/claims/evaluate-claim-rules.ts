// Which rule decides a claim: the first enabled rule whose conditions all hold, or none. A small
// evaluator of the contract's fixed set of conditions rather than a general rules engine (such as
// json-rules-engine): the conditions are typed in the contract, every one is a comparison of one
// evidence value, and the reason a rule matched is then exactly its conditions and the values read.
import type { ClaimEvidenceValues } from '../../../contract/claims.js';
import type { ClaimReason } from './claim-record.js';
import type { ClaimRule } from './claim-rules.js';

/** What a rule reads of a claim. */
export interface RuleFacts {
  reason: ClaimReason;
  amountClaimedCents: number;
  evidence: ClaimEvidenceValues;
}

export interface RuleMatch {
  rule: ClaimRule;
  index: number;
}

/** Whether every condition the rule names holds for the claim; an absent condition always holds. */
export function ruleMatches(rule: ClaimRule, facts: RuleFacts): boolean {
  const { when } = rule;
  const { evidence } = facts;
  if (when.reasons !== undefined && !when.reasons.includes(facts.reason)) return false;
  // Conditions arrive in cents from the contract (max_amount is a REST amount).
  if (when.max_amount !== undefined && facts.amountClaimedCents > when.max_amount) return false;
  if (when.delivery_statuses !== undefined && (evidence.delivery_status === null || !when.delivery_statuses.includes(evidence.delivery_status))) return false;
  if (when.min_days_without_scan !== undefined && (evidence.days_without_scan === null || evidence.days_without_scan < when.min_days_without_scan)) return false;
  if (when.max_prior_claims !== undefined && evidence.prior_claims > when.max_prior_claims) return false;
  if (when.photo_required === true && evidence.photos === 0) return false;
  if (when.within_window !== undefined && evidence.within_window !== when.within_window) return false;
  return true;
}

/** The first enabled rule that matches, or null: the claim is then left for a person. */
export function firstMatchingRule(rules: readonly ClaimRule[], facts: RuleFacts): RuleMatch | null {
  const index = rules.findIndex((rule) => rule.enabled && ruleMatches(rule, facts));
  const rule = rules[index];
  return rule === undefined ? null : { rule, index };
}
