// The rules as the editor holds them while a person changes them (text as typed, a tick per reason
// and status), and the list they become for PUT and the dry run. Only what cannot be sent at all is
// judged here (an amount or a count that is no number); the server judges the rest (an empty or
// repeated name, a third decimal, a negative count) and names the field, shown beside it.
import type { ClaimReason, ResolutionType } from '../claims/claims';
import { ApiError, sentence } from '../../api';
import { amountInputOf, majorOfInput } from '../../format';
import type { DeliveryStatus } from '../shipments/labels';
import type { Rule, RulesBody } from './queries';

export type RuleAction = Rule['then']['action'];
export type WindowChoice = 'any' | 'inside' | 'outside';

export interface RuleDraft {
  /** Stable across moves, for React and for moving the keyboard with the rule; never sent. */
  key: string;
  name: string;
  enabled: boolean;
  reasons: ClaimReason[];
  maxAmount: string;
  deliveryStatuses: DeliveryStatus[];
  minDaysWithoutScan: string;
  maxPriorClaims: string;
  photoRequired: boolean;
  withinWindow: WindowChoice;
  action: RuleAction;
  resolutionType: ResolutionType;
  note: string;
}

/** Field errors by the server's paths (rules[2].when.max_amount), as sentences. */
export type PathErrors = Record<string, string>;

let keys = 0;
const newKey = () => `rule-${(keys += 1)}`;

export function draftOf(rule: Rule): RuleDraft {
  const { when, then } = rule;
  return {
    key: newKey(),
    name: rule.name,
    enabled: rule.enabled,
    reasons: when.reasons ?? [],
    maxAmount: when.max_amount === undefined ? '' : amountInputOf(when.max_amount),
    deliveryStatuses: when.delivery_statuses ?? [],
    minDaysWithoutScan: when.min_days_without_scan === undefined ? '' : String(when.min_days_without_scan),
    maxPriorClaims: when.max_prior_claims === undefined ? '' : String(when.max_prior_claims),
    photoRequired: when.photo_required === true,
    withinWindow: when.within_window === undefined ? 'any' : when.within_window ? 'inside' : 'outside',
    action: then.action,
    resolutionType: then.resolution_type ?? 'refund',
    note: then.note_to_shopper ?? '',
  };
}

/** A new rule sends claims to a person (review) until it is told otherwise: the safest outcome. */
export const newRule = (): RuleDraft => ({
  key: newKey(),
  name: '',
  enabled: true,
  reasons: [],
  maxAmount: '',
  deliveryStatuses: [],
  minDaysWithoutScan: '',
  maxPriorClaims: '',
  photoRequired: false,
  withinWindow: 'any',
  action: 'review',
  resolutionType: 'refund',
  note: '',
});

export const rulePath = (index: number, field: string) => `rules[${index}].${field}`;

/** A whole number as typed, for the server to judge (a fraction or a negative it refuses by name). */
function countOf(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : null;
}

type RuleBody = RulesBody['rules'][number];

function ruleBody(draft: RuleDraft, index: number, errors: PathErrors): RuleBody {
  const amount = draft.maxAmount.trim() === '' ? undefined : (majorOfInput(draft.maxAmount) ?? null);
  if (amount === null) errors[rulePath(index, 'when.max_amount')] = 'Must be an amount in dollars, such as 150.00.';
  const minDays = countOf(draft.minDaysWithoutScan);
  if (minDays === null) errors[rulePath(index, 'when.min_days_without_scan')] = 'Must be a whole number of days.';
  const maxPrior = countOf(draft.maxPriorClaims);
  if (maxPrior === null) errors[rulePath(index, 'when.max_prior_claims')] = 'Must be a whole number of claims.';
  const note = draft.note.trim();
  return {
    name: draft.name.trim(),
    enabled: draft.enabled,
    // An absent condition holds for every claim: nothing ticked or typed sends nothing.
    when: {
      ...(draft.reasons.length === 0 ? {} : { reasons: draft.reasons }),
      ...(amount === undefined || amount === null ? {} : { max_amount: amount }),
      ...(draft.deliveryStatuses.length === 0 ? {} : { delivery_statuses: draft.deliveryStatuses }),
      ...(minDays === undefined || minDays === null ? {} : { min_days_without_scan: minDays }),
      ...(maxPrior === undefined || maxPrior === null ? {} : { max_prior_claims: maxPrior }),
      ...(draft.photoRequired ? { photo_required: true } : {}),
      ...(draft.withinWindow === 'any' ? {} : { within_window: draft.withinWindow === 'inside' }),
    },
    then: {
      action: draft.action,
      ...(draft.action === 'approve' ? { resolution_type: draft.resolutionType } : {}),
      ...(note === '' ? {} : { note_to_shopper: note }),
    },
  };
}

/** The list to send, or the fields that cannot be sent as they are. */
export function rulesBody(drafts: readonly RuleDraft[]): { rules: RuleBody[] } | { errors: PathErrors } {
  const errors: PathErrors = {};
  const rules = drafts.map((draft, index) => ruleBody(draft, index, errors));
  return Object.keys(errors).length > 0 ? { errors } : { rules };
}

/** The server's complaints by path, as sentences. */
export function serverPathErrors(error: unknown): PathErrors {
  const errors: PathErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const item of error.fieldErrors) errors[item.field] ??= sentence(item.message);
  return errors;
}

/** The fields the editor shows an error beside; a path under one of them (reasons[0]) is shown there too. */
const RULE_FIELDS = [
  'name',
  'enabled',
  'when.reasons',
  'when.max_amount',
  'when.delivery_statuses',
  'when.min_days_without_scan',
  'when.max_prior_claims',
  'when.photo_required',
  'when.within_window',
  'then.action',
  'then.resolution_type',
  'then.note_to_shopper',
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/** The error of one field of one rule, if any. */
export function errorAt(errors: PathErrors, index: number, field: RuleField): string | undefined {
  const path = rulePath(index, field);
  const found = Object.entries(errors).find(([key]) => key === path || key.startsWith(`${path}[`));
  return found?.[1];
}

/** A path no field stands for, as words: "rules" is the list, "rules[2]" the third rule. */
function pathWords(path: string): string {
  if (path === 'rules') return 'The list';
  const rule = /^rules\[(\d+)\](?:\.(.+))?$/.exec(path);
  if (rule === null) return path;
  return `Rule ${Number(rule[1]) + 1}${rule[2] === undefined ? '' : ` (${rule[2]})`}`;
}

/** Errors shown beside no field (the list itself, a whole rule, its conditions), as sentences. */
export function looseErrors(errors: PathErrors, shownElsewhere: readonly string[] = []): string[] {
  return Object.entries(errors)
    .filter(([path]) => !shownElsewhere.includes(path) && !isRuleFieldPath(path))
    .map(([path, message]) => `${pathWords(path)}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`);
}

function isRuleFieldPath(path: string): boolean {
  const match = /^rules\[\d+\]\.(.+)$/.exec(path);
  if (match === null) return false;
  const rest = match[1] ?? '';
  return RULE_FIELDS.some((field) => rest === field || rest.startsWith(`${field}[`));
}
