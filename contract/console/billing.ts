// The console's billing: a month's statement with its weekly credits, and the same as CSV.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { BillingStatement } from '../billing.js';
import { text } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';

const c = initContract();

export const consoleBillingContract = c.router({
  statement: {
    method: 'GET',
    path: '/console/api/billing/statements/:month',
    pathParams: z.object({ month: text(7) }),
    responses: { 200: BillingStatement, ...pickErrors(400, 401, 500) },
    metadata: sessionRoute('viewer'),
    summary: "A month's statement",
  },
  csv: {
    method: 'GET',
    path: '/console/api/billing/statements/:month/csv',
    pathParams: z.object({ month: text(7) }),
    responses: { 200: c.otherResponse({ contentType: 'text/csv', body: z.string() }), ...pickErrors(400, 401, 500) },
    metadata: sessionRoute('viewer'),
    summary: "A month's statement as CSV (every ledger entry, in cents)",
  },
});
