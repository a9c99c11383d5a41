// Money on the wire (README, "Money"): order and shipment amounts are JSON numbers of major units
// with at most two decimals, quote amounts strings of major units ("125.00"). Binary floating point
// cannot hold most decimals exactly (1.15 * 3 is 3.4499999999999997), so keep amounts as integer
// cents in your own arithmetic and convert at the edge with these.

const MAJOR_UNITS = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

function checkCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a whole number of cents (got ${String(cents)}).`);
}

/** Integer cents as an order or shipment amount: toAmount(1999) === 19.99, the double nearest 19.99. */
export function toAmount(cents: number): number {
  checkCents(cents);
  return cents / 100; // a correctly rounded division: the nearest double to the two-decimal value
}

/** Integer cents as a quote amount, a string of major units: toAmountString(1999) === '19.99'. */
export function toAmountString(cents: number): string {
  checkCents(cents);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * An amount of the API (a number such as 19.99, or a quote string such as '19.99') as integer
 * cents: 1999. Throws a RangeError for more than two decimals, which is what float arithmetic
 * leaves behind (0.1 + 0.2 is 0.30000000000000004): do such sums in cents.
 */
export function toCents(amount: number | string): number {
  const text = typeof amount === 'number' ? String(amount) : amount;
  const match = typeof amount === 'number' && !Number.isFinite(amount) ? null : MAJOR_UNITS.exec(text);
  if (match === null) throw new RangeError(`${JSON.stringify(text)} is not an amount with at most two decimals.`);
  const [, sign, whole = '0', fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new RangeError(`${text} is too large to count in cents exactly.`);
  return sign === '-' ? -cents : cents;
}
