// The console's first page: this month's money (equal to the billing statement to the cent), its
// orders and protection attach rate, open claims, and the daily net premium of the last 90 days.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { BillingStatement } from '../billing.js';
import { string } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';

const c = initContract();

export const OVERVIEW_DAYS = 90;

export const ConsoleOverview = z.object({
  month: z.string(),
  statement: BillingStatement.describe("The month's billing statement, as GET /v1/billing/statements answers it."),
  orders: z.object({
    count: z.number().int().describe('Orders placed in the month (UTC).'),
    protected: z.number().int().describe('Of which with protection selected.'),
    attach_rate: z.number().describe('protected / count, 0 to 1 (0 without orders).'),
  }),
  open_claims: z.number().int(),
  daily_net_cents: z
    .array(z.object({ day: z.string().describe('YYYY-MM-DD, UTC.'), net_cents: z.number().int() }))
    .describe(`The last ${OVERVIEW_DAYS} days, oldest first, each day's ledger entries summed (by effective date).`),
});

export const consoleOverviewContract = c.router({
  get: {
    method: 'GET',
    path: '/console/api/overview',
    query: z.object({ month: string(7).optional().describe('YYYY-MM (UTC); this month when absent.') }),
    responses: { 200: ConsoleOverview, ...pickErrors(400, 401, 500) },
    metadata: sessionRoute('viewer'),
    summary: "The store's month at a glance",
  },
});
