// The merchant SDK end to end against the real server: every resource on its happy path, with
// bodies and results typed from the API's own types, lastResponse, Idempotency-Key replays, the
// request and response hooks, plus what the constructor refuses.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  Client,
  NotFoundError,
  sendPlatformMessage,
  UnprocessableError,
  type Order,
  type OrderRequest,
  type Quote,
  type RequestEvent,
  type ResponseEvent,
  type Shipment,
  type WithLastResponse,
} from '../sdk/src/index.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';
import sharp from 'sharp';
import { uploadClaimPhoto } from '../server/domain/claims/index.js';
import { postgresPhotoStore } from '../server/domain/claims/index.js';

let service: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db); // 1.5 %, minimum 0.98
});
afterAll(async () => service.close());

/** Placed now, so bookings and re-pricings all land in the current month's statement. */
const placedOn = new Date().toISOString();
const month = placedOn.slice(0, 7);

function order(sourceOrderId: string, overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    source_order_id: sourceOrderId,
    source_order_number: '#1001',
    subtotal: 125,
    insurance_selected: true,
    order_total: 141.23,
    shipping_total: 9.95,
    taxes: 6.28,
    currency: 'USD',
    customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
    line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2, sku: 'DESK-ORG-W' }],
    source_created_on: placedOn,
    ...overrides,
  };
}

describe('the client', () => {
  it('knows its mode from the key', () => {
    expect(new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl }).mode).toBe('live');
    expect(new Client({ apiKey: shop.testKey, baseUrl: service.baseUrl }).mode).toBe('test');
  });

  it('refuses to run with a secret in a browser', async () => {
    const scope = globalThis as { window?: unknown; document?: unknown };
    scope.window = {};
    scope.document = {};
    try {
      expect(() => new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl })).toThrow(/for servers only/);
      await expect(
        sendPlatformMessage({
          baseUrl: service.baseUrl,
          platform: 'shopwire',
          secret: 'shopwire-shared-secret-0123456789',
          message: { merchant: 'acme', event: 'refund.created', order: { id: '1' }, refund: { id: 'r1' } },
        }),
      ).rejects.toThrow(/for servers only/);
    } finally {
      delete scope.window;
      delete scope.document;
    }
    expect(() => new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl })).not.toThrow();
  });

  it('refuses what is not a key, a bad baseUrl and bad retry settings, without echoing the key', () => {
    expect(() => new Client({ apiKey: 'sk_live_123', baseUrl: service.baseUrl })).toThrow(/ak_live_/);
    expect(() => new Client({ apiKey: undefined as unknown as string, baseUrl: service.baseUrl })).toThrow(TypeError);
    expect(() => new Client({ apiKey: shop.liveKey, baseUrl: 'localhost:3000' })).toThrow(/baseUrl/);
    expect(() => new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl, maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(() => new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl, timeoutMs: -1 })).toThrow(/timeoutMs/);
    const padded = `${shop.liveKey} trailing`;
    expect(() => new Client({ apiKey: padded, baseUrl: service.baseUrl })).toThrow(TypeError);
    expect(() => new Client({ apiKey: padded, baseUrl: service.baseUrl })).not.toThrow(shop.liveKey.slice(8));
  });
});

describe('every resource against the real server', () => {
  // One order carries a shipment and a claim; the other is cancelled (an open claim would forbid it).
  const claimed = '#1001/β';
  const cancelled = 'order 1002?';

  it('quotes, orders, shipments, addresses, claims and billing', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: `${service.baseUrl}/` });

    const quote = await client.quotes.create({ cart: { covered: { amount: '125.00', currency: 'USD' }, cart_ref: 'cart-1001' } });
    expectTypeOf(quote).toEqualTypeOf<WithLastResponse<Quote>>();
    expect(quote).toMatchObject({ premium: { currency: 'USD', amount: '1.88' }, covered: { amount: '125.00' }, cart_ref: 'cart-1001' });

    // Orders: create from the quote, read back, update (re-pricing), all by an id that needs encoding.
    const created = await client.orders.create(order(claimed, { quote_id: quote.id }));
    expectTypeOf(created).toEqualTypeOf<WithLastResponse<Order>>();
    expect(created).toMatchObject({ source_order_id: claimed, status: 'created', paid_to_insure: 1.88, amount_covered: 125, platform_id: 'api' });
    expect(await client.orders.retrieve(claimed)).toEqual(created);
    const updated = await client.orders.update(claimed, { subtotal: 200, customer_details: { phone: '+1 555 0199' } });
    expect(updated).toMatchObject({ subtotal: 200, amount_covered: 200, paid_to_insure: 3, first_name: 'Ada' });

    // Shipments: the number is normalised and its carrier detected; an undetectable one gets its carrier set.
    const shipment = await client.shipments.create({ tracking_number: '1Z 999 AA1 01 2345 6784', source_order_id: claimed });
    expectTypeOf(shipment).toEqualTypeOf<WithLastResponse<Shipment>>();
    expect(shipment).toMatchObject({ tracking_number: '1Z999AA10123456784', courier: 'ups', delivery_status: 'Active', cancelled_on: null });
    expect(await client.shipments.retrieve('1z999aa10123456784')).toMatchObject({ id: shipment.id });
    const unknown = await client.shipments.create({ tracking_number: 'SDK-NUMBER-42', source_order_id: claimed });
    expect(unknown.courier).toBe('unknown');
    expect(await client.shipments.update(unknown.tracking_number, { courier_id: 'UPS Ground' })).toMatchObject({ courier: 'ups' });

    // Addresses: the offline verifier cannot confirm a delivery point, so it answers unknown (ship).
    const verification = await client.addresses.verify({
      address: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043' },
    });
    expect(verification).toMatchObject({ verdict: 'unknown', deliverable: null });
    expect(typeof verification.reason).toBe('string');

    // Claims: file one on the shipment, read it, list the order's.
    const claim = await client.claims.create({
      source_order_id: claimed,
      tracking_number: shipment.tracking_number,
      reason: 'lost',
      description: 'Never arrived.',
      items: [{ source_id: 'li_1', quantity: 1 }],
    });
    expect(claim).toMatchObject({ source_order_id: claimed, tracking_number: '1Z999AA10123456784', reason: 'lost', status: 'open' });
    expect(await client.claims.retrieve(claim.id)).toEqual(claim);
    expect(await client.claims.list({ source_order_id: claimed })).toEqual({ data: [claim] });
    // A photo the shopper attached: the JPEG's bytes, and a typed 404 for one that is not the claim's.
    const claimedOrder = await service.db.order.findFirstOrThrow({ where: { storeId: shop.store.id, sourceOrderId: claimed } });
    const jpeg = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#933' } }).jpeg().toBuffer();
    const photo = await uploadClaimPhoto(service.db, { store: shop.store, actor: { kind: 'shopper', orderId: claimedOrder.id }, mode: 'live' }, postgresPhotoStore(service.db), jpeg, new Date());
    await service.db.claimPhoto.updateMany({ where: { id: photo.id }, data: { claimId: claim.id } });
    const [reference] = (await client.claims.retrieve(claim.id)).photos;
    expect(reference).toMatchObject({ id: photo.id, width: 80, height: 60 });
    const file = await client.claims.downloadPhoto(claim.id, photo.id);
    expect(file.content_type).toBe('image/jpeg');
    expect(file.data.byteLength).toBe(photo.bytes);
    expect((await sharp(file.data).metadata()).format).toBe('jpeg');
    expect(file.lastResponse.status).toBe(200);
    await expect(client.claims.downloadPhoto(claim.id, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'not_found' });

    // The other order: a shipment cancelled, then the order; cancelling again keeps cancelled_on.
    await client.orders.create(order(cancelled));
    const second = await client.shipments.create({ tracking_number: '9400111899223197428490', source_order_id: cancelled });
    expect(await client.shipments.cancel(second.tracking_number)).toMatchObject({ delivery_status: 'Cancelled' });
    const cancel = await client.orders.cancel(cancelled);
    expect(cancel).toMatchObject({ source_order_id: cancelled, status: 'cancelled', paid_to_insure: 1.88 });
    expect(cancel.cancelled_on).not.toBeNull();
    expect((await client.orders.cancel(cancelled)).cancelled_on).toBe(cancel.cancelled_on);

    // Billing: two bookings of 1.88 and one re-pricing of +1.12, all this month.
    expect(await client.billing.statement({ month })).toMatchObject({
      merchant_id: shop.store.id,
      month,
      currency: 'USD',
      premiums: { count: 2, total: 3.76 },
      repricings: { count: 1, total: 1.12 },
      credits: { count: 0, total: 0, weeks: [] },
      net_total: 4.88,
    });
  });

  it('with a test key: writes answer test_ objects and store nothing; reads are NotFoundError', async () => {
    const client = new Client({ apiKey: shop.testKey, baseUrl: service.baseUrl });
    expect((await client.quotes.create({ cart: { covered: { amount: '80.00' } } })).id).toMatch(/^test_/);
    const created = await client.orders.create(order('only-in-test'));
    expect(created.id).toMatch(/^test_/);
    await expect(client.orders.retrieve('only-in-test')).rejects.toBeInstanceOf(NotFoundError);
    const address = { street_address1: '1 Main St', city: 'Springfield', province: 'IL' };
    expect(await client.addresses.verify({ address: { ...address, zip: '62701' } })).toMatchObject({ verdict: 'deliverable', deliverable: true });
    expect(await client.addresses.verify({ address: { ...address, zip: '00000' } })).toMatchObject({ verdict: 'undeliverable', deliverable: false });
  });
});

describe('lastResponse', () => {
  it('carries status, request id, rate limits and the key sent, and stays out of the JSON', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const quote = await client.quotes.create({ cart: { covered: { amount: '80.00' } } });
    const { lastResponse } = quote;
    expect(lastResponse).toMatchObject({ status: 201, replayed: false });
    expect(lastResponse.requestId).toMatch(/^req_/);
    expect(lastResponse.headers['x-request-id']).toBe(lastResponse.requestId);
    expect(lastResponse.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // This service runs without rate limits, so no RateLimit-* headers (sdk-errors reads them from a limited one).
    expect(lastResponse.headers['ratelimit-limit']).toBeUndefined();
    expect(lastResponse.rateLimit).toBeUndefined();
    // Non-enumerable: the result serialises, spreads and lists its keys as the API sent it.
    expect(Object.keys(quote)).not.toContain('lastResponse');
    expect(JSON.parse(JSON.stringify(quote))).toEqual({ ...quote });
    expect(JSON.stringify(quote)).not.toMatch(/lastResponse|req_/);

    const read = await client.billing.statement({ month });
    expect(read.lastResponse).toMatchObject({ status: 200, idempotencyKey: undefined, replayed: false });
  });
});

describe('Idempotency-Key against the real server', () => {
  it('the same key and body replays the stored answer; the order exists once', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const body = order(`idem-${Date.now()}`);
    const idempotencyKey = `order-${body.source_order_id}`;
    const first = await client.orders.create(body, { idempotencyKey });
    const again = await client.orders.create(body, { idempotencyKey });
    expect(first.lastResponse).toMatchObject({ status: 201, replayed: false, idempotencyKey });
    expect(again.lastResponse).toMatchObject({ status: 201, replayed: true, idempotencyKey });
    expect(again).toEqual(first);
    expect(await service.db.order.count({ where: { storeId: shop.store.id, sourceOrderId: body.source_order_id } })).toBe(1);
  });

  it('the same key with a different request is UnprocessableError, and changes nothing', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const body = order(`idem-diff-${Date.now()}`);
    const idempotencyKey = `order-${body.source_order_id}`;
    await client.orders.create(body, { idempotencyKey });
    const error = await client.orders.create({ ...body, subtotal: 200 }, { idempotencyKey }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(UnprocessableError);
    expect(error).toMatchObject({ status: 422, code: 'unprocessable', idempotencyKey });
    expect(await client.orders.retrieve(body.source_order_id)).toMatchObject({ subtotal: 125 });
  });

  it('a test key accepts the header and stores nothing: the same key runs again', async () => {
    const client = new Client({ apiKey: shop.testKey, baseUrl: service.baseUrl });
    const body = order('idem-test-mode');
    const first = await client.orders.create(body, { idempotencyKey: 'test-mode-key-1' });
    const again = await client.orders.create(body, { idempotencyKey: 'test-mode-key-1' });
    expect(first.lastResponse.replayed).toBe(false);
    expect(again.lastResponse.replayed).toBe(false);
    expect(again.id).not.toBe(first.id);
    expect(again.id).toMatch(/^test_/);
  });
});

describe('hooks', () => {
  it("on('request') and on('response') see every attempt, off() stops them, and a throwing listener changes nothing", async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const seen: Array<RequestEvent | ResponseEvent> = [];
    const onRequest = (event: RequestEvent) => seen.push(event);
    const onResponse = (event: ResponseEvent) => seen.push(event);
    client.on('request', onRequest).on('response', onResponse);
    client.on('response', () => {
      throw new Error('a broken logger');
    });
    const quote = await client.quotes.create({ cart: { covered: { amount: '10.00' } } });
    await client.orders.retrieve('no such order').catch(() => undefined);
    expect(seen).toEqual([
      { method: 'POST', path: '/v2/quotes', attempt: 1, idempotencyKey: quote.lastResponse.idempotencyKey },
      {
        method: 'POST',
        path: '/v2/quotes',
        attempt: 1,
        idempotencyKey: quote.lastResponse.idempotencyKey,
        status: 201,
        requestId: quote.lastResponse.requestId,
        replayed: false,
        elapsedMs: expect.any(Number),
      },
      { method: 'GET', path: '/v2/orders/no%20such%20order', attempt: 1, idempotencyKey: undefined },
      expect.objectContaining({ method: 'GET', status: 404, requestId: expect.stringMatching(/^req_/) }),
    ]);
    client.off('request', onRequest).off('response', onResponse);
    await client.quotes.create({ cart: { covered: { amount: '10.00' } } });
    expect(seen).toHaveLength(4);
  });
});
