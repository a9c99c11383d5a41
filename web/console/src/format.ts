// How the console writes instants and money. Instants in the user's browser time zone (calendar days,
// which are UTC: components/calendar.ts); money exactly, from integer cents, never through a float.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const wholeDollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** Integer cents as US dollars: 123456 → "$1,234.56", -150 → "-$1.50". USD is the only currency. */
export function formatCents(cents: number): string {
  const magnitude = Math.abs(cents);
  const dollars = Math.trunc(magnitude / 100);
  const rest = magnitude - dollars * 100;
  return `${cents < 0 ? '-' : ''}$${wholeDollars.format(dollars)}.${String(rest).padStart(2, '0')}`;
}

/**
 * Cents from an amount the merchant API writes in major units (a billing statement's totals): the
 * number is the double nearest a two-decimal amount, so ×100 lands within far less than half a
 * cent of the integer and rounding recovers it exactly.
 */
export function centsOfMajor(amount: number): number {
  return Math.round(amount * 100);
}

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A file's size as people read it, in decimal units: 980 → "980 bytes", 245_312 → "245.3 kB", 2_400_000 → "2.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  // Below 999,950 bytes, kB: one more would round to "1,000 kB".
  if (bytes < 999_950) return `${oneDecimal.format(bytes / 1000)} kB`;
  return `${oneDecimal.format(bytes / 1_000_000)} MB`;
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An instant's calendar day in the user's time zone, e.g. "Nov 22, 2026". */
export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

/**
 * A major-unit amount as a form field shows it ("110.75"), from its exact cents: the merchant API's
 * 110.75 is a double, so it goes through cents rather than String(), which could write 110.7499….
 */
export function amountInputOf(major: number): string {
  const cents = centsOfMajor(major);
  const sign = cents < 0 ? '-' : '';
  const magnitude = Math.abs(cents);
  return `${sign}${Math.trunc(magnitude / 100)}.${String(magnitude % 100).padStart(2, '0')}`;
}

/**
 * What a person typed as an amount, as the number the API takes, or undefined when it is no amount
 * at all. A "$" and thousands separators are allowed. The decimals are not judged here: a third
 * one is sent as typed and the server names the field (it refuses, never rounds).
 */
export function majorOfInput(text: string): number | undefined {
  const cleaned = text.trim().replace(/^\$\s*/, '').replaceAll(',', '');
  return /^\d{1,10}(\.\d+)?$/.test(cleaned) ? Number(cleaned) : undefined;
}

const ratio = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** A loss ratio (0.375) as a percentage ("37.5%"), or "—" when there is none (no net premium). */
export function formatLossRatio(value: number | null): string {
  return value === null ? '—' : ratio.format(value);
}
