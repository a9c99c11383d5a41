// Calendar months and days as the API writes them (YYYY-MM, YYYY-MM-DD). They are UTC dates (a
// statement's month, a ledger day, an ISO week's Monday), so they are written in UTC: through the
// browser's time zone, 2026-11-01 would read as 31 October anywhere west of Greenwich.
import { BILLING_MONTH_PATTERN } from '../../../../contract/billing.js';

const monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayName = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A month the API takes: YYYY-MM from 0001-01 to 9999-12. */
export function isMonth(value: unknown): value is string {
  return typeof value === 'string' && BILLING_MONTH_PATTERN.test(value);
}

/** This month in UTC, as the API counts months. */
export function currentMonth(now: Date = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** The instant a UTC calendar date starts. setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999. */
function utcDate(year: number, monthIndex: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date;
}

function monthStart(month: string): Date {
  return utcDate(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1);
}

function dayStart(day: string): Date {
  return utcDate(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
}

const isoDay = (date: Date) => `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;

/** The month `by` months from `month`, or null outside the months the API takes. */
export function shiftMonth(month: string, by: number): string | null {
  const start = monthStart(month);
  start.setUTCMonth(start.getUTCMonth() + by);
  const shifted = isoDay(start).slice(0, 7);
  return isMonth(shifted) ? shifted : null;
}

/** "November 2026". */
export function formatMonth(month: string): string {
  return monthName.format(monthStart(month));
}

/** A calendar day (YYYY-MM-DD), e.g. "Nov 9, 2026". */
export function formatDay(day: string): string {
  return dayName.format(dayStart(day));
}

/** The day `by` days from `day` (YYYY-MM-DD). */
export function shiftDay(day: string, by: number): string {
  const date = dayStart(day);
  date.setUTCDate(date.getUTCDate() + by);
  return isoDay(date);
}

/** Seconds since the epoch at the start of a UTC day: the x values of a time chart. */
export function dayToUnixSeconds(day: string): number {
  return dayStart(day).getTime() / 1000;
}

/** The month's first and last days (YYYY-MM-DD). */
export function monthDays(month: string): { first: string; last: string } {
  const next = shiftMonth(month, 1);
  return { first: `${month}-01`, last: next === null ? `${month}-31` : shiftDay(`${next}-01`, -1) };
}

export interface MonthSearch {
  month?: string | undefined;
}

/**
 * A route's `month` search parameter: a month the API takes, or undefined (this month). Junk is
 * set to undefined, not left out: the router merges a route's answer over the URL's raw search, so
 * a key left out would keep the junk.
 */
export function validateMonthSearch(search: Record<string, unknown>): MonthSearch {
  return { month: isMonth(search.month) ? search.month : undefined };
}

/**
 * A day in the user's own time zone, as a date input writes it (YYYY-MM-DD): what they call today
 * (or `date`'s day) when they pick a day, unlike the UTC days above.
 */
export function localDay(date: Date = new Date()): string {
  return `${String(date.getFullYear()).padStart(4, '0')}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
