// The tolerant reader of the `route` client profile (docs/route-compatibility.md): Route's own
// store plugins send what PHP's json_encode makes of their platform's data: ids and quantities as
// JSON integers or numeric strings, amounts as decimal strings ("24.990000") or as floats with
// binary artefacts (6.269999999999996), dates without an offset, null for "not set", street lines
// as an array. A store that declared `route` has its bodies rewritten into the documented wire
// forms here, once, before the contract's own validation, which then judges them as it judges
// anybody's. A `standard` store never passes through this file.
//
// The rewrite is directed by the contract's schemas: each value is read as the field it lands in
// expects (a string field takes an integer as its decimal text, an amount field takes an exact
// decimal string). Nothing is ever rounded: a real third decimal stays a third decimal and is
// refused by the contract as for every store.
import { z } from 'zod';

/** Object schemas with a rewrite of their own, run before their fields are read. */
const objectAdapters = new WeakMap<z.ZodTypeAny, (value: Record<string, unknown>) => Record<string, unknown>>();

/**
 * How this reader takes a leaf schema's values, kept in the schema's definition: zod copies the
 * definition into every copy it makes (.describe, .nullable's inner type), so each copy carries it.
 */
interface RouteReadingDef {
  routeReading?: 'amount' | 'date_time';
}

const routeReadingOf = (schema: z.ZodTypeAny): RouteReadingDef['routeReading'] => (schema._def as RouteReadingDef).routeReading;

/** Declares that a schema reads REST amounts. */
export function markAmount<T extends z.ZodTypeAny>(schema: T): T {
  (schema._def as RouteReadingDef).routeReading = 'amount';
  return schema;
}

/** Declares that a schema reads ISO 8601 date-times. */
export function markDateTime<T extends z.ZodTypeAny>(schema: T): T {
  (schema._def as RouteReadingDef).routeReading = 'date_time';
  return schema;
}

/** Gives an object schema a rewrite of its own under the route profile. */
export function adaptForRoute<T extends z.ZodTypeAny>(schema: T, adapter: (value: Record<string, unknown>) => Record<string, unknown>): T {
  objectAdapters.set(schema, adapter);
  return schema;
}

/** How far a float may sit from a whole number of cents and still be read as it: binary noise only. */
const FLOAT_ARTEFACT_TOLERANCE = 1e-6;

/**
 * An amount as Route's plugins write it, as the JSON number the contract reads. A decimal string is
 * read exactly ("24.990000" is 24.99; "1.005" stays 1.005 and is refused for its third decimal). A
 * float within 1e-6 of a whole number of cents is the cents it stands for (6.269999999999996 is
 * 6.27): a float subtraction's artefact, not a third decimal.
 */
export function readRouteAmount(value: unknown): unknown {
  if (typeof value === 'string') {
    const match = /^\s*(\d{1,15})(?:\.(\d+))?\s*$/.exec(value);
    if (!match) return value;
    const fraction = (match[2] ?? '').replace(/0+$/, '');
    return Number(fraction === '' ? match[1] : `${match[1]}.${fraction}`);
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    const cents = Math.round(value * 100);
    if (Math.abs(value - cents / 100) <= FLOAT_ARTEFACT_TOLERANCE) return cents / 100;
  }
  return value;
}

/** "2026-11-20 22:03:11" (PrestaShop: UTC, written without an offset) as 2026-11-20T22:03:11Z. */
function readRouteDateTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/.exec(value.trim());
  return match ? `${match[1]}T${match[2]}Z` : value;
}

const ABSENT = Symbol('absent');

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a schema takes null itself (then null is a value, not "not set"). */
function acceptsNull(schema: z.ZodTypeAny): boolean {
  if (schema instanceof z.ZodNullable) return true;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return acceptsNull(schema._def.innerType);
  if (schema instanceof z.ZodEffects) return acceptsNull(schema._def.schema);
  return false;
}

function read(schema: z.ZodTypeAny, value: unknown): unknown {
  const reading = routeReadingOf(schema);
  if (reading === 'amount') return readRouteAmount(value);
  if (reading === 'date_time') return readRouteDateTime(value);
  if (schema instanceof z.ZodOptional) {
    // null for an optional field is PHP's "not set": read as absent, unless null means something.
    if (value === null && !acceptsNull(schema._def.innerType)) return ABSENT;
    return read(schema._def.innerType, value);
  }
  if (schema instanceof z.ZodNullable) return value === null ? null : read(schema._def.innerType, value);
  if (schema instanceof z.ZodDefault) return read(schema._def.innerType, value);
  if (schema instanceof z.ZodEffects) return read(schema._def.schema, value);
  if (schema instanceof z.ZodObject) {
    if (!isPlainObject(value)) return value;
    const adapted = objectAdapters.get(schema)?.(value) ?? value;
    const shape = schema.shape as Record<string, z.ZodTypeAny>;
    const out: Record<string, unknown> = { ...adapted };
    for (const [key, field] of Object.entries(shape)) {
      if (!(key in out)) continue;
      const fieldValue = read(field, out[key]);
      if (fieldValue === ABSENT) delete out[key];
      else out[key] = fieldValue;
    }
    return out;
  }
  if (schema instanceof z.ZodArray) {
    return Array.isArray(value) ? value.map((element) => read(schema._def.type, element)) : value;
  }
  if (schema instanceof z.ZodString) {
    // An id written as a JSON integer (PHP ints): its decimal text.
    return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  }
  if (schema instanceof z.ZodNumber) {
    // A quantity written as an integer string (PHP before 8.1 reads INT columns as strings).
    return typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value;
  }
  return value;
}

/** A body as Route's plugins send it, in the documented wire forms, read by the contract's `schema`. */
export function readRouteBody(schema: z.ZodTypeAny, body: unknown): unknown {
  const value = read(schema, body);
  return value === ABSENT ? undefined : value;
}

/**
 * Magento 1 sends every street line as an array in both street fields: the first line is the
 * street, the others the apartment or suite.
 */
export function streetLinesAsFields(address: Record<string, unknown>): Record<string, unknown> {
  const lines = address.street_address1;
  if (!Array.isArray(lines) || !lines.every((line) => typeof line === 'string')) return address;
  const [street, ...rest] = lines as string[];
  const secondary = rest.filter((line) => line.trim() !== '').join(', ');
  return { ...address, street_address1: street ?? '', street_address2: secondary === '' ? null : secondary };
}

/**
 * Route's order carries the value of every item in `subtotal` and the insured items' value in
 * `amount_covered`. Ours has one figure, the insurable value, in `subtotal`: the amount protection
 * pays out against and the premium is priced on. So `amount_covered`, when it is at most `subtotal`,
 * is read as the subtotal; the booked premium is then the one the shopper was quoted.
 */
function coveredAmountAsSubtotal(order: Record<string, unknown>): Record<string, unknown> {
  const covered = readRouteAmount(order.amount_covered);
  const subtotal = readRouteAmount(order.subtotal);
  if (typeof covered !== 'number' || typeof subtotal !== 'number') return order;
  if (Math.round(covered * 100) > Math.round(subtotal * 100)) return order;
  return { ...order, subtotal: covered };
}

/**
 * The Magento 1 extension and PrestaShop module 1.0.2 send no line id: a line without one is
 * named by its position ("line-1", "line-2"), the same for every send of the same order.
 */
function positionsAsLineIds(order: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(order.line_items)) return order;
  const lines = order.line_items.map((line: unknown, index) =>
    isPlainObject(line) && (line.source_id === undefined || line.source_id === null) ? { ...line, source_id: `line-${index + 1}` } : line,
  );
  return { ...order, line_items: lines };
}

/** Route's order as ours: its covered amount as the subtotal, its lines named. */
export const routeOrder = (order: Record<string, unknown>): Record<string, unknown> => positionsAsLineIds(coveredAmountAsSubtotal(order));
