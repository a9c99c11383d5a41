// The console's overview of a store's month: the billing statement itself (so the figures are the
// statement's, to the cent), the month's orders and how many chose protection, open claims, and
// the daily net premium of the last 90 days. All but the open claims come from the store's daily
// totals, so the overview costs the same with ten orders or ten million.
import type { Database } from '../../db/client.js';
import { isoDate, monthDailyTotals, statementOfDays, type BillingStatementRecord } from './billing-statement.js';
import { readDailyTotals } from './daily-totals.js';
import { OVERVIEW_DAYS } from '../../../contract/console/overview.js';
import { OPEN_CLAIM_STATUSES } from '../claims/index.js';
import type { Scope } from '../access/index.js';
import { DAY_MS } from '../kernel/index.js';

export interface StoreOverview {
  month: string;
  statement: BillingStatementRecord;
  /** attachRate: the share of the month's orders with protection, 0 without orders. */
  orders: { count: number; protected: number; attachRate: number };
  openClaims: number;
  dailyNetCents: Array<{ day: string; netCents: number }>;
}

export async function storeOverview(db: Database, scope: Scope, month: string, now: Date): Promise<StoreOverview> {
  const storeId = scope.store.id;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const firstDay = new Date(today - (OVERVIEW_DAYS - 1) * DAY_MS);
  const [monthDays, openClaims, recentDays] = await Promise.all([
    monthDailyTotals(db, storeId, month),
    db.claim.count({ where: { storeId, status: { in: [...OPEN_CLAIM_STATUSES] } } }),
    readDailyTotals(db, storeId, isoDate(firstDay), `${OVERVIEW_DAYS} days`),
  ]);
  const net = new Map(recentDays.map((day) => [day.day, day.premiumCents + day.repricingCents + day.reversalCents]));
  const dailyNetCents = Array.from({ length: OVERVIEW_DAYS }, (_, index) => {
    const day = isoDate(new Date(firstDay.getTime() + index * DAY_MS));
    return { day, netCents: Number(net.get(day) ?? 0n) };
  });
  const statement = statementOfDays(storeId, month, monthDays);
  // Placed in the month: the date the premium is booked for (source_created_on), as billing counts.
  const count = monthDays.reduce((sum, day) => sum + day.orderCount, 0);
  const protectedCount = monthDays.reduce((sum, day) => sum + day.protectedOrderCount, 0);
  return { month, statement, orders: { count, protected: protectedCount, attachRate: count === 0 ? 0 : protectedCount / count }, openClaims, dailyNetCents };
}
