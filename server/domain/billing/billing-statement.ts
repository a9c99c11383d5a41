// Billing statements: one calendar month (UTC) of a store's premium ledger, summed in integer cents.
// An entry counts in the month of its effective date; the statement's net is exactly the sum of the
// month's entries, read from the store's daily totals, which always equal them (daily-totals.ts).
// Only live data exists in the ledger: callers with a test key never get here.
import type { Database } from '../../db/client.js';
import { AppError, DAY_MS } from '../kernel/index.js';
import { readDailyTotals, type DailyTotals } from './daily-totals.js';
import type { Scope } from '../access/index.js';

export interface BillingCreditWeekRecord {
  /** ISO 8601 week, e.g. 2026-W46. */
  week: string;
  /** That week's Monday, YYYY-MM-DD. */
  startsOn: string;
  count: number;
  /** Positive: the reversals of this week inside the month, negated. */
  totalCents: number;
}

export interface BillingStatementRecord {
  storeId: string;
  month: string;
  premiums: { count: number; totalCents: number };
  /** Signed. */
  repricings: { count: number; totalCents: number };
  /** Positive; weeks oldest first. */
  credits: { count: number; totalCents: number; weeks: BillingCreditWeekRecord[] };
  /** premiums + repricings - credits: the sum of the month's ledger entries. */
  netCents: number;
  /** The month's claims, each counted in the month its event happened. */
  claims: { filed: number; approved: number; denied: number; paid: number; paidTotalCents: number };
  /** Claims paid over net premium, to four decimals; null when the net premium is zero or less. */
  lossRatio: number | null;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * Midnight UTC of a calendar day. Date.UTC reads the years 0 to 99 as 1900 to 1999, so the year is
 * set on its own. A month past 11 rolls over into the next year.
 */
function utcMidnight(year: number, monthIndex: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date;
}

/** The month's half-open UTC interval [start, end): end is the first instant of the next month. */
export function monthBounds(month: string): { start: Date; end: Date } {
  const match = MONTH.exec(month);
  const year = Number(match?.[1]);
  if (!match || year < 1) {
    throw new AppError('invalid_request', 'The month must be YYYY-MM.', [{ field: 'month', message: 'must be YYYY-MM, from 0001-01 to 9999-12' }]);
  }
  const monthIndex = Number(match[2]) - 1;
  return { start: utcMidnight(year, monthIndex, 1), end: utcMidnight(year, monthIndex + 1, 1) };
}

export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * The ISO 8601 week of an instant, read in UTC: weeks start on Monday, and a week belongs to the
 * year that holds its Thursday (so week 1 is the week with the year's first Thursday, and the days
 * around New Year may belong to the neighbouring year's week).
 */
export function isoWeek(instant: Date): { week: string; startsOn: string } {
  const day = utcMidnight(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()).getTime();
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  const monday = day - sinceMonday * DAY_MS;
  const thursday = new Date(monday + 3 * DAY_MS);
  const isoYear = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - utcMidnight(isoYear, 0, 1).getTime()) / (7 * DAY_MS)) + 1;
  return { week: `${String(isoYear).padStart(4, '0')}-W${String(week).padStart(2, '0')}`, startsOn: isoDate(new Date(monday)) };
}

/** A cents sum from PostgreSQL (bigint) as a number, refusing one that a double cannot hold exactly. */
function centsNumber(cents: bigint): number {
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`ledger sum ${cents} is beyond the exact range of a number`);
  }
  return Number(cents);
}

export async function billingStatement(db: Database, scope: Scope, month: string): Promise<BillingStatementRecord> {
  return statementOfDays(scope.store.id, month, await monthDailyTotals(db, scope.store.id, month));
}

/** The month's daily totals (daily-totals.ts): at most 31 days, whatever the store's history. */
export async function monthDailyTotals(db: Database, storeId: string, month: string): Promise<DailyTotals[]> {
  return readDailyTotals(db, storeId, isoDate(monthBounds(month).start), '1 month');
}

/** The statement of a month from its daily totals. The ISO weeks are formed from the days, so their rule lives in one place (isoWeek). */
export function statementOfDays(storeId: string, month: string, days: readonly DailyTotals[]): BillingStatementRecord {
  let premiumCount = 0;
  let premiumCents = 0n;
  let repricingCount = 0;
  let repricingCents = 0n;
  let creditCount = 0;
  let reversalCents = 0n;
  const claims = { filed: 0, approved: 0, denied: 0, paid: 0 };
  let paidCents = 0n;
  const weeks = new Map<string, { startsOn: string; count: number; reversalCents: bigint }>();
  for (const day of days) {
    premiumCount += day.premiumCount;
    premiumCents += day.premiumCents;
    repricingCount += day.repricingCount;
    repricingCents += day.repricingCents;
    creditCount += day.reversalCount;
    reversalCents += day.reversalCents;
    if (day.reversalCount > 0) {
      const { week, startsOn } = isoWeek(new Date(`${day.day}T00:00:00Z`));
      const bucket = weeks.get(week) ?? { startsOn, count: 0, reversalCents: 0n };
      bucket.count += day.reversalCount;
      bucket.reversalCents += day.reversalCents;
      weeks.set(week, bucket);
    }
    claims.filed += day.claimsFiled;
    claims.approved += day.claimsApproved;
    claims.denied += day.claimsDenied;
    claims.paid += day.claimsPaid;
    paidCents += day.claimsPaidCents;
  }

  const netCents = centsNumber(premiumCents + repricingCents + reversalCents);
  const paidTotalCents = centsNumber(paidCents);
  return {
    storeId,
    month,
    premiums: { count: premiumCount, totalCents: centsNumber(premiumCents) },
    repricings: { count: repricingCount, totalCents: centsNumber(repricingCents) },
    credits: {
      count: creditCount,
      totalCents: centsNumber(-reversalCents),
      weeks: [...weeks]
        .sort(([, a], [, b]) => a.startsOn.localeCompare(b.startsOn))
        .map(([week, bucket]) => ({ week, startsOn: bucket.startsOn, count: bucket.count, totalCents: centsNumber(-bucket.reversalCents) })),
    },
    netCents,
    claims: { ...claims, paidTotalCents },
    lossRatio: netCents > 0 ? Math.round((paidTotalCents / netCents) * 10_000) / 10_000 : null,
  };
}

export interface MonthLedgerEntry {
  effectiveAt: Date;
  sourceOrderId: string;
  reason: 'booking' | 'repricing' | 'reversal';
  amountCents: number;
}

/** The month's ledger entries of the store, oldest first: what its statement sums (the CSV export). */
export async function monthLedgerEntries(db: Database, scope: Scope, month: string): Promise<MonthLedgerEntry[]> {
  const storeId = scope.store.id;
  const { start } = monthBounds(month);
  const rows = await db.$queryRaw<Array<{ effective_at: Date; source_order_id: string; reason: MonthLedgerEntry['reason']; amount_cents: bigint }>>`
    SELECT e.effective_at, o.source_order_id, e.reason::text AS reason, e.amount_cents
      FROM premium_ledger_entries e JOIN orders o ON o.id = e.order_id AND o.store_id = e.store_id
     WHERE e.store_id = ${storeId}::uuid
       AND e.effective_at >= ${start.toISOString()}::timestamptz
       AND e.effective_at < ${start.toISOString()}::timestamptz + interval '1 month'
     ORDER BY e.effective_at, e.id`;
  return rows.map((row) => ({ effectiveAt: row.effective_at, sourceOrderId: row.source_order_id, reason: row.reason, amountCents: Number(row.amount_cents) }));
}
