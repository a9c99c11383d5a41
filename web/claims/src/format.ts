// How the page writes instants and calendar days: in the shopper's own time zone and language.
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// A calendar day (YYYY-MM-DD) is the carrier's day: written as it is, never shifted by a time zone.
const calendarDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export const formatDate = (iso: string) => date.format(new Date(iso));
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

export function formatCalendarDay(day: string): string {
  const parsed = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? day : calendarDay.format(parsed);
}

// Money is USD only. It is written as the console writes it ("$1,234.56") whatever the shopper's
// language, so the amount reads the same as on the store's side.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** An amount in US dollars (major units, as the API answers it): 24.99 → "$24.99". */
export const formatMoney = (amount: number) => usd.format(amount);
