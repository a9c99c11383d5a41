// What the claim rules page reads: the store's current rule set (its version and ordered rules).
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ClaimRulesDryRunResponse, ClaimRulesRequest, ClaimRulesResponse } from '../../../../../contract/claim-rules.js';
import { api, bodyOf } from '../../api';

export type RuleSet = z.infer<typeof ClaimRulesResponse>;
export type Rule = RuleSet['rules'][number];
export type RulesBody = z.input<typeof ClaimRulesRequest>;
export type DryRun = z.infer<typeof ClaimRulesDryRunResponse>;

export const claimRulesQuery = queryOptions({
  queryKey: ['claim-rules'] as const,
  queryFn: async () => bodyOf(await api.claimRules.get(), 200),
});
