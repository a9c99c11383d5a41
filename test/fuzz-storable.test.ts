// Property-based tests of what the database can store, through real HTTP against the real server,
// on every route of the contract (test/support/fuzz-routes.ts): text with U+0000 or a lone
// surrogate in any body field, key or query value is a 400 naming it; dates at the edges of the
// years 0001 to 9999 are taken and those past them refused; and the create routes run with a live
// key, whose answers are read back (a test key answers before any SQL runs, so it cannot find a
// statement that fails). FUZZ_SEED and FUZZ_RUNS work as in test/fuzz.test.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldPath } from '../contract/errors.js';
import { edgeDateTime, getAt, outOfRangeDateTime, pathsOf, setAt, unstorableText, type JsonPath } from './support/fuzz-arbitraries.js';
import { encodeSegment } from './support/fuzz-http.js';
import { RUNS, PROPERTY_TIMEOUT_MS, ORDER_ID, ContractRoute, ROUTES, BODY_ROUTES, QUERY_ROUTES, label, request, seededParams, bodyTarget, validCases, holds, check, startFuzzService, stopFuzzService } from './support/fuzz-routes.js';

beforeAll(startFuzzService);
afterAll(stopFuzzService);

describe('text the database cannot store answers 400 naming the field', () => {
  /** Every path to a string value of a body. */
  const stringPaths = (body: unknown) => pathsOf(body).filter((path) => typeof getAt(body, path) === 'string');
  it.each(BODY_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const target = bodyTarget(r);
    await holds(
      `unstorable text to ${label(r)}`,
      fc.asyncProperty(validCases(r), fc.nat(), unstorableText, fc.boolean(), async (c, pick, bad, inKey) => {
        const paths = stringPaths(c.body);
        // A body with no string (an empty update) can still carry one under a key.
        const path = paths.length === 0 || inKey ? null : (paths[pick % paths.length] as JsonPath);
        const body = path === null ? { ...(c.body as object), [bad]: 'x' } : setAt(c.body, path, bad);
        await c.before?.();
        const sent = await request(r, { params: c.params ?? target.params, body: { json: body }, key: target.key });
        check(sent, 400, `${path === null ? 'a key' : fieldPath(path)} holding ${JSON.stringify(bad)}`);
        const fields = (sent.answer.json as { errors: Array<{ field: string }> }).errors.map((e) => e.field);
        expect(fields, sent.describe).toContain(path === null ? bad : fieldPath(path));
      }),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('query values the database cannot store answer 400 naming the parameter', () => {
  it.each(QUERY_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const names = Object.keys((r.query as unknown as { shape: Record<string, unknown> }).shape ?? {});
    // U+0000 percent-encoded, and byte sequences that are not UTF-8 (a lone surrogate in CESU-8, an
    // overlong slash, a stray continuation byte, a truncated sequence).
    const value = fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%C0%AF', '%FF', '%E2%82', 'x%80y');
    await holds(
      `unstorable query values of ${label(r)}`,
      fc.asyncProperty(fc.constantFrom(...names), value, async (name, raw) => {
        const sent = await request(r, { params: seededParams(r) ?? {}, rawQuery: `${encodeSegment(name)}=${raw}`, key: 'live' });
        check(sent, 400, `${name}=${raw}`);
        expect((sent.answer.json as { errors: Array<{ field: string }> }).errors.map((e) => e.field), sent.describe).toContain(name);
      }),
      Math.min(RUNS, 20),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('dates at and past the edges of the years 0001 to 9999', () => {
  const DATE_KEYS = new Set(['source_created_on', 'created_at']);
  const datePaths = (body: unknown) =>
    pathsOf(body).filter((path) => DATE_KEYS.has(String(path[path.length - 1])) && typeof getAt(body, path) === 'string');
  const DATED = ROUTES.filter((r) => ['orders.create', 'orders.update', 'orders.updatePatch', 'webhooks.receive'].includes(r.name));

  it.each(DATED.map((r) => [label(r), r] as const))('%s: an edge date is taken, one past it is a 400 naming the field', async (_label, r) => {
    const target = bodyTarget(r);
    await holds(
      `edge dates to ${label(r)}`,
      fc.asyncProperty(validCases(r), fc.nat(), fc.boolean(), edgeDateTime, outOfRangeDateTime, async (c, pick, past, edge, beyond) => {
        const paths = datePaths(c.body);
        fc.pre(paths.length > 0);
        const path = paths[pick % paths.length] as JsonPath;
        const live = r.name === 'orders.create';
        const body = setAt(live ? withFreshOrderId(c.body) : c.body, path, past ? beyond : edge);
        await c.before?.();
        const sent = await request(r, { params: c.params ?? target.params, body: { json: body }, key: live ? 'live' : target.key });
        if (past) {
          check(sent, 400, `${fieldPath(path)} = ${beyond}`);
          expect((sent.answer.json as { errors: Array<{ field: string }> }).errors.map((e) => e.field), sent.describe).toContain(fieldPath(path));
        } else {
          // A live order is stored and booked in that month; elsewhere the date must not fail on our
          // side (an update may refuse to move source_created_on: a 409, not a 500).
          check(sent, live ? 201 : 'no5xx', `${fieldPath(path)} = ${edge}`);
        }
      }),
      Math.min(RUNS, 30),
    );
  }, PROPERTY_TIMEOUT_MS);

  it('billing months: the first and last are statements, the ones past them are 400s naming month', async () => {
    const billing = ROUTES.find((r) => r.name === 'billing.statements') as ContractRoute;
    for (const month of ['0001-01', '9999-12', '1970-01']) {
      check(await request(billing, { params: {}, query: { month }, key: 'live' }), 200, month);
    }
    for (const month of ['0000-12', '10000-01', '9999-13', '-0001-01', '2026-00']) {
      const sent = await request(billing, { params: {}, query: { month }, key: 'live' });
      check(sent, 400, month);
      expect((sent.answer.json as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toContain('month');
    }
  });
});

// ---- Live writes: the test key answers before any SQL runs, so the same bodies go through a live key.

let liveSequence = 0;
/** The body with its source_order_id made unique (kept recognisable, within 255 characters). */
function withFreshOrderId(body: unknown): unknown {
  const record = body as Record<string, unknown>;
  const generated = Array.from(String(record.source_order_id ?? '')).slice(0, 100).join('');
  return { ...record, source_order_id: `${generated}~live${Date.now().toString(36)}${(liveSequence += 1).toString(36)}` };
}

describe('valid requests with a live key are stored and read back', () => {
  const route = (name: string) => ROUTES.find((r) => r.name === name) as ContractRoute;

  it('POST /v2/orders books the order, and GET answers the same order', async () => {
    const create = route('orders.create');
    const get = route('orders.get');
    await holds(
      'live order creates',
      fc.asyncProperty(validCases(create), async (c) => {
        const body = withFreshOrderId(c.body) as { source_order_id: string; line_items: unknown[] };
        const created = await request(create, { params: {}, body: { json: body }, key: 'live' });
        check(created, 201, 'live key');
        const read = await request(get, { params: { source_order_id: body.source_order_id }, key: 'live' });
        check(read, 200, 'read back');
        const createdOrder = created.answer.json as { id: string; paid_to_insure: number; line_items: unknown[] };
        const readOrder = read.answer.json as typeof createdOrder;
        expect(readOrder.id).toBe(createdOrder.id);
        expect(readOrder.paid_to_insure).toBe(createdOrder.paid_to_insure);
        expect(readOrder.line_items).toEqual(createdOrder.line_items);
        expect(readOrder.line_items).toHaveLength(body.line_items.length);
      }),
    );
  }, PROPERTY_TIMEOUT_MS);

  it.each([
    ['quotes.create', 201],
    ['shipments.create', 201],
    ['addresses.verify', 200],
    ['claims.create', 'no5xx'],
  ] as const)('%s', async (name, expectation) => {
    const r = route(name);
    await holds(
      `live ${name}`,
      fc.asyncProperty(validCases(r), async (c) => {
        let body = c.body as Record<string, unknown>;
        // Shipments and claims name the seeded order; a shipment's number must be new to the store,
        // and the items it carries the order's own (generated ones are a 400 by design).
        if (name === 'shipments.create') {
          const { line_items: _items, source_product_ids: _products, ...rest } = body;
          body = { ...rest, source_order_id: ORDER_ID, tracking_number: `LIVE${Date.now()}${(liveSequence += 1)}` };
        }
        if (name === 'claims.create') body = { ...body, source_order_id: ORDER_ID };
        const sent = await request(r, { params: {}, body: { json: body }, key: 'live' });
        check(sent, expectation, 'live key');
      }),
    );
  }, PROPERTY_TIMEOUT_MS);
});
