// A store's daily totals (the store_daily_totals table): per UTC day, the premium booked, re-priced
// and reversed, the orders placed and protected, and the claims filed, decided and paid. Triggers
// keep them in the same transaction as the rows that move them, so the overview and the statements
// read at most a few hundred small rows whatever the store's history; the rows' own aggregate is a
// view (store_daily_totals_from_sources) that the totals must always equal.
import { Prisma, type Database } from '../../db/client.js';

export interface DailyTotals {
  /** YYYY-MM-DD, UTC. */
  day: string;
  premiumCount: number;
  premiumCents: bigint;
  repricingCount: number;
  repricingCents: bigint;
  reversalCount: number;
  /** Signed as in the ledger: zero or negative. */
  reversalCents: bigint;
  orderCount: number;
  protectedOrderCount: number;
  claimsFiled: number;
  claimsApproved: number;
  claimsDenied: number;
  claimsPaid: number;
  claimsPaidCents: bigint;
}

interface DailyTotalsRow {
  day: string;
  premium_count: number;
  premium_cents: bigint;
  repricing_count: number;
  repricing_cents: bigint;
  reversal_count: number;
  reversal_cents: bigint;
  order_count: number;
  protected_order_count: number;
  claims_filed: number;
  claims_approved: number;
  claims_denied: number;
  claims_paid: number;
  claims_paid_cents: bigint;
}

const fromRow = (row: DailyTotalsRow): DailyTotals => ({
  day: row.day,
  premiumCount: row.premium_count,
  premiumCents: BigInt(row.premium_cents),
  repricingCount: row.repricing_count,
  repricingCents: BigInt(row.repricing_cents),
  reversalCount: row.reversal_count,
  reversalCents: BigInt(row.reversal_cents),
  orderCount: row.order_count,
  protectedOrderCount: row.protected_order_count,
  claimsFiled: row.claims_filed,
  claimsApproved: row.claims_approved,
  claimsDenied: row.claims_denied,
  claimsPaid: row.claims_paid,
  claimsPaidCents: BigInt(row.claims_paid_cents),
});

/** A day's slot rows summed into one, column by column. */
const SLOTS_SUMMED = Prisma.sql`
  sum(premium_count)::int AS premium_count, sum(premium_cents)::bigint AS premium_cents,
  sum(repricing_count)::int AS repricing_count, sum(repricing_cents)::bigint AS repricing_cents,
  sum(reversal_count)::int AS reversal_count, sum(reversal_cents)::bigint AS reversal_cents,
  sum(order_count)::int AS order_count, sum(protected_order_count)::int AS protected_order_count,
  sum(claims_filed)::int AS claims_filed, sum(claims_approved)::int AS claims_approved,
  sum(claims_denied)::int AS claims_denied, sum(claims_paid)::int AS claims_paid,
  sum(claims_paid_cents)::bigint AS claims_paid_cents`;

/**
 * The store's totals of each day in [from, from + span), oldest first; a day without any movement
 * is absent. `from` is YYYY-MM-DD (UTC); `span` a PostgreSQL interval ('1 month', '90 days'), so the
 * end is computed there (the month after 9999-12 has no ISO 8601 text).
 */
export async function readDailyTotals(db: Database, storeId: string, from: string, span: string): Promise<DailyTotals[]> {
  const rows = await db.$queryRaw<DailyTotalsRow[]>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, ${SLOTS_SUMMED}
      FROM store_daily_totals
     WHERE store_id = ${storeId}::uuid AND day >= ${from}::date AND day < (${from}::date + ${span}::interval)::date
     GROUP BY day
     ORDER BY day`;
  return rows.map(fromRow);
}

/**
 * The days on which the store's totals differ from its rows' own aggregate, with both versions:
 * empty when they agree. For the tests and for an operator's check after a repair.
 */
export async function dailyTotalsDrift(db: Database, storeId: string): Promise<Array<{ day: string; kept: DailyTotals | null; fromRows: DailyTotals | null }>> {
  const rows = await db.$queryRaw<Array<{ day: string; kept: DailyTotalsRow | null; from_rows: DailyTotalsRow | null }>>`
    WITH kept AS (
      SELECT day, ${SLOTS_SUMMED}
        FROM store_daily_totals WHERE store_id = ${storeId}::uuid GROUP BY day
        -- A day whose movements cancelled out (an order re-dated away) keeps zero rows: not a difference.
      HAVING bool_or(premium_count <> 0 OR premium_cents <> 0 OR repricing_count <> 0 OR repricing_cents <> 0
             OR reversal_count <> 0 OR reversal_cents <> 0 OR order_count <> 0 OR protected_order_count <> 0
             OR claims_filed <> 0 OR claims_approved <> 0 OR claims_denied <> 0 OR claims_paid <> 0 OR claims_paid_cents <> 0)
    ), from_rows AS (
      SELECT day, premium_count, premium_cents, repricing_count, repricing_cents, reversal_count, reversal_cents,
             order_count, protected_order_count, claims_filed, claims_approved, claims_denied, claims_paid, claims_paid_cents
        FROM store_daily_totals_from_sources WHERE store_id = ${storeId}::uuid
    )
    SELECT to_char(COALESCE(k.day, r.day), 'YYYY-MM-DD') AS day,
           CASE WHEN k.day IS NULL THEN NULL ELSE to_jsonb(k) || jsonb_build_object('day', to_char(k.day, 'YYYY-MM-DD')) END AS kept,
           CASE WHEN r.day IS NULL THEN NULL ELSE to_jsonb(r) || jsonb_build_object('day', to_char(r.day, 'YYYY-MM-DD')) END AS from_rows
      FROM kept k FULL JOIN from_rows r ON r.day = k.day
     WHERE k IS DISTINCT FROM r
     ORDER BY 1`;
  return rows.map((row) => ({ day: row.day, kept: row.kept && fromRow(row.kept), fromRows: row.from_rows && fromRow(row.from_rows) }));
}

/**
 * Recomputes the store's totals from its rows, in one transaction that holds the store's writers
 * until it commits: after rows were loaded with the triggers off, or as a repair.
 */
export async function rebuildDailyTotals(db: Database, storeId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT rebuild_store_daily_totals(${storeId}::uuid)`;
  });
}
