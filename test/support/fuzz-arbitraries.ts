// Arbitraries for the property-based tests of test/fuzz.test.ts, derived from the contract's zod
// schemas with zod-fast-check (the INPUT side: several schemas transform), plus the corruptions that
// turn a valid body into an invalid one.
import fc from 'fast-check';
import type { ZodTypeAny } from 'zod';
import { ZodFastCheck } from 'zod-fast-check';
import { AddressVerificationRequest } from '../../contract/addresses.js';
import { CodePointString, isStorableInstant } from '../../contract/common.js';
import { MAX_AMOUNT_CENTS, RestAmountNumber } from '../../contract/money.js';
import { TrackingNumber } from '../../contract/shipments.js';

// ---- Walking a zod schema ----------------------------------------------------------------------

interface ZodDefLike {
  typeName?: string;
  [key: string]: unknown;
}
const defOf = (schema: ZodTypeAny): ZodDefLike => schema._def as ZodDefLike;

/** The direct sub-schemas of a schema, for the zod types the contract uses. */
function childSchemas(schema: ZodTypeAny): ZodTypeAny[] {
  const def = defOf(schema);
  switch (def.typeName) {
    case 'ZodObject':
      return Object.values((def.shape as () => Record<string, ZodTypeAny>)());
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodReadonly':
      return [def.innerType as ZodTypeAny];
    case 'ZodArray':
      return [def.type as ZodTypeAny];
    case 'ZodEffects':
      return [def.schema as ZodTypeAny];
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return [...(def.options as Iterable<ZodTypeAny>)];
    case 'ZodRecord':
      return [def.keyType as ZodTypeAny, def.valueType as ZodTypeAny];
    case 'ZodTuple':
      return [...(def.items as ZodTypeAny[])];
    case 'ZodIntersection':
      return [def.left as ZodTypeAny, def.right as ZodTypeAny];
    case 'ZodPipeline':
      return [def.in as ZodTypeAny, def.out as ZodTypeAny];
    case 'ZodBranded':
      return [def.type as ZodTypeAny];
    default:
      return [];
  }
}

function allSchemaNodes(root: ZodTypeAny, seen = new Set<ZodTypeAny>()): Set<ZodTypeAny> {
  if (seen.has(root)) return seen;
  seen.add(root);
  for (const child of childSchemas(root)) allSchemaNodes(child, seen);
  return seen;
}

interface StringCheck {
  kind: string;
  value?: number;
  regex?: RegExp;
}
const stringChecks = (schema: ZodTypeAny): StringCheck[] => (defOf(schema).checks as StringCheck[] | undefined) ?? [];

// ---- Rules the schemas leave to the server -----------------------------------------------------

/**
 * What a valid body must also respect, beyond its zod schema (each was found as a 500 and is now
 * refused with a 400 by the server; fuzz.test.ts checks those 400s on purpose):
 * - no U+0000 and no lone UTF-16 surrogate in any string: PostgreSQL text cannot hold the first,
 *   and would store the second as U+FFFD, so two different ids would become one;
 * - date-times whose instant, in UTC, falls in the years 0001 to 9999;
 * - an order.placed cart (sum of unit_price_cents x quantity) of at most 9,999,999,999.99.
 */
export const MAX_CART_CENTS = 999_999_999_999;
export const isStorableText = (value: string): boolean => !value.includes('\u0000') && value.isWellFormed();
/** Whether an order.placed's lines add up to at most the ceiling. */
export function cartWithinCeiling(lines: ReadonlyArray<{ unit_price_cents: number; quantity: number }>): boolean {
  return lines.reduce((sum, line) => sum + BigInt(line.unit_price_cents) * BigInt(line.quantity), 0n) <= BigInt(MAX_CART_CENTS);
}

// ---- Strings -----------------------------------------------------------------------------------

/**
 * Hostile fragments: control characters (NUL included), bidi overrides, BOMs, combining marks,
 * astral-plane characters, quoting and escaping characters, things that look like other types.
 */
export const NASTY_FRAGMENTS = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u0007',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\uffff',
  'é',
  'e\u0301',
  'Ω',
  'ß',
  'İ',
  '中文',
  '😀',
  '👩‍👩‍👧',
  '𝕏',
  '"',
  "'",
  '\\',
  '/',
  '%',
  '%00',
  '%s',
  '..',
  '<script>',
  '${x}',
  "' OR 1=1 --",
  '\r\n',
  '\t',
  ' ',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  '__proto__',
  'constructor',
] as const;

const nastyString = fc.array(fc.constantFrom(...NASTY_FRAGMENTS), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));

/** Any string, biased towards printable ASCII but with full Unicode and hostile fragments mixed in. */
export function anyString(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
      { weight: 2, arbitrary: fc.fullUnicodeString({ minLength, maxLength }) },
      { weight: 2, arbitrary: nastyString },
      { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), nastyString, fc.string({ maxLength: 8 })).map((parts) => parts.join('')) },
    )
    .filter(isStorableText);
}

/**
 * ISO 8601 date-times with a zone, years 0000 to 9999, as zod's datetime({ offset: true }) takes
 * them: with or without fractional seconds, Z or an offset (whole, half and quarter hours).
 */
const isoDateTime: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
      fc.constantFrom(new Date('2026-11-22T10:00:00Z'), new Date('0000-01-01T00:00:00Z'), new Date('9999-12-31T23:59:59Z'), new Date('1970-01-01T00:00:00Z')),
    ),
    fc.constantFrom('', '.0', '.5', '.123', '.123456789'),
    fc.oneof(fc.constant('Z'), fc.constantFrom('+00:00', '-00:00', '+01:00', '-12:00', '+14:00', '+05:30', '+05:45', '-03:30')),
  )
  .map(([date, fraction, zone]) => `${date.toISOString().slice(0, 19)}${fraction}${zone}`);

/** Strings the database cannot store: a NUL or a lone surrogate somewhere in ordinary text. */
export const unstorableText: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 6 }), fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', 'a\u0000b', '\ud83d'), fc.string({ maxLength: 6 }))
  .map((parts) => parts.join(''));

/** Date-times at the very edges of the years 0001 to 9999 in UTC, which must be taken and stored. */
export const edgeDateTime: fc.Arbitrary<string> = fc.constantFrom(
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00.000-14:00',
  '0001-01-01T23:59:59+05:30',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59+14:00',
);

/** Date-times that zod's format admits but whose instant is outside those years: each is a 400. */
export const outOfRangeDateTime: fc.Arbitrary<string> = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00+00:01',
  '0001-01-01T10:00:00+14:00',
  '9999-12-31T23:59:59-00:01',
  '9999-12-31T20:00:00-12:00',
);

// ---- zod-fast-check with the contract's refinements ------------------------------------------------

/** A JSON number of major units with at most two decimals: an integer number of cents over 100. */
export const restAmount: fc.Arbitrary<number> = fc
  .oneof(
    fc.integer({ min: 0, max: 100_000 }),
    fc.integer({ min: 0, max: MAX_AMOUNT_CENTS }),
    fc.constantFrom(0, 1, 99, 100, 12_550, MAX_AMOUNT_CENTS),
  )
  .map((cents) => cents / 100);

/** Shapes of real tracking numbers, and free text that normalises to letters and digits. */
const trackingNumber = fc
  .oneof(
    fc.constantFrom('1Z999AA10123456784', '1Z 999 AA1 01 2345 6784', '9400111899223197428490', 'EA123456785US', 'SBXDELIVERED', 'sbx-in-transit'),
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 -]{0,40}$/),
    fc.stringMatching(/^[A-Z0-9]{60,99}$/),
  )
  .filter((value) => TrackingNumber.safeParse(value).success);

const emailAddress = fc.stringMatching(/^[A-Za-z0-9_+-][A-Za-z0-9_'+-]{0,15}(\.[A-Za-z0-9_+-]{1,8})?@[A-Za-z0-9][A-Za-z0-9-]{0,10}\.[A-Za-z]{2,6}$/);

/**
 * A ZodFastCheck that can generate every body schema of the contract. zod-fast-check generates a
 * ZodEffects (a .refine, .superRefine or .transform) by generating its inner schema and FILTERING by
 * the whole schema, and a string with a check it does not know (regex) likewise; when almost nothing
 * passes, it gives up with a generation error. Those schemas get an override here:
 *
 * - RestAmount (its own check: at most two decimals, 0 to 9,999,999,999.99): doubles almost never
 *   have two decimals, so amounts are generated as integer cents divided by 100 (rounded to cents).
 * - TrackingNumber (`.transform` then `.refine`: letters and digits once spaces and dashes are
 *   removed): random text is almost never that, so it is generated from that alphabet.
 * - Regex strings (quote amounts, country codes): generated from the regex with fc.stringMatching,
 *   then filtered by the string schema (for its length checks).
 * - Emails: zod's email regex refuses most of the special characters fc.emailAddress uses (RFC
 *   5322), and zod-fast-check drops the max length next to an email check; generated from zod's
 *   alphabet instead.
 * - AddressVerificationRequest (`.superRefine`: street_address1, and a zip or both city and
 *   province, on address or shipping_details): the generated object is completed so the refinement
 *   holds, rather than discarding the many random objects that fail it.
 * - Plain strings: zod-fast-check only generates printable ASCII; these mix in full Unicode and
 *   hostile fragments (NUL, bidi controls, emoji, quotes), still within the schema's length checks.
 */
export function contractFastCheck(roots: readonly ZodTypeAny[]): ZodFastCheck {
  let zfc = ZodFastCheck();
  const nodes = new Set<ZodTypeAny>();
  for (const root of roots) allSchemaNodes(root, nodes);
  for (const node of nodes) {
    const def = defOf(node);
    if (node === TrackingNumber) {
      zfc = zfc.override(node, trackingNumber);
    } else if (node instanceof RestAmountNumber) {
      // RestAmount.describe(...) copies the schema as its own class: every copy is an amount.
      zfc = zfc.override(node, restAmount);
    } else if (node === AddressVerificationRequest) {
      zfc = zfc.override(node, (inner) => addressVerificationBody(inner));
    } else if (node instanceof CodePointString) {
      // The contract's length-limited strings (contract/common.ts string and text): zod's checks,
      // the limit counted in code points, and not blank, judged by the whole schema.
      const max = node.codePointMax;
      const kinds = new Set(stringChecks(node).map((check) => check.kind));
      const min = stringChecks(node).find((check) => check.kind === 'min')?.value ?? 0;
      const valid = (value: string) => node.safeParse(value).success;
      zfc = zfc.override(node, (kinds.has('email') ? emailAddress : anyString(max, min)).filter(valid));
    } else if (def.typeName === 'ZodString') {
      const checks = stringChecks(node);
      const kinds = new Set(checks.map((check) => check.kind));
      const valid = (value: string) => node.safeParse(value).success;
      const regex = checks.find((check) => check.kind === 'regex')?.regex;
      if (kinds.has('datetime')) {
        // zod-fast-check's own date-times have neither fraction variants nor half-hour offsets.
        zfc = zfc.override(node, isoDateTime.filter((value) => valid(value) && isStorableInstant(new Date(value))));
      } else if (regex) {
        zfc = zfc.override(node, fc.stringMatching(regex).filter(valid));
      } else if (kinds.has('email')) {
        zfc = zfc.override(node, emailAddress.filter(valid));
      } else if ([...kinds].every((kind) => ['min', 'max', 'length', 'trim'].includes(kind))) {
        const min = checks.find((check) => check.kind === 'min' || check.kind === 'length')?.value ?? 0;
        const max = checks.find((check) => check.kind === 'max' || check.kind === 'length')?.value ?? min + 40;
        zfc = zfc.override(node, anyString(max, min).filter(valid));
      }
    }
  }
  return zfc;
}

function addressVerificationBody(zfc: ZodFastCheck): fc.Arbitrary<unknown> {
  const inner = defOf(AddressVerificationRequest).schema as ZodTypeAny;
  const filled = (value: unknown, fallback: string) =>
    typeof value === 'string' && value.trim() !== '' ? value : fallback;
  return fc
    .tuple(zfc.inputOf(inner), fc.constantFrom('address', 'shipping_details'), fc.boolean())
    .map(([generated, where, withZip]) => {
      const body = { ...(generated as Record<string, Record<string, unknown> | undefined>) };
      const key = body.address ? 'address' : body.shipping_details ? 'shipping_details' : where;
      const address: Record<string, unknown> = { ...body[key] };
      address.street_address1 = filled(address.street_address1, '1600 Amphitheatre Pkwy');
      if (withZip) address.zip = filled(address.zip, '94043');
      else {
        address.city = filled(address.city, 'Mountain View');
        address.province = filled(address.province, 'CA');
      }
      body[key] = address;
      return body;
    })
    .filter((body) => AddressVerificationRequest.safeParse(body).success);
}

/** What a value becomes on the wire (undefined dropped, NaN and infinities null, -0 zero). */
export const onTheWire = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

// ---- Corruptions ---------------------------------------------------------------------------------

export type JsonPath = Array<string | number>;

/** Every path inside a JSON value (the root excluded), depth first. */
export function pathsOf(value: unknown, prefix: JsonPath = []): JsonPath[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...prefix, index], ...pathsOf(item, [...prefix, index])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
  }
  return [];
}

export function getAt(value: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((node, segment) => (node as Record<string | number, unknown>)[segment], value);
}

export function setAt(value: unknown, path: JsonPath, replacement: unknown, remove = false): unknown {
  const copy = structuredClone(value);
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown> | unknown[];
  const last = path[path.length - 1] as string | number;
  if (remove) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last as string];
  } else {
    (parent as Record<string | number, unknown>)[last] = replacement;
  }
  return copy;
}

export type Corruption =
  | { kind: 'drop'; pick: number }
  | { kind: 'retype'; pick: number; replacement: unknown }
  | { kind: 'third-decimal'; pick: number; digits: number }
  | { kind: 'negative'; pick: number }
  | { kind: 'overlong'; pick: number; length: number }
  | { kind: 'unknown-field'; pick: number; name: string }
  | { kind: 'whole-body'; replacement: unknown };

export const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('retype' as const),
    pick: fc.nat(),
    replacement: fc.constantFrom<unknown>('text', '', 0, 1.5, -1, true, false, null, [], {}, ['x'], { a: 1 }, '125.00', 1e21),
  }),
  fc.record({ kind: fc.constant('third-decimal' as const), pick: fc.nat(), digits: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ kind: fc.constant('negative' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('overlong' as const), pick: fc.nat(), length: fc.constantFrom(256, 1_001, 5_001, 20_000) }),
  fc.record({ kind: fc.constant('unknown-field' as const), pick: fc.nat(), name: fc.constantFrom('extra', 'source_order_id', 'id', '__proto__') }),
  fc.record({
    kind: fc.constant('whole-body' as const),
    replacement: fc.constantFrom<unknown>(null, [], 'ARRAY_OF_BODY', 'text', 42, true, {}),
  }),
);

/** The value with the corruption applied, or null when it does not apply to this value. */
export function corrupt(value: unknown, how: Corruption): unknown {
  if (how.kind === 'whole-body') return how.replacement === 'ARRAY_OF_BODY' ? [value] : how.replacement;
  const paths = pathsOf(value);
  const numberPaths = paths.filter((path) => typeof getAt(value, path) === 'number');
  const stringPaths = paths.filter((path) => typeof getAt(value, path) === 'string');
  const amountStringPaths = stringPaths.filter((path) => /^\d{1,10}(\.\d{1,2})?$/.test(getAt(value, path) as string));
  const objectPaths: JsonPath[] = [[], ...paths].filter((path) => {
    const node = getAt(value, path);
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });
  const pick = <T>(list: T[], index: number): T | null => (list.length === 0 ? null : (list[index % list.length] as T));
  switch (how.kind) {
    case 'drop': {
      const path = pick(paths, how.pick);
      return path === null ? null : setAt(value, path, undefined, true);
    }
    case 'retype': {
      const path = pick(paths, how.pick);
      return path === null ? null : setAt(value, path, how.replacement);
    }
    case 'third-decimal': {
      // A JSON number (12.5 -> 12.503) or a quote's amount string ("125" -> "125.003").
      const path = pick([...numberPaths, ...amountStringPaths], how.pick);
      if (path === null) return null;
      const current = getAt(value, path) as number | string;
      const [whole = '0', fraction = ''] = (typeof current === 'number' ? current.toFixed(2) : current).split('.');
      const text = `${whole}.${fraction.padEnd(2, '0')}${how.digits}`;
      return setAt(value, path, typeof current === 'number' ? Number(text) : text);
    }
    case 'negative': {
      const path = pick([...numberPaths, ...amountStringPaths], how.pick);
      if (path === null) return null;
      const current = getAt(value, path) as number | string;
      if (typeof current === 'string') return setAt(value, path, `-${current}`);
      return setAt(value, path, current === 0 ? -0.01 : -Math.abs(current));
    }
    case 'overlong': {
      const path = pick(stringPaths, how.pick);
      return path === null ? null : setAt(value, path, `${getAt(value, path) as string}${'x'.repeat(how.length)}`);
    }
    case 'unknown-field': {
      const path = pick(objectPaths, how.pick);
      if (path === null) return null;
      return setAt(value, [...path, how.name], 'unexpected');
    }
  }
}

/** Random JSON texts and bytes sent with Content-Type: application/json. */
export const garbageBody: fc.Arbitrary<{ label: string; raw: Buffer }> = fc.oneof(
  fc.jsonValue().map((value) => ({ label: 'random JSON', raw: Buffer.from(JSON.stringify(value) ?? 'null', 'utf8') })),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({ label: 'random bytes', raw: Buffer.from(bytes) })),
  fc.fullUnicodeString({ minLength: 1, maxLength: 200 }).map((text) => ({ label: 'random text', raw: Buffer.from(text, 'utf8') })),
  fc
    .constantFrom('{', '[', '{"a":', '{"a":1,}', "{'a':1}", '{"a":NaN}', '\ufeff{}', 'nul', '{"a":"\\ud800"}', '1e999', '"\\u0000"', '{"__proto__":{"x":1}}')
    .map((text) => ({ label: 'malformed JSON', raw: Buffer.from(text, 'utf8') })),
);

/** Over the 1 MiB limit: 413, in the error format (run once per route, as an example). */
export const oversizedBody = { label: 'a body over 1 MiB', raw: Buffer.from(JSON.stringify({ a: 'x'.repeat(1024 * 1024) }), 'utf8') };

/** A path parameter: Unicode, slashes, percent signs, dot segments, very long values. */
export const hostilePathValue: fc.Arbitrary<string> = fc.oneof(
  fc.fullUnicodeString({ maxLength: 300 }).filter(isStorableText),
  anyString(120),
  fc.stringMatching(/^[/%.a-zA-Z0-9 ?#&=+;:@\\-]{0,60}$/),
  fc.constantFrom('', ' ', '.', '..', '%', '%2', '%ZZ', '%2F', '%E0%A4%A', '%C0%AF', '../../etc/passwd', 'a/b', '/', '//', '\\', '?', '#', '😀'),
  fc.constantFrom('\u0000', '%00', 'a%00b'),
  fc.integer({ min: 256, max: 4_000 }).map((length) => 'x'.repeat(length)),
);
