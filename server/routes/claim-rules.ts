// A store's claim rules over the API (docs/claims.md): thin handlers over domain/claims.
import { initServer } from '@ts-rest/express';
import { claimRulesContract } from '../../contract/index.js';
import { dryRunClaimRules, getClaimRules, putClaimRules, toClaimRulesResponse, toDryRunResponse } from '../domain/claims/index.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';

const s = initServer();

export const claimRulesRouter = ({ db, clock }: AppDeps) =>
  s.router(claimRulesContract, {
    get: async ({ req }) => ({ status: 200, body: toClaimRulesResponse(await getClaimRules(db, scopeOf(req))) }),
    put: async ({ body, req }) => ({ status: 200, body: toClaimRulesResponse(await putClaimRules(db, scopeOf(req), body.rules, clock.now())) }),
    dryRun: async ({ body, req }) => ({ status: 200, body: toDryRunResponse(await dryRunClaimRules(db, scopeOf(req), body.rules, body.since === undefined ? undefined : new Date(body.since), clock.now())) }),
  });
