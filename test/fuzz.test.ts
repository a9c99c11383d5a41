// Property-based tests of every route of the contract, through real HTTP against the real server.
// The routes are found by walking the contract with isAppRoute, so a new route is covered without
// touching this file; request bodies are generated from the contract's zod schemas (the input side,
// since several schemas transform) with zod-fast-check (see test/support/fuzz-arbitraries.ts).
//
// - valid requests never answer a 5xx nor a non-JSON body; the create routes answer 2xx with a test
//   key; the platform webhook is signed and sent for an unknown merchant (404) and a connected one;
// - corrupted bodies (a field dropped or retyped, a third decimal, a negative amount, an overlong
//   string, null or an array as the body), random JSON and random bytes answer a 4xx in the error
//   format ({error, error_code, errors: [{field, message}]}), never with a stack trace;
// - hostile path parameters answer a 4xx, hostile query strings never a 5xx, and a query field in
//   an array or object form (type[]=, type[x]=) is a 400 naming the field;
// - valid bodies in other encodings and content types never fail on our side;
// - platform messages with cents written as decimals (120.00) answer 400, BOM or not.
//
// A failure reports its seed; reproduce it with FUZZ_SEED=<seed> npx vitest run test/fuzz.test.ts.
// FUZZ_RUNS sets the runs per property (40 by default), and FUZZ_STATS=<file> appends one line per
// request (property, variant, status, error_code, body) to that file, to see what was covered.
import fc from 'fast-check';
import type { ZodTypeAny } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { fieldPath } from '../contract/errors.js';
import { anyString, corrupt, corruption, garbageBody, getAt, hostilePathValue, onTheWire, oversizedBody, pathsOf, setAt, type JsonPath } from './support/fuzz-arbitraries.js';
import { assertClientError } from './support/fuzz-http.js';
import { call, orderBody } from './support/http.js';
import { SEED, RUNS, PROPERTY_TIMEOUT_MS, PLATFORM, PLATFORM_SECRET, service, shop, pushed, ROUTES, BODY_ROUTES, WRITE_ROUTES, PATH_ROUTES, QUERY_ROUTES, label, type Sent, request, parsedAsTheServerWould, seededParams, missingParams, bodyTarget, validCases, holds, check, startFuzzService, stopFuzzService } from './support/fuzz-routes.js';

beforeAll(startFuzzService);
afterAll(stopFuzzService);

// ---- The properties ------------------------------------------------------------------------------------

describe('the contract walk', () => {
  it('finds every route, and generates the inputs of each from its schemas', () => {
    const known = ['quotes.create', 'orders.create', 'orders.get', 'orders.update', 'orders.updatePatch', 'orders.cancel'];
    known.push('shipments.create', 'shipments.get', 'shipments.update', 'shipments.updatePatch', 'shipments.cancel');
    known.push('claims.create', 'claims.get', 'claims.list', 'tracking.easyPostWebhook', 'addresses.verify', 'webhooks.receive', 'billing.statements');
    expect(ROUTES.map((r) => r.name)).toEqual(expect.arrayContaining(known));
    // A schema zod-fast-check cannot generate (a new refinement, say) fails here, by name.
    for (const r of ROUTES) expect(() => fc.sample(validCases(r), { seed: SEED, numRuns: 5 }), label(r)).not.toThrow();
  });
});

describe('valid requests never fail on our side', () => {
  it.each(ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const target = bodyTarget(r);
    await holds(
      `valid requests to ${label(r)}`,
      fc.asyncProperty(validCases(r), async (c) => {
        await c.before?.();
        const sent = await request(r, {
          params: c.params ?? target.params,
          ...(c.query === undefined ? {} : { query: c.query }),
          ...(c.body === undefined ? {} : { body: { json: c.body } }),
          key: r.body === null ? 'live' : target.key,
        });
        check(sent, c.expect, c.variant);
      }),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('corrupted bodies answer 400 in the error format', () => {
  it.each(BODY_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const schema = r.body as ZodTypeAny;
    const target = bodyTarget(r);
    await holds(
      `corrupted bodies to ${label(r)}`,
      fc.asyncProperty(validCases(r), corruption, async (c, how) => {
        const corrupted = corrupt(c.body, how);
        fc.pre(corrupted !== null);
        const wire = onTheWire(corrupted);
        // zod is the oracle: a corruption that leaves the body valid (an optional field dropped, a
        // free-form field retyped) proves nothing here.
        fc.pre(wire !== undefined && !schema.safeParse(wire).success);
        const sent = await request(r, { params: target.params, body: { json: wire }, key: target.key });
        check(sent, 400, `${how.kind} of a valid body`);
        expect(sent.answer.json).toMatchObject({ error_code: 'invalid_request' });
      }),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('random JSON and bytes answer a 4xx in the error format', () => {
  it.each(WRITE_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    // Routes without a body ignore it: they are sent to objects that do not exist (404).
    const target = r.body === null ? { params: missingParams(r), key: 'live' as const } : bodyTarget(r);
    await holds(
      `random bodies to ${label(r)}`,
      fc.asyncProperty(garbageBody, async (garbage) => {
        const sent = await request(r, { params: target.params, body: { raw: garbage.raw }, key: target.key });
        const parsed = parsedAsTheServerWould(garbage.raw);
        if (garbage.raw.length > 1024 * 1024 && r.body !== null) {
          check(sent, 413, garbage.label);
        } else if (r.body !== null && parsed !== undefined && r.body.safeParse(parsed.value).success) {
          // By chance a valid body (an empty update, say): it only has to be handled.
          check(sent, 'no5xx', garbage.label);
        } else {
          check(sent, r.body === null ? 'no5xx' : 400, garbage.label);
          assertClientError(sent.answer, `${garbage.label}: ${sent.describe}`, undefined, sent.text);
        }
      }),
      RUNS,
      [[oversizedBody]],
    );
  }, PROPERTY_TIMEOUT_MS);
});

/** The reads whose path, with this parameter empty, is the path of a list. */
const EMPTY_ID_IS_THE_LIST: Record<string, string> = { 'routeCompatibility.merchant': 'merchant_id', 'webhookEndpoints.get': 'id', 'events.get': 'id' };

describe('hostile path parameters answer a 4xx in the error format', () => {
  it.each(PATH_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    // A valid body, so that only the path is at fault.
    const body = r.body === null ? undefined : fc.sample(validCases(r), { seed: SEED, numRuns: 1 })[0]?.body;
    const params = fc.record(Object.fromEntries(r.pathParams.map((name) => [name, hostilePathValue])) as Record<string, fc.Arbitrary<string>>);
    await holds(
      `hostile path parameters of ${label(r)}`,
      fc.asyncProperty(params, fc.boolean(), async (values, rawParams) => {
        // An empty id makes the path its list's, a 200: GET /v1/merchants/ (PrestaShop 1.0.2 calls it
        // so), /v1/webhook_endpoints/ and /v1/events/.
        const listWhenEmpty = EMPTY_ID_IS_THE_LIST[r.name];
        fc.pre(!(listWhenEmpty !== undefined && values[listWhenEmpty] === ''));
        // Sent as they are, "%00" decodes to U+0000 and "%ED%A0%80" is no UTF-8: both are 400s.
        const sent = await request(r, { params: values, rawParams, ...(body === undefined ? {} : { body: { json: body } }), key: 'live' });
        check(sent, 'no5xx', rawParams ? 'slashes and percent signs sent as they are' : 'percent-encoded');
        assertClientError(sent.answer, sent.describe, undefined, sent.text);
      }),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('hostile query strings never fail on our side', () => {
  it.each(QUERY_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const names = Object.keys((r.query as unknown as { shape: Record<string, unknown> }).shape ?? {});
    const value = fc.oneof(anyString(300), fc.array(anyString(20), { minLength: 2, maxLength: 3 }), hostilePathValue);
    const query = fc.dictionary(fc.oneof(fc.constantFrom(...names), anyString(10)), value, { maxKeys: 4 });
    await holds(
      `hostile query strings of ${label(r)}`,
      fc.asyncProperty(query, async (values) => {
        const sent = await request(r, { params: seededParams(r) ?? {}, query: values, key: 'live' });
        check(sent, 'no5xx', 'hostile query');
      }),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('array and object forms of a query field are refused, naming the field', () => {
  it.each(QUERY_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const names = Object.keys((r.query as unknown as { shape: Record<string, unknown> }).shape ?? {});
    expect(names.length).toBeGreaterThan(0);
    const bracket = fc.constantFrom('[]', '[0]', '[x]', '[a][b]', '%5B%5D', '%5Bx%5D');
    const form = fc.tuple(fc.constantFrom(...names), bracket, anyString(20), fc.boolean());
    await holds(
      `array and object query forms of ${label(r)}`,
      fc.asyncProperty(form, async ([name, suffix, value, twice]) => {
        const pair = `${encodeURIComponent(name)}${suffix}=${encodeURIComponent(value)}`;
        const sent = await request(r, { params: seededParams(r) ?? {}, rawQuery: twice ? `${pair}&${pair}` : pair, key: 'live' });
        check(sent, 'no5xx', 'array or object query form');
        expect(sent.answer.status, sent.describe).toBe(400);
        const body = sent.answer.json as { error_code?: string; errors?: Array<{ field: string }> };
        expect(body.error_code, sent.describe).toBe('invalid_request');
        expect(body.errors?.map((error) => error.field), sent.describe).toContain(name);
      }),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('valid bodies in other encodings and content types never fail on our side', () => {
  interface Framing {
    label: string;
    contentType: string | null;
    encode: (text: string) => Buffer;
    /** Whether the body is read as the same JSON (else a 4xx is fine too). */
    same: boolean;
  }
  const utf8 = (text: string) => Buffer.from(text, 'utf8');
  const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
  const framings: Framing[] = [
    { label: 'UTF-8 with a byte order mark', contentType: 'application/json', encode: (text) => utf8(`\ufeff${text}`), same: true },
    { label: 'charset=utf-8', contentType: 'application/json; charset=utf-8', encode: utf8, same: true },
    { label: 'a +json media type', contentType: 'application/merge-patch+json', encode: utf8, same: true },
    // The platform webhook reads UTF-16 as UTF-8 for its raw cents check: a 500 (LE) or no check at all (BE).
    { label: 'UTF-16LE', contentType: 'application/json; charset=utf-16le', encode: (text) => Buffer.from(text, 'utf16le'), same: false },
    { label: 'UTF-16BE', contentType: 'application/json; charset=utf-16be', encode: utf16be, same: false },
    { label: 'charset=latin1', contentType: 'application/json; charset=latin1', encode: (text) => Buffer.from(text, 'latin1'), same: false },
    { label: 'text/plain', contentType: 'text/plain', encode: utf8, same: false },
    { label: 'no content type', contentType: null, encode: utf8, same: false },
  ];
  it.each(BODY_ROUTES.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const target = bodyTarget(r);
    const usable = framings;
    await holds(
      `other encodings to ${label(r)}`,
      fc.asyncProperty(validCases(r), fc.constantFrom(...usable), async (c, framing) => {
        await c.before?.();
        const raw = framing.encode(JSON.stringify(c.body));
        const sent = await request(r, { params: c.params ?? target.params, body: { raw }, contentType: framing.contentType, key: target.key });
        check(sent, framing.same ? c.expect : 'no5xx', `${c.variant}, ${framing.label}`);
        if (framing.contentType === null || framing.contentType === 'text/plain') assertClientError(sent.answer, sent.describe, 400, sent.text);
      }),
      Math.ceil(RUNS / 2),
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('platform messages with cents written as decimals answer 400', () => {
  const SIGNED = ROUTES.filter((r) => r.auth === 'webhook_signature' && r.body !== null);
  it.each(SIGNED.map((r) => [label(r), r] as const))('%s', async (_label, r) => {
    const target = bodyTarget(r);
    const TOKEN = '"__fuzz_cents__"';
    await holds(
      `decimal cents to ${label(r)}`,
      fc.asyncProperty(
        validCases(r),
        fc.nat(),
        fc.constantFrom('.00', '.0', '.50', 'e0', 'E+2', '.000'),
        fc.constantFrom('', ' \n', '\ufeff', '\ufeff '),
        async (c, pick, written, prefix) => {
          const centsPaths = pathsOf(c.body).filter((path) => {
            const key = path[path.length - 1];
            return typeof key === 'string' && key.endsWith('_cents') && Number.isInteger(getAt(c.body, path));
          });
          fc.pre(centsPaths.length > 0);
          const path = centsPaths[pick % centsPaths.length] as JsonPath;
          const cents = getAt(c.body, path) as number;
          // The number as a sender writing major units with a decimal point (or an exponent) would.
          const text = JSON.stringify(setAt(c.body, path, '__fuzz_cents__')).replace(TOKEN, `${cents}${written}`);
          const sent = await request(r, { params: target.params, body: { raw: Buffer.from(`${prefix}${text}`, 'utf8') } });
          check(sent, 400, `${c.variant}, ${fieldPath(path)} written ${cents}${written}`);
          const fields = (sent.answer.json as { errors: Array<{ field: string }> }).errors.map((e) => e.field);
          expect(fields, sent.describe).toContain(fieldPath(path));
        },
      ),
    );
  }, PROPERTY_TIMEOUT_MS);
});


// The inputs this fuzzer first found as 500s, now refused with a 400 on purpose.
describe('inputs the server refuses on purpose', () => {
  const pushRaw = (raw: string | Buffer, contentType = 'application/json') =>
    call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
      rawBody: raw,
      headers: { 'content-type': contentType, 'x-webhook-signature': signWebhook(PLATFORM_SECRET, raw) },
    });
  const placed = (order: Record<string, unknown>) => ({
    merchant: pushed.store.slug,
    event: 'order.placed',
    order: { id: `nul-${Date.now()}-${Math.random()}`, created_at: '2026-11-20T10:00:00Z', line_items: [{ id: 'a', title: 'A', unit_price_cents: 100, quantity: 1 }], ...order },
  });

  it('U+0000 in a body string, a key, or a path parameter is 400 naming the field', async () => {
    const live = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody({ source_order_id: 'a\u0000b' }) });
    expect(live.status).toBe(400);
    expect(live.body.errors).toEqual([{ field: 'source_order_id', message: 'must not contain the NUL character (U+0000)' }]);
    const inPath = await call(service.baseUrl, 'GET', '/v2/orders/%00', { key: shop.liveKey });
    expect(inPath.status).toBe(400);
    expect(inPath.body.errors[0].field).toBe('source_order_id');
    const pushedNul = await pushRaw(JSON.stringify(placed({ id: '\u0000' })));
    expect(pushedNul.status).toBe(400);
  });

  it('a date-time outside the years 0001 to 9999 in UTC is 400', async () => {
    for (const when of ['0000-06-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-02:00']) {
      const response = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.testKey, body: orderBody({ source_created_on: when }) });
      expect(response.status, when).toBe(400);
      expect(response.body.errors).toEqual([{ field: 'source_created_on', message: 'must fall between the years 0001 and 9999 in UTC' }]);
    }
  });

  it('an order.placed cart adding up to more than 9,999,999,999.99 is 400, not an overflow', async () => {
    const lines = Array.from({ length: 2 }, (_, i) => ({ id: `l${i}`, title: 'Gold', unit_price_cents: 999_999_999_999, quantity: 1 }));
    const response = await pushRaw(JSON.stringify(placed({ line_items: lines })));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'order.line_items', message: expect.stringMatching(/at most 999999999999/) }]);
  });

  it('a body declared in another charset than UTF-8 is 400', async () => {
    const raw = Buffer.from(JSON.stringify(placed({})), 'utf16le');
    const response = await pushRaw(raw, 'application/json; charset=utf-16le');
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('The body must be UTF-8 JSON.');
  });
});
