// The console's overview of a store's month: the billing statement itself (so the figures are the
// statement's, to the cent), the month's orders and how many chose protection, open claims, and
// the daily net premium of the last 90 days.
import type { Database } from '../../db/client.js';
import { billingStatement, monthBounds, type BillingStatementRecord } from './billing-statement.js';
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
  const { start } = monthBounds(month);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const firstDay = new Date(today - (OVERVIEW_DAYS - 1) * DAY_MS);
  const [statement, orders, openClaims, days] = await Promise.all([
    billingStatement(db, scope, month),
    // Placed in the month: the date the premium is booked for (source_created_on), as billing counts.
    db.$queryRaw<Array<{ count: number; protected: number }>>`
      SELECT count(*)::int AS count, count(*) FILTER (WHERE insurance_selected)::int AS protected
        FROM orders
       WHERE store_id = ${storeId}::uuid
         AND source_created_on >= ${start.toISOString()}::timestamptz
         AND source_created_on < ${start.toISOString()}::timestamptz + interval '1 month'`,
    db.claim.count({ where: { storeId, status: { in: [...OPEN_CLAIM_STATUSES] } } }),
    // Formatted after grouping, as the statement's aggregate is (billing.ts).
    db.$queryRaw<Array<{ day: string; net: bigint }>>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, net
        FROM (SELECT (effective_at AT TIME ZONE 'UTC')::date AS day, sum(amount_cents)::bigint AS net
                FROM premium_ledger_entries
               WHERE store_id = ${storeId}::uuid AND effective_at >= ${firstDay} AND effective_at < ${new Date(today + DAY_MS)}
               GROUP BY 1) AS days`,
  ]);
  const byDay = new Map(days.map((row) => [row.day, Number(row.net)]));
  const dailyNetCents = Array.from({ length: OVERVIEW_DAYS }, (_, index) => {
    const day = new Date(firstDay.getTime() + index * DAY_MS).toISOString().slice(0, 10);
    return { day, netCents: byDay.get(day) ?? 0 };
  });
  const { count, protected: protectedCount } = orders[0] ?? { count: 0, protected: 0 };
  return { month, statement, orders: { count, protected: protectedCount, attachRate: count === 0 ? 0 : protectedCount / count }, openClaims, dailyNetCents };
}
