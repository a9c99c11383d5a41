import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { billingContract, centsToMajorNumber, type BillingStatement } from '../../contract/index.js';
import { billingStatement, type BillingStatementRecord } from '../domain/billing.js';
import { AppError } from '../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from '../http/authenticate.js';

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
      const caller = callerOf(req);
      // Test keys never see live data, and the ledger holds only live data.
      if (caller.mode === 'test') throw new AppError('not_found', 'Billing statements are for live keys; test keys have none.');
      const statement = await billingStatement(db, caller.store.id, query.month);
      return { status: 200, body: toBillingStatementResponse(statement) };
    },
  });
