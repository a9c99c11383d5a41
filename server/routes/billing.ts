import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { billingContract, centsToMajorNumber, type BillingStatement } from '../../contract/index.js';
import { billingStatement, type BillingStatementRecord } from '../domain/billing.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';

const s = initServer();

const money = (cents: number) => centsToMajorNumber(cents);

/** The wire statement; the admin CLI prints the same object. */
export function toBillingStatementResponse(statement: BillingStatementRecord): z.input<typeof BillingStatement> {
  return {
    merchant_id: statement.storeId,
    month: statement.month,
    currency: 'USD',
    premiums: { count: statement.premiums.count, total: money(statement.premiums.totalCents) },
    repricings: { count: statement.repricings.count, total: money(statement.repricings.totalCents) },
    credits: {
      count: statement.credits.count,
      total: money(statement.credits.totalCents),
      weeks: statement.credits.weeks.map((week) => ({
        week: week.week,
        starts_on: week.startsOn,
        count: week.count,
        total: money(week.totalCents),
      })),
    },
    net_total: money(statement.netCents),
  };
}

export const billingRouter = ({ db }: AppDeps) =>
  s.router(billingContract, {
    statements: async ({ query, req }) => {
      // Test keys never get here: the route declares testKeys: not_found (the ledger is live data).
      const statement = await billingStatement(db, scopeOf(req).store.id, query.month);
      return { status: 200, body: toBillingStatementResponse(statement) };
    },
  });
