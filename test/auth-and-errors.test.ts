// Authentication and the mode headers (README, Concepts, "Keys and modes") and the error format
// (README, Concepts, "Errors") through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actingFor, findApiKeyStore, issueApiKey, revokeApiKey } from '../server/domain/access/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';


let service: TestService;
let shop: SeededStore;
const quote = { cart: { covered: { amount: '100.00' } } };

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
});
afterAll(async () => service.close());

describe('authentication', () => {
  it('accepts the key in the token header and as a Bearer token', async () => {
    expect((await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: quote })).status).toBe(201);
    expect((await call(service.baseUrl, 'POST', '/v2/quotes', { bearer: shop.liveKey, body: quote })).status).toBe(201);
  });

  it.each([
    ['missing', {}],
    ['malformed', { key: 'sk_live_123' }],
    ['too short', { key: 'ak_live_abc' }],
    ['unknown', { key: `ak_live_${'A'.repeat(40)}` }],
    ['a non-Bearer Authorization', { headers: { authorization: 'Basic YWJjOmRlZg==' } }],
  ])('answers 401 unauthorized for a %s key', async (_label, options) => {
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { ...options, body: quote });
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe('unauthorized');
    expect(response.body.errors).toEqual([]);
  });

  it('answers 401 for a revoked key once the revocation has reached the instance', async () => {
    const issued = await issueApiKey(service.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'store' });
    // Used first, so the instance holds the key's caller in its cache.
    expect((await call(service.baseUrl, 'POST', '/v2/quotes', { key: issued.key, body: quote })).status).toBe(201);
    await revokeApiKey(service.db, actingFor(TEST_OPERATOR, await findApiKeyStore(service.db, issued.id)), issued.id, new Date());
    await service.settled();
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { key: issued.key, body: quote });
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe('unauthorized');
  });

  it('answers 403 forbidden for a valid key that is not scoped to a store', async () => {
    const issued = await issueApiKey(service.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'account' });
    const response = await call(service.baseUrl, 'GET', '/v2/orders/anything', { key: issued.key });
    expect(response.status).toBe(403);
    expect(response.body.error_code).toBe('forbidden');
  });

  it('checks the key before the body: a bad key with a bad body is 401', async () => {
    const bad = await call(service.baseUrl, 'POST', '/v2/orders', { key: 'nope', body: { subtotal: 1.234 } });
    expect(bad.status).toBe(401);
    const malformed = await call(service.baseUrl, 'POST', '/v2/orders', {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(401);
  });

  it('stores only a SHA-256 of each key', async () => {
    const rows = await service.db.$queryRawUnsafe<Array<{ key_hash: string; last4: string }>>('SELECT key_hash, last4 FROM api_keys');
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(shop.liveKey);
    expect(dump).not.toContain(shop.liveKey.slice(8));
    for (const row of rows) expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('mode headers on every response', () => {
  const modeOf = (headers: Headers) => [headers.get('x-service-mode'), headers.get('x-legacy-mode')];

  it('says live for a live key and test for a test key', async () => {
    expect(modeOf((await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: quote })).headers)).toEqual(['live', 'live']);
    expect(modeOf((await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.testKey, body: quote })).headers)).toEqual(['test', 'test']);
  });

  it('is on errors and unknown routes too, from the key prefix even when the key is invalid', async () => {
    const invalidTestKey = `ak_test_${'Z'.repeat(40)}`;
    expect(modeOf((await call(service.baseUrl, 'POST', '/v2/quotes', { key: invalidTestKey, body: quote })).headers)).toEqual(['test', 'test']);
    expect(modeOf((await call(service.baseUrl, 'GET', '/nowhere', { key: shop.testKey })).headers)).toEqual(['test', 'test']);
    expect(modeOf((await call(service.baseUrl, 'GET', '/nowhere')).headers)).toEqual(['live', 'live']);
    expect(modeOf((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.testKey, body: {} })).headers)).toEqual(['test', 'test']);
  });

  it('echoes a request id, or makes one', async () => {
    const given = await call(service.baseUrl, 'GET', '/nowhere', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await call(service.baseUrl, 'GET', '/nowhere');
    expect(made.headers.get('x-request-id')).toMatch(/^req_[0-9a-f-]{36}$/);
  });
});

describe('the error format', () => {
  it('answers an unknown route with 404 not_found', async () => {
    const response = await call(service.baseUrl, 'GET', '/v3/everything', { key: shop.liveKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: expect.any(String), error_code: 'not_found', errors: [] });
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const response = await call(service.baseUrl, 'DELETE', '/v2/orders/1001', { key: shop.liveKey });
    expect(response.status).toBe(405);
    expect(response.body.error_code).toBe('method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET, POST, PATCH');
    const onCreate = await call(service.baseUrl, 'GET', '/v2/quotes', { key: shop.liveKey });
    expect(onCreate.status).toBe(405);
    expect(onCreate.headers.get('allow')).toBe('POST');
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const response = await call(service.baseUrl, 'POST', '/v2/orders', {
      key: shop.liveKey,
      rawBody: '{"source_order_id": "1",',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_request');
    expect(response.body.error).toMatch(/not valid JSON/);
  });

  it('answers a non-JSON content type with 400', async () => {
    const response = await call(service.baseUrl, 'POST', '/v2/orders', {
      key: shop.liveKey,
      rawBody: 'source_order_id=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/Content-Type: application\/json/);
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const huge = JSON.stringify(orderBody({ padding: 'x'.repeat(1024 * 1024) }));
    const response = await call(service.baseUrl, 'POST', '/v2/orders', {
      key: shop.liveKey,
      rawBody: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body.error_code).toBe('payload_too_large');
  });

  it('answers a JSON array body with a 400 rooted at the body', async () => {
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: [1, 2] });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'body', message: 'must be an object, not array' }]);
  });

  it('never answers with HTML or a stack trace', async () => {
    const probes = await Promise.all([
      call(service.baseUrl, 'GET', '/'),
      call(service.baseUrl, 'OPTIONS', '/v2/orders'),
      call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, rawBody: '\u0000', headers: { 'content-type': 'application/json' } }),
      call(service.baseUrl, 'GET', '/v2/orders/%E0%A4%A', { key: shop.liveKey }),
    ]);
    for (const probe of probes) {
      expect(probe.status).toBeGreaterThanOrEqual(400);
      expect(probe.status).toBeLessThan(500);
      expect(JSON.stringify(probe.body)).not.toMatch(/at .*\.(ts|js):\d+/);
    }
  });
});
