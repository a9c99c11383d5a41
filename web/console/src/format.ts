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
