// The claim rules in words: each outcome and condition as a person reads it, for the editor's
// fields and for the read-only list a viewer sees.
import { centsOfMajor, formatCents } from '../../format';
import { REASON_LABEL, RESOLUTION_LABEL } from '../claims/claims';
import { DELIVERY_STATUS_LABEL } from '../shipments/labels';
import type { Rule } from './queries';
import type { RuleAction, WindowChoice } from './rules-draft';

export const ACTION_LABEL: Record<RuleAction, string> = {
  approve: 'Approve it',
  deny: 'Deny it',
  review: 'Send it to a person (in review)',
};

export const WINDOW_LABEL: Record<WindowChoice, string> = {
  any: 'Inside or outside the window',
  inside: "Filed inside the store's claim window",
  outside: "Filed outside the store's claim window",
};

const either = (words: readonly string[]) => (words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`);

/** The rule's conditions in words, one each; none means every claim. */
export function conditionWords(when: Rule['when']): string[] {
  const words: string[] = [];
  if (when.reasons !== undefined) words.push(`The reason is ${either(when.reasons.map((reason) => REASON_LABEL[reason]))}`);
  if (when.max_amount !== undefined) words.push(`The amount claimed is at most ${formatCents(centsOfMajor(when.max_amount))}`);
  if (when.delivery_statuses !== undefined) words.push(`The parcel is ${either(when.delivery_statuses.map((status) => DELIVERY_STATUS_LABEL[status]))}`);
  if (when.min_days_without_scan !== undefined) words.push(`At least ${when.min_days_without_scan} ${when.min_days_without_scan === 1 ? 'day' : 'days'} without a scan`);
  if (when.max_prior_claims !== undefined) words.push(`The shopper has at most ${when.max_prior_claims} earlier ${when.max_prior_claims === 1 ? 'claim' : 'claims'} in the past year`);
  if (when.photo_required === true) words.push('The claim has a photo');
  if (when.within_window !== undefined) words.push(WINDOW_LABEL[when.within_window ? 'inside' : 'outside']);
  return words;
}

/** What the rule does, in words. */
export function outcomeWords(then: Rule['then']): string {
  if (then.action === 'approve') return `Approve it: ${RESOLUTION_LABEL[then.resolution_type ?? 'refund'].toLowerCase()} of the amount claimed`;
  return ACTION_LABEL[then.action];
}
