// Quotes through real HTTP (README, Concepts, "Money" and "Pricing"): encodings, pricing, storage,
// expiry, test keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tableCounts } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let shop: SeededStore;
let cappedShop: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db); // 1.5 %, minimum 0.98, no cap
  cappedShop = await seedStore(service.db, { rateBps: 200, minPremiumCents: 50, maxCoveredCents: 100_000 });
});
afterAll(async () => service.close());

const quoteFor = (amount: unknown, extra: Record<string, unknown> = {}) => ({ cart: { covered: { amount }, ...extra } });

describe('POST /v2/quotes', () => {
  it('prices the cart and answers the SPEC 2.3 shape', async () => {
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', {
      key: shop.liveKey,
      body: quoteFor('125.00', { cart_ref: 'cart-77' }),
    });
    expect(response.status).toBe(201);
    // 125.00 x 1.5 % = 1.875 -> 1.88
    expect(response.body).toMatchObject({
      premium: { currency: 'USD', amount: '1.88' },
      covered: { currency: 'USD', amount: '125.00' },
      payment_responsible: { type: 'customer' },
      cart_ref: 'cart-77',
    });
    expect(response.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const created = Date.parse(response.body.created_at);
    expect(Date.parse(response.body.expires_at) - created).toBe(24 * 60 * 60 * 1000);
  });

  it.each([
    ['10.00', '0.98'], // 0.15 is below the minimum premium
    ['65.33', '0.98'], // 0.97995 -> 0.98, equal to the minimum
    ['100', '1.50'],
    ['999.99', '15.00'], // 14.99985 -> 15.00
    ['0', '0.00'], // nothing covered, nothing charged
  ])('prices %s at %s', async (amount, premium) => {
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: quoteFor(amount) });
    expect(response.status).toBe(201);
    expect(response.body.premium.amount).toBe(premium);
  });

  it('caps the covered amount at the store maximum', async () => {
    // capped at 1000.00; 1000.00 x 2 % = 20.00
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { key: cappedShop.liveKey, body: quoteFor('2500.00') });
    expect(response.body.premium.amount).toBe('20.00');
  });

  it.each([125, '1.234', '-5', '1e3', '', '12345678901', ' 12'])('rejects the amount %j with 400', async (amount) => {
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: quoteFor(amount) });
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_request');
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual(['cart.covered.amount']);
  });

  it('rejects a currency other than USD', async () => {
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', {
      key: shop.liveKey,
      body: { cart: { covered: { amount: '10.00', currency: 'EUR' } } },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'cart.covered.currency', message: 'only USD is supported' }]);
  });

  it('reports every missing field at once', async () => {
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: { cart: { cart_items: 'x' } } });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cart.cart_items', 'cart.covered']);
  });

  it('stores the quote with its cart items and a 24 h expiry', async () => {
    const cartItems = [{ sku: 'MUG', quantity: 2, price: '12.00' }];
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', {
      key: shop.liveKey,
      body: quoteFor('24.00', { cart_items: cartItems }),
    });
    const row = await service.db.quote.findFirstOrThrow({ where: { id: response.body.id } });
    expect(row.storeId).toBe(shop.store.id);
    expect(row.coveredCents).toBe(2_400n);
    expect(row.premiumCents).toBe(98n);
    expect(row.cartItems).toEqual(cartItems);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
  });

  it('accepts merchant_id naming its own store, by id or slug, and answers 404 for another store', async () => {
    for (const merchantId of [shop.store.id, shop.store.slug]) {
      const own = await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: { ...quoteFor('5.00'), merchant_id: merchantId } });
      expect(own.status).toBe(201);
    }
    const other = await call(service.baseUrl, 'POST', '/v2/quotes', {
      key: shop.liveKey,
      body: { ...quoteFor('5.00'), merchant_id: cappedShop.store.id },
    });
    expect(other.status).toBe(404);
    expect(other.body.error_code).toBe('not_found');
  });

  it('answers a test key with a realistic test_ quote and stores nothing', async () => {
    const before = await tableCounts(service.db);
    const response = await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.testKey, body: quoteFor('125.00') });
    expect(response.status).toBe(201);
    expect(response.body.id).toMatch(/^test_[0-9a-f-]{36}$/);
    expect(response.body.premium.amount).toBe('1.88');
    expect(await tableCounts(service.db)).toEqual(before);
  });
});
