// A billing statement as the API answers it; the admin CLI prints the same object.
import type { z } from 'zod';
import { centsToMajorNumber, type BillingStatement } from '../../../contract/index.js';
import type { BillingStatementRecord } from './billing-statement.js';

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
    claims: {
      filed: statement.claims.filed,
      approved: statement.claims.approved,
      denied: statement.claims.denied,
      paid: statement.claims.paid,
      paid_total: money(statement.claims.paidTotalCents),
    },
    loss_ratio: statement.lossRatio,
  };
}
