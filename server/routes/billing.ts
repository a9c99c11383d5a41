import { initServer } from '@ts-rest/express';
import { billingContract } from '../../contract/index.js';
import { billingStatement, toBillingStatementResponse } from '../domain/billing/index.js';

import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';

const s = initServer();

export const billingRouter = ({ db }: AppDeps) =>
  s.router(billingContract, {
    statements: async ({ query, req }) => {
      // Test keys never get here: the route declares testKeys: not_found (the ledger is live data).
      const statement = await billingStatement(db, scopeOf(req), query.month);
      return { status: 200, body: toBillingStatementResponse(statement) };
    },
  });
