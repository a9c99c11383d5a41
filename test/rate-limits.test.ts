// Rate limits (README, Rate limits) through real HTTP, counted in PostgreSQL and shared by two app
// instances on one database. Small figures are configured so the limits are reached quickly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitSettings } from '../server/http/rate-limit.js';
import { call, orderBody } from './support/http.js';
import { createTestDatabase, seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const LIMITS: RateLimitSettings = {
  ordersPerMinute: 5,
  addressesPerMinute: 4,
  addressesPerDay: 6,
  quotesPerMinute: 5,
  quotesPerMinutePerIp: 2,
  otherPerMinute: 5,
  shopperPerMinutePerIp: 1000,
  shopperLookupsPerIp: 1000,
  shopperLookupsPerOrderPerIp: 1000,
  shopperLookupsPerOrder: 1000,
};

let a: TestService;
let b: TestService;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  a = await startService({ databaseUrl, rateLimits: LIMITS, trustedProxies: 1 });
  b = await startService({ databaseUrl, rateLimits: LIMITS, trustedProxies: 1 });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const readOrder = (service: TestService, key: string) => call(service.baseUrl, 'GET', '/v2/orders/nothing-here', { key });

describe('per-store limits shared by two instances', () => {
  let shop: SeededStore;
  beforeAll(async () => {
    shop = await seedStore(a.db);
  });

  it('allow 5 order and shipment requests a minute across both instances, then answer 429 with the headers', async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (const service of [a, b, a, b, a]) {
      const response = await readOrder(service, shop.liveKey);
      statuses.push(response.status);
      remaining.push(response.headers.get('ratelimit-remaining') ?? '');
      expect(response.headers.get('ratelimit-limit')).toBe('5');
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);

    const refused = await call(b.baseUrl, 'POST', '/v1/shipments', { key: shop.liveKey, body: { tracking_number: 'X1', source_order_id: 'y' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.stringMatching(/5 requests per minute per store/), error_code: 'rate_limited', errors: [] });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
  });

  it('count test keys in a bucket of their own, limited the same way', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await readOrder(i % 2 ? a : b, shop.testKey)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
  });

  it('leave other stores alone', async () => {
    const other = await seedStore(a.db);
    expect((await call(a.baseUrl, 'POST', '/v2/orders', { key: other.liveKey, body: orderBody() })).status).toBe(201);
  });

  it('count a request before it is validated: a bad body still uses the budget', async () => {
    const fresh = await seedStore(a.db);
    for (let i = 0; i < 5; i += 1) expect((await call(a.baseUrl, 'POST', '/v2/orders', { key: fresh.liveKey, body: {} })).status).toBe(400);
    expect((await call(a.baseUrl, 'POST', '/v2/orders', { key: fresh.liveKey, body: orderBody() })).status).toBe(429);
  });
});

describe('address verification', () => {
  const address = { address: { street_address1: '1600 Amphitheatre Pkwy', zip: '94043' } };

  it('allows 4 a minute per store, cached answers included', async () => {
    const shop = await seedStore(a.db);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await call((i % 2 ? a : b).baseUrl, 'POST', '/v2/addresses/verify', { key: shop.liveKey, body: address })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('also counts a daily budget', async () => {
    const daily = await startService({ databaseUrl, rateLimits: { ...LIMITS, addressesPerMinute: 100, addressesPerDay: 3 } });
    try {
      const shop = await seedStore(daily.db);
      const responses = [];
      for (let i = 0; i < 4; i += 1) responses.push(await call(daily.baseUrl, 'POST', '/v2/addresses/verify', { key: shop.liveKey, body: address }));
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(responses[3]?.body.error).toMatch(/3 requests per day per store/);
      // The tighter limit is the one the headers describe: 3 a day, not 100 a minute.
      expect(responses[0]?.headers.get('ratelimit-limit')).toBe('3');
      expect(Number(responses[3]?.headers.get('retry-after'))).toBeGreaterThan(60);
    } finally {
      await daily.close();
    }
  });
});

describe('quotes', () => {
  const quote = { cart: { covered: { amount: '10.00' } } };
  const quoteFrom = (service: TestService, key: string, ip: string) =>
    call(service.baseUrl, 'POST', '/v2/quotes', { key, body: quote, headers: { 'x-forwarded-for': ip } });

  it('limit a browser-origin store per shopper IP (X-Forwarded-For behind one trusted proxy), and per store', async () => {
    const shop = await seedStore(a.db);
    await a.db.store.update({ where: { id: shop.store.id }, data: { quoteOrigin: 'browser' } });
    await Promise.all([a.settled(), b.settled()]);
    const first = [await quoteFrom(a, shop.liveKey, '203.0.113.7'), await quoteFrom(b, shop.liveKey, '203.0.113.7'), await quoteFrom(a, shop.liveKey, '203.0.113.7')];
    expect(first.map((r) => r.status)).toEqual([201, 201, 429]);
    expect(first[2]?.body.error).toMatch(/per shopper IP/);
    // Another shopper still gets quotes, until the store's own limit of 5 is reached.
    const second = [await quoteFrom(a, shop.liveKey, '198.51.100.9'), await quoteFrom(b, shop.liveKey, '198.51.100.9')];
    expect(second.map((r) => r.status)).toEqual([201, 201]);
    expect((await quoteFrom(a, shop.liveKey, '192.0.2.1')).status).toBe(429);
  });

  it('limit a backend-origin store per store only, whatever the forwarded IP', async () => {
    const shop = await seedStore(a.db);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await quoteFrom(i % 2 ? a : b, shop.liveKey, '203.0.113.50')).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('what is not limited', () => {
  it('a request without a valid key is refused before it is counted', async () => {
    const shop = await seedStore(a.db);
    for (let i = 0; i < 8; i += 1) expect((await readOrder(a, `ak_live_${'Q'.repeat(40)}`)).status).toBe(401);
    expect((await readOrder(a, shop.liveKey)).status).toBe(404);
  });
});
