// The SDK skeleton drives the real server through the shared contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../sdk/src/index.js';
import { orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
});
afterAll(async () => service.close());

describe('the SDK client', () => {
  it('knows its mode from the key', () => {
    expect(new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl }).mode).toBe('live');
    expect(new Client({ apiKey: shop.testKey, baseUrl: service.baseUrl }).mode).toBe('test');
  });

  it('quotes, creates, reads and cancels an order with typed bodies', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: `${service.baseUrl}/` });
    const quote = await client.api.quotes.create({ body: { cart: { covered: { amount: '80.00' } } } });
    expect(quote.status).toBe(201);
    if (quote.status !== 201) return;
    expect(quote.body.premium.amount).toBe('1.20'); // 80.00 x 1.5 %

    const body = orderBody({ subtotal: 80, quote_id: quote.body.id }) as Parameters<typeof client.api.orders.create>[0]['body'];
    const created = await client.api.orders.create({ body });
    expect(created.status).toBe(201);
    const read = await client.api.orders.get({ params: { source_order_id: body.source_order_id } });
    expect(read.status === 200 && read.body.paid_to_insure).toBe(1.2);
    const cancelled = await client.api.orders.cancel({ params: { source_order_id: body.source_order_id } });
    expect(cancelled.status === 200 && cancelled.body.status).toBe('cancelled');
  });

  it('returns errors in the error format with their status', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const response = await client.api.orders.get({ params: { source_order_id: 'missing' } });
    expect(response.status).toBe(404);
    expect(response.status === 404 && response.body.error_code).toBe('not_found');
  });
});
