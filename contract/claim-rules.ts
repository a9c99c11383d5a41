// A store's claim rules (docs/claims.md): an ordered list, the first enabled rule whose conditions
// all hold deciding a claim on its own, with the reason recorded. Each PUT is a new numbered version;
// the dry run shows what a proposed list would have done to the store's past claims.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { CLAIM_REASONS, RESOLUTION_TYPES } from './claims.js';
import { DateTime, string, oneOf } from './common.js';
import { pickErrors } from './errors.js';
import { RestAmountOut, restAmount } from './money.js';
import { keyRoute } from './policy.js';
import { DELIVERY_STATUSES } from './shipments.js';

const c = initContract();

/** A rule list holds at most this many rules. */
export const MAX_CLAIM_RULES = 50;
/** A dry run looks back at most this many days. */
export const MAX_DRY_RUN_DAYS = 366;
/** A dry run without a date looks back this many days. */
export const DEFAULT_DRY_RUN_DAYS = 90;
/** A dry run considers at most this many claims (the oldest first); more are reported as not considered. */
export const MAX_DRY_RUN_CLAIMS = 10_000;
export const CLAIM_RULE_ACTIONS = ['approve', 'deny', 'review'] as const;


const wholeDays = z
  .number({ invalid_type_error: 'must be a whole number' })
  .int('must be a whole number')
  .min(0, 'must not be negative')
  .max(3650, 'must be at most 3650');

/** The conditions, with max_amount read (a request, into cents) or written (an answer, in major units). */
const conditions = <Amount extends z.ZodTypeAny>(maxAmount: Amount, title: string) =>
  extendApi(
    z
      .object({
        reasons: z.array(oneOf(CLAIM_REASONS)).min(1, 'must name at least one reason').max(CLAIM_REASONS.length).optional().describe('The claim is for one of these reasons.'),
        max_amount: maxAmount.optional(),
        delivery_statuses: z.array(oneOf(DELIVERY_STATUSES)).min(1, 'must name at least one status').max(DELIVERY_STATUSES.length).optional().describe("The parcel's status is one of these."),
        min_days_without_scan: wholeDays.optional().describe('The parcel has been without a scan for at least this many whole days.'),
        max_prior_claims: wholeDays.optional().describe("The shopper's other claims at the store in the year before are at most this many."),
        photo_required: z.boolean({ invalid_type_error: 'must be true or false' }).optional().describe('true: the claim has at least one photo.'),
        within_window: z.boolean({ invalid_type_error: 'must be true or false' }).optional().describe("The claim was (true) or was not (false) filed inside the store's window."),
      })
      .strict(),
    { title, description: 'Every condition given must hold; none given matches every claim.' },
  );

export const ClaimRuleConditions = conditions(restAmount('amount_claimed is at most this, in major units.'), 'ClaimRuleConditions');
const ClaimRuleConditionsOut = conditions(RestAmountOut.describe('amount_claimed is at most this, in major units.'), 'ClaimRuleConditionsOut');

export const ClaimRuleOutcome = extendApi(
  z
    .object({
      action: oneOf(CLAIM_RULE_ACTIONS).describe('approve (for amount_claimed), deny, or review (in_review, for a person).'),
      resolution_type: oneOf(RESOLUTION_TYPES).optional().describe('How an approval is made good; refund unless given.'),
      note_to_shopper: string(500).optional().describe('Shown to the shopper with the decision.'),
    })
    .strict()
    .superRefine((outcome, ctx) => {
      if (outcome.resolution_type !== undefined && outcome.action !== 'approve') {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['resolution_type'], message: 'is only for action approve' });
      }
    }),
  { title: 'ClaimRuleOutcome' },
);

const rule = <When extends z.ZodTypeAny>(when: When, title: string) =>
  extendApi(
    z
      .object({
        name: string(100, z.string().min(1, 'must not be empty')).describe('Shown in the history of every claim it decides.'),
        enabled: z.boolean({ required_error: 'is required', invalid_type_error: 'must be true or false' }),
        when,
        then: ClaimRuleOutcome,
      })
      .strict(),
    { title },
  );

export const ClaimRule = rule(ClaimRuleConditions, 'ClaimRule');
const ClaimRuleOut = rule(ClaimRuleConditionsOut, 'ClaimRuleOut');
/** A rule as the domain keeps it: max_amount in cents. */
export type ClaimRuleInput = z.output<typeof ClaimRule>;

const RuleList = z
  .array(ClaimRule)
  .max(MAX_CLAIM_RULES, `must have at most ${MAX_CLAIM_RULES} rules`)
  .superRefine((rules, ctx) => {
    const seen = new Map<string, number>();
    rules.forEach((rule, index) => {
      if (seen.has(rule.name)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index, 'name'], message: `repeats the name of rules[${seen.get(rule.name)}]` });
      else seen.set(rule.name, index);
    });
  });

export const ClaimRulesRequest = extendApi(z.object({ rules: RuleList.describe('The whole ordered list; the first enabled rule that matches decides.') }).strict(), {
  title: 'ClaimRulesRequest',
  example: {
    rules: [
      { name: 'Silent lost parcels', enabled: true, when: { reasons: ['lost'], delivery_statuses: ['Active'], min_days_without_scan: 7, max_amount: 150 }, then: { action: 'approve', resolution_type: 'refund', note_to_shopper: 'Your parcel has been silent for a week: we refund it.' } },
      { name: 'Frequent claimers', enabled: true, when: { min_days_without_scan: 0, max_prior_claims: 100 }, then: { action: 'review' } },
    ],
  },
});

export const ClaimRulesResponse = extendApi(
  z.object({
    version: z.number().int().describe('The rule set\'s version: 0 for a store that never set rules, then 1, 2, ... a PUT each.'),
    rules: z.array(ClaimRuleOut),
    updated_at: DateTime.nullable().describe('When this version was set, or null for version 0.'),
  }),
  { title: 'ClaimRuleSet' },
);

export const ClaimRulesDryRunRequest = extendApi(
  z
    .object({
      rules: RuleList.describe('The proposed list.'),
      since: DateTime.optional().describe(`Claims filed at or after this instant; at most ${MAX_DRY_RUN_DAYS} days ago. ${DEFAULT_DRY_RUN_DAYS} days ago when absent.`),
    })
    .strict(),
  {
    title: 'ClaimRulesDryRunRequest',
    example: { rules: [{ name: 'Silent lost parcels', enabled: true, when: { reasons: ['lost'], min_days_without_scan: 7, max_amount: 150 }, then: { action: 'approve' } }] },
  },
);

const Tally = z.object({ approve: z.number().int(), deny: z.number().int(), review: z.number().int(), amount_approved: RestAmountOut });

export const ClaimRulesDryRunResponse = extendApi(
  z.object({
    considered: z.number().int().describe('Claims filed since then (at most 10,000, oldest first).'),
    approve: z.number().int(),
    deny: z.number().int(),
    review: z.number().int(),
    none: z.number().int().describe('Claims no rule matched: left for a person.'),
    amount_approved: RestAmountOut.describe('amount_claimed of the claims it would approve, in major units.'),
    by_rule: z.array(Tally.extend({ name: z.string() })).describe('Per rule, in list order.'),
    disagreements: z
      .array(z.object({ claim_id: z.string(), reference: z.string(), decided: z.enum(['approved', 'denied']), rules_would: z.enum(CLAIM_RULE_ACTIONS), rule: z.string() }))
      .describe('Claims a person approved or denied where the rules would have decided otherwise.'),
  }),
  { title: 'ClaimRulesDryRun', description: 'Evaluated against the evidence as it is now; nothing is changed.' },
);

export const claimRulesContract = c.router({
  get: {
    method: 'GET',
    path: '/v1/claim_rules',
    responses: { 200: ClaimRulesResponse, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: "Read the store's claim rules",
    description: 'The current version and its ordered list. A new store has version 0 and no rules. Test keys answer 404.',
  },
  put: {
    method: 'PUT',
    path: '/v1/claim_rules',
    body: ClaimRulesRequest,
    responses: { 200: ClaimRulesResponse, ...pickErrors(400, 401, 403, 404, 413, 422, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: "Replace the store's claim rules",
    description: `Sets the whole ordered list (at most ${MAX_CLAIM_RULES} rules) as a new version; earlier versions are kept, and the history of a claim a rule decided names its version. Test keys answer 404.`,
  },
  dryRun: {
    method: 'POST',
    path: '/v1/claim_rules/dry_run',
    body: ClaimRulesDryRunRequest,
    responses: { 200: ClaimRulesDryRunResponse, ...pickErrors(400, 401, 403, 404, 413, 422, 429, 500) },
    metadata: keyRoute('other', 'not_found'),
    summary: 'What a rule list would have done',
    description:
      "Evaluates a proposed list against the store's claims filed since a date (at most a year back), without changing anything: how many each rule would approve, deny and send to review, the amounts, and the claims where a person decided otherwise. Test keys answer 404.",
  },
});
