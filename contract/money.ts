// The money encodings at the edges (README, Concepts, "Money"), in one place. Inside the service every amount is an integer
// number of cents; these schemas turn the wire forms into cents on the way in, and the format
// functions turn cents back into the wire forms on the way out.
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { markAmount } from './client-profile.js';

/** 9,999,999,999.99: the largest amount the quote regex admits, used as the ceiling everywhere. */
export const MAX_AMOUNT_CENTS = 999_999_999_999;

/** Quote amounts are strings of major units. */
export const QUOTE_AMOUNT_PATTERN = /^\d{1,10}(\.\d{1,2})?$/;

/** Converts text already known to match QUOTE_AMOUNT_PATTERN (or the REST number text) to cents. */
export function majorTextToCents(text: string): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1250 -> "12.50" (quote responses). */
export function centsToMajorString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1250 -> 12.5 (REST numbers). Integer division by 100 yields the double nearest the decimal. */
export function centsToMajorNumber(cents: number): number {
  return cents / 100;
}

/** Decimal text of a JSON number, or null when it has more than two decimals or is out of range. */
function restNumberText(value: number): string | null {
  const text = String(value);
  // String() uses exponent notation only below 1e-6 (which has more than two decimals) or at
  // 1e21 and above (out of range), so any exponent means the amount is not acceptable.
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(text)) return null;
  return text;
}

/** A currency amount in a quote: a string of major units, e.g. "125.00". */
export const QuoteAmount = z
  .string({ required_error: 'is required', invalid_type_error: 'must be a string such as "125.00"' })
  .regex(QUOTE_AMOUNT_PATTERN, 'must be major units as a string with at most two decimals, e.g. "125.00"')
  .transform(majorTextToCents);

/**
 * A currency amount in an order or shipment: a JSON number of major units, at most two decimals,
 * read as integer cents. A subclass of zod's number rather than a refinement and a transform: each
 * of those is an effect that allocates its context and closures on every parse, and an order has
 * an amount per line (docs/performance.md). It stays a ZodNumber to the OpenAPI generator.
 */
export class RestAmountNumber extends z.ZodNumber {
  override _parse(input: z.ParseInput): z.ParseReturnType<number> {
    const result = super._parse(input) as z.SyncParseReturnType<number>;
    if (result.status !== 'valid') return result;
    const value = result.value;
    const outOfRange = value < 0 ? 'must not be negative' : value > MAX_AMOUNT_CENTS / 100 ? 'must be at most 9999999999.99' : null;
    const text = outOfRange === null ? restNumberText(value) : null;
    if (text === null) {
      const message = outOfRange ?? 'must have at most two decimal places (a third decimal is rejected, not rounded)';
      z.addIssueToContext(this._getOrReturnCtx(input), { code: z.ZodIssueCode.custom, message });
      return z.INVALID;
    }
    return z.OK(majorTextToCents(text));
  }
}

const restAmountSchema = markAmount(
  new RestAmountNumber({ ...z.number({ required_error: 'is required', invalid_type_error: 'must be a JSON number such as 125.5' })._def }),
);

/**
 * The rules above as the OpenAPI document states them. JSON Schema's multipleOf 0.01 cannot say
 * "two decimals" exactly: validators divide in binary floating point, and the linters themselves
 * refuse 141.23 as not a multiple of 0.01. So the extension x-max-decimal-places says it: the
 * decimal text of the number has at most two decimals (docs/openapi.md).
 */
const REST_AMOUNT_SCHEMA_RULES = { minimum: 0, maximum: MAX_AMOUNT_CENTS / 100, 'x-max-decimal-places': 2 };

export const RestAmount = extendApi(restAmountSchema, REST_AMOUNT_SCHEMA_RULES);

/**
 * A described REST amount. Given here, not by .describe(), which copies the schema without its
 * OpenAPI rules.
 */
export const restAmount = (description: string) => extendApi(restAmountSchema.describe(description), { ...REST_AMOUNT_SCHEMA_RULES, description });

/** A REST amount in a response (major units). */
export const RestAmountOut = z.number();

/** USD only; any other currency is a 400. */
export const Currency = z.literal('USD', {
  errorMap: () => ({ message: 'only USD is supported' }),
});
