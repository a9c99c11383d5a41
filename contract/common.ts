// Schemas shared by several resources.
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { adaptForRoute, markDateTime, streetLinesAsFields } from './client-profile.js';

/**
 * The length of a string in Unicode code points: how JSON Schema's maxLength counts, so 200 emoji
 * fit a 255-character field (JavaScript's length counts UTF-16 units, two per emoji).
 */
export function codePointLength(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

export interface StringOptions {
  /** Refuse a value of white space only: an id or a name of " " identifies nothing. */
  notBlank?: boolean;
  /**
   * The field's description in the OpenAPI document. Given here, not by .describe(): that makes a
   * copy of the schema without the published maxLength.
   */
  description?: string;
}

interface CodePointStringDef extends z.ZodStringDef {
  codePoints: { max: number; notBlank: boolean };
}

/**
 * A zod string with the contract's own two checks run after zod's: at most `max` code points, and
 * optionally not blank. A subclass rather than a .superRefine(): a refinement wraps every string in
 * an effect that allocates its context, closures and path on each parse, and order create has
 * about twenty strings (docs/performance.md). It stays a ZodString to everything that reads the
 * schema: the OpenAPI generator, the route profile's reader and the fuzz tests.
 */
export class CodePointString extends z.ZodString {
  declare _def: CodePointStringDef;

  constructor(def: CodePointStringDef) {
    super(def);
  }

  get codePointMax(): number {
    return this._def.codePoints.max;
  }

  override _parse(input: z.ParseInput): z.ParseReturnType<string> {
    const result = super._parse(input) as z.SyncParseReturnType<string>;
    if (result.status === 'aborted') return result;
    const value = result.value;
    const { max, notBlank } = this._def.codePoints;
    // A string no longer than max in UTF-16 units is no longer in code points: skip the count.
    const tooLong = value.length > max && codePointLength(value) > max;
    const blank = notBlank && value.length > 0 && value.trim() === '';
    if (!tooLong && !blank) return result;
    const ctx = this._getOrReturnCtx(input);
    if (tooLong) z.addIssueToContext(ctx, { code: z.ZodIssueCode.custom, message: `must be at most ${max} characters` });
    if (blank) z.addIssueToContext(ctx, { code: z.ZodIssueCode.custom, message: 'must not be blank' });
    return z.DIRTY(value);
  }
}

/**
 * A string of at most `max` characters, counted in code points as the published maxLength says.
 * `base` carries the string's other checks (an email format, a minimum length).
 */
export function string(max: number, base: z.ZodString = z.string(), options: StringOptions = {}): CodePointString {
  const schema = new CodePointString({ ...base._def, codePoints: { max, notBlank: options.notBlank === true } });
  return extendApi(schema, {
    maxLength: max,
    // Not blank, as a pattern generators follow: at least one character that is not white space.
    ...(options.notBlank ? { pattern: '\\S' } : {}),
    ...(options.description === undefined ? {} : { description: options.description }),
  });
}

/** Required text: not empty, not blank, at most `max` characters. */
/** One of a fixed list, refused with the list itself: "must be one of a, b, c". */
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) });

export const text = (max: number, description?: string) =>
  string(max, z.string().min(1, 'must not be empty'), { notBlank: true, ...(description === undefined ? {} : { description }) });

/**
 * Whether an instant falls in the years 0001 to 9999 in UTC: what ISO 8601's four-digit years can
 * write and PostgreSQL can store (it has no year 0). Every date the service takes is held to it.
 */
export function isStorableInstant(instant: Date): boolean {
  const year = instant.getUTCFullYear();
  return !Number.isNaN(year) && year >= 1 && year <= 9999;
}

/**
 * An ISO 8601 date-time with an offset that PostgreSQL can store: zod's date-time check, then the
 * year range. A subclass for the same reason as CodePointString: no effect on every parse.
 */
export class DateTimeString extends z.ZodString {
  /**
   * zod's own pattern for this schema's one date-time check, built once: zod builds a new RegExp on
   * every parse. A string it matches, in the storable years, is valid without zod's pass; anything
   * else goes through zod, which words the issue.
   */
  readonly #pattern = (() => {
    const [check, ...others] = this._def.checks;
    return check?.kind === 'datetime' && others.length === 0 && !this._def.coerce ? z.datetimeRegex(check) : null;
  })();

  override _parse(input: z.ParseInput): z.ParseReturnType<string> {
    const value: unknown = input.data;
    if (this.#pattern !== null && typeof value === 'string' && this.#pattern.test(value) && isStorableInstant(new Date(value))) return z.OK(value);
    const result = super._parse(input) as z.SyncParseReturnType<string>;
    // As a refinement would: judged even when the format already failed, not when the type did.
    if (result.status === 'aborted' || isStorableInstant(new Date(result.value))) return result;
    z.addIssueToContext(this._getOrReturnCtx(input), { code: z.ZodIssueCode.custom, message: 'must fall between the years 0001 and 9999 in UTC' });
    return z.DIRTY(result.value);
  }
}

export const DateTime = markDateTime(
  new DateTimeString({
    ...z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-11-22T10:00:00Z' })._def,
  }),
);

export const Address = adaptForRoute(extendApi(
  z.object({
    street_address1: text(200, 'First street line: number and street.'),
    street_address2: string(200, z.string(), { description: 'Second street line: apartment, suite, unit.' }).nullable().optional(),
    city: text(100, 'City or town.'),
    province: string(100, z.string(), { description: 'State, province or region; for the US the two-letter code, e.g. CA.' }).optional(),
    zip: string(20, z.string(), { description: 'Postal code; for the US five digits, or ZIP+4.' }).optional(),
    country_code: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as US')
      .describe('ISO 3166-1 alpha-2 country code in capitals, e.g. US.'),
  }),
  {
    title: 'Address',
    description: 'A postal address. street_address1, city and country_code are required.',
    example: {
      street_address1: '1600 Amphitheatre Pkwy',
      street_address2: null,
      city: 'Mountain View',
      province: 'CA',
      zip: '94043',
      country_code: 'US',
    },
  },
), streetLinesAsFields);

/** Part of an address, for updates: given fields replace the stored ones. */
export const AddressPatch = adaptForRoute(extendApi(Address.partial(), { title: 'AddressPatch' }), streetLinesAsFields);
export type Address = z.infer<typeof Address>;
