// Route policy is declared once per route in the contract (contract/policy.ts) and read by the
// middleware: every route declares one, and a test key is kept from live data after, not before,
// its request is validated (validation comes before existence, for test keys as for live ones).
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleContract } from '../contract/console/index.js';
import { contract } from '../contract/index.js';
import { shopperContract } from '../contract/shopper/index.js';
import { policyOf } from '../contract/policy.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

function routesOf(router: AppRouter, prefix = ''): Array<[string, AppRoute]> {
  return Object.entries(router).flatMap(([key, child]): Array<[string, AppRoute]> =>
    isAppRoute(child) ? [[`${prefix}${key}`, child]] : routesOf(child, `${prefix}${key}.`),
  );
}

describe('every route of the contract', () => {
  it.each(routesOf(contract))('%s declares its policy', (_name, route) => {
    const policy = policyOf(route.metadata);
    expect(policy).toBeDefined();
    if (policy?.auth === 'api_key') {
      expect(['simulate', 'not_found']).toContain(policy.testKeys);
      expect(policy.rateLimit).not.toBe('none');
      // Reads, updates and cancels never see live data with a test key; only creates simulate, and
      // the reads of Route's plugins that show no stored object (a computed price, the key's own store).
      const readsNothingStored = ['/v1/quote', '/v1/merchants', '/v1/merchants/:merchant_id'].includes(route.path);
      // A webhook endpoint is live setup: test keys cause no event, so a simulated one would never hear anything.
      const liveOnlyCreate = route.path === '/v1/webhook_endpoints';
      // A shopper's erasure and export act on live orders only: an empty simulated answer would read as
      // "nothing held". So does a dry run of claim rules, which reads the store's live claims.
      const actsOnLiveData = route.path.startsWith('/v2/customers/') || route.path === '/v1/claim_rules/dry_run';
      expect(policy.testKeys === 'simulate').toBe((route.method === 'POST' && !route.path.includes(':') && !liveOnlyCreate && !actsOnLiveData) || readsNothingStored);
    } else {
      expect(policy?.rateLimit).toBe('none');
    }
  });
});

describe('every route of the console contract', () => {
  it.each(routesOf(consoleContract))('%s declares a session policy', (name, route) => {
    const policy = policyOf(route.metadata);
    expect(route.path.startsWith('/console/api/')).toBe(true);
    // Only the two routes that open a session go without one, and the setup page's question
    // whether its link still works (which opens none and changes nothing).
    const opensSession = name === 'session.login' || name === 'session.setup';
    const beforeASession = opensSession || name === 'session.checkSetup';
    expect(policy?.auth).toBe(beforeASession ? 'none' : 'session');
    expect(policy?.rateLimit).toBe('none');
    // A viewer reads; every change but to one's own session and password needs admin or owner.
    const ownSession = name === 'session.logout' || name === 'session.changePassword';
    if (!beforeASession && route.method !== 'GET' && !ownSession) expect(['admin', 'owner']).toContain(policy?.role);
  });
});

describe('every route of the claim page contract', () => {
  it.each(routesOf(shopperContract))('%s declares a shopper policy', (name, route) => {
    const policy = policyOf(route.metadata);
    expect(route.path.startsWith('/shopper/api/stores/:store_slug')).toBe(true);
    // Every request counts per IP address; the lookup also against the lookup limits.
    expect(policy?.rateLimit).toBe(name === 'lookup' ? 'shopper_lookup' : 'shopper');
    // Only the store's public page, its logo, the lookup and logging out go without a session.
    const public_ = ['store', 'logo', 'lookup', 'logout'].includes(name);
    expect(policy?.auth).toBe(public_ ? 'none' : 'shopper_session');
    // The one body that is not JSON is the photo: the route judges its bytes.
    expect(policy?.body).toBe(name === 'uploadPhoto' ? 'image' : 'json');
  });
});

describe('test keys and live data', () => {
  let service: TestService;
  let shop: SeededStore;
  beforeAll(async () => {
    service = await startService();
    shop = await seedStore(service.db);
  });
  afterAll(async () => service.close());

  it('an invalid update with a test key is a 400 naming the field, a valid one a 404', async () => {
    const created = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody() });
    expect(created.status).toBe(201);
    const path = `/v2/orders/${created.body.source_order_id as string}`;
    const invalid = await call(service.baseUrl, 'PATCH', path, { key: shop.testKey, body: { subtotal: 1.005 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ field: 'subtotal' })]);
    const valid = await call(service.baseUrl, 'PATCH', path, { key: shop.testKey, body: { subtotal: 10 } });
    expect(valid.status).toBe(404);
    expect((await call(service.baseUrl, 'GET', path, { key: shop.testKey })).status).toBe(404);
    // The live order is untouched.
    expect((await call(service.baseUrl, 'GET', path, { key: shop.liveKey })).body.subtotal).toBe(125);
  });
});
