// Every SDK error class from real answers of the real server: the class follows the status, and
// code, fieldErrors, requestId, raw and headers carry what the API said (sdk/src/errors.ts).
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ErrorCode as ContractErrorCode } from '../contract/errors.js';
import { actingFor, issueApiKey } from '../server/domain/access/index.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import {
  APIError,
  AuthenticationError,
  Client,
  ConflictError,
  ConnectionError,
  ErrorCode,
  InvalidRequestError,
  NotFoundError,
  OrderProtectionError,
  PermissionError,
  RateLimitError,
  TimeoutError,
  UnprocessableError,
  sendPlatformMessage,
  type OrderRequest,
} from '../sdk/src/index.js';
import { orderBody } from './support/http.js';
import { rejection } from './support/sdk-rejection.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';


let service: TestService;
let shop: SeededStore;
let client: Client;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl, maxRetries: 0 });
});
afterAll(async () => service.close());

const newOrder = (overrides: Record<string, unknown> = {}) => orderBody(overrides) as unknown as OrderRequest;


function expectAnswered(error: OrderProtectionError, status: number, code: string): void {
  expect(error.status).toBe(status);
  expect(error.code).toBe(code);
  expect(error.requestId).toMatch(/^req_/);
  expect(error.headers['x-request-id']).toBe(error.requestId);
  expect(error.raw).toMatchObject({ error_code: code, error: error.message });
}

describe('ErrorCode', () => {
  it("is a frozen value holding the contract's codes, and error.code is typed as their union", () => {
    expect(Object.values(ErrorCode)).toEqual(ContractErrorCode.options);
    expect(Object.keys(ErrorCode)).toEqual(ContractErrorCode.options);
    expect(ErrorCode.conflict).toBe('conflict');
    expect(ErrorCode.order_not_yet_ingested).toBe('order_not_yet_ingested');
    expect(Object.isFrozen(ErrorCode)).toBe(true);
    expectTypeOf<ErrorCode>().toEqualTypeOf<(typeof ContractErrorCode.options)[number]>();
    expectTypeOf<OrderProtectionError['code']>().toEqualTypeOf<ErrorCode | undefined>();
  });
});

describe('errors from the real server', () => {
  it('401: AuthenticationError for an unknown key', async () => {
    const stranger = new Client({ apiKey: `ak_live_${'A'.repeat(40)}`, baseUrl: service.baseUrl });
    const error = await rejection(stranger.quotes.create({ cart: { covered: { amount: '10.00' } } }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expectAnswered(error, 401, 'unauthorized');
    expect(error.fieldErrors).toEqual([]);
  });

  it('403: PermissionError for a key not scoped to a store', async () => {
    const account = await issueApiKey(service.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'account' });
    const error = await rejection(new Client({ apiKey: account.key, baseUrl: service.baseUrl }).orders.retrieve('1001'));
    expect(error).toBeInstanceOf(PermissionError);
    expectAnswered(error, 403, 'forbidden');
  });

  it('400: InvalidRequestError with every bad field', async () => {
    const { customer_details: _omitted, ...body } = newOrder({ subtotal: 1.234 });
    const error = await rejection(client.orders.create(body as OrderRequest));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expectAnswered(error, 400, 'invalid_request');
    expect(error.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'subtotal', message: expect.stringMatching(/two decimal places/) },
        { field: 'customer_details', message: 'is required' },
      ]),
    );
  });

  it('413: InvalidRequestError with code payload_too_large', async () => {
    const error = await rejection(client.quotes.create({ cart: { covered: { amount: '10.00' }, cart_items: [{ note: 'x'.repeat(1_100_000) }] } }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expectAnswered(error, 413, 'payload_too_large');
  });

  it('404: NotFoundError for a missing order, and for any read with a test key', async () => {
    const missing = await rejection(client.orders.retrieve('no-such-order'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expectAnswered(missing, 404, 'not_found');
    const testClient = new Client({ apiKey: shop.testKey, baseUrl: service.baseUrl });
    const testRead = await rejection(testClient.claims.list({ source_order_id: 'anything' }));
    expect(testRead).toBeInstanceOf(NotFoundError);
    expect(testRead.headers['x-service-mode']).toBe('test');
  });

  it('409: ConflictError for a duplicate source_order_id on a first attempt', async () => {
    const body = newOrder();
    await client.orders.create(body);
    const error = await rejection(client.orders.create(body));
    expect(error).toBeInstanceOf(ConflictError);
    expectAnswered(error, 409, 'conflict');
  });

  it('409: ConflictError for cancelling an order with an open claim', async () => {
    const body = newOrder();
    await client.orders.create(body);
    await client.claims.create({ source_order_id: body.source_order_id, reason: 'lost' });
    const error = await rejection(client.orders.cancel(body.source_order_id));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('conflict');
  });

  it('422: UnprocessableError for a duplicate line item id', async () => {
    const line = { source_id: 'li_1', name: 'Desk organiser', price: 10, quantity: 1 };
    const error = await rejection(client.orders.create(newOrder({ line_items: [line, line] })));
    expect(error).toBeInstanceOf(UnprocessableError);
    expectAnswered(error, 422, 'unprocessable');
    expect(error.fieldErrors).toEqual([{ field: 'line_items[1].source_id', message: expect.any(String) }]);
  });

  it('429: RateLimitError with retryAfterSeconds, after waiting as Retry-After said, or at once past maxRetryDelayMs', async () => {
    const limited = await startService({
      databaseUrl: service.databaseUrl,
      rateLimits: { ordersPerMinute: 1, addressesPerMinute: 100, addressesPerDay: 100, quotesPerMinute: 100, quotesPerMinutePerIp: 100, otherPerMinute: 100, shopperPerMinutePerIp: 1000, shopperLookupsPerIp: 1000, shopperLookupsPerOrderPerIp: 1000, shopperLookupsPerOrder: 1000 },
    });
    try {
      const store = await seedStore(limited.db);
      const delays: number[] = [];
      const sleep = async (ms: number) => {
        delays.push(ms);
      };
      // Willing to wait up to a minute, as a background job may be.
      const limitedClient = new Client({ apiKey: store.liveKey, baseUrl: limited.baseUrl, maxRetries: 1, maxRetryDelayMs: 60_000, sleep });
      await rejection(limitedClient.orders.retrieve('first')); // 404, and the one request of the minute
      const error = await rejection(limitedClient.orders.retrieve('second'));
      expect(error).toBeInstanceOf(RateLimitError);
      expectAnswered(error, 429, 'rate_limited');
      const retryAfter = Number(error.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((error as RateLimitError).retryAfterSeconds).toBe(retryAfter);
      // It waited as the first 429 said: this one's Retry-After, or a second more if the clock ticked in between.
      expect(delays).toHaveLength(1);
      expect([retryAfter * 1000, (retryAfter + 1) * 1000]).toContain(delays[0]);

      // With the default cap (5 s), a wait of most of a minute is not made: RateLimitError at once.
      const hurried = new Client({ apiKey: store.liveKey, baseUrl: limited.baseUrl, sleep });
      const quick = await rejection(hurried.orders.retrieve('third'));
      expect(quick).toBeInstanceOf(RateLimitError);
      expect((quick as RateLimitError).retryAfterSeconds).toBeGreaterThan(5);
      expect(delays).toHaveLength(1);

      // A limited service tells the remaining budget on success too.
      const quote = await hurried.quotes.create({ cart: { covered: { amount: '10.00' } } });
      expect(quote.lastResponse.rateLimit).toMatchObject({ limit: 100, remaining: 99 });
      expect(quote.lastResponse.rateLimit?.resetSeconds).toBeGreaterThan(0);
      expect(quote.lastResponse.rateLimit?.resetSeconds).toBeLessThanOrEqual(60);
    } finally {
      await limited.close();
    }
  });

  it('5xx: APIError, e.g. 500 order_not_yet_ingested for a fulfilment that came first', async () => {
    const secret = 'errors-platform-secret-0123456789';
    await createPlatform(service.db, TEST_OPERATOR, 'errorsplatform', secret);
    await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), 'errorsplatform');
    const error = await rejection(
      sendPlatformMessage({
        baseUrl: service.baseUrl,
        platform: 'errorsplatform',
        secret,
        maxRetries: 0,
        message: {
          merchant: shop.store.slug,
          event: 'fulfillment.created',
          order: { id: 'not-pushed-yet' },
          fulfillment: { id: 'f-1', shipments: [{ tracking_number: '1Z999AA10123456784' }] },
        },
      }),
    );
    expect(error).toBeInstanceOf(APIError);
    expectAnswered(error, 500, 'order_not_yet_ingested');
  });
});

describe('errors without an answer', () => {
  it('ConnectionError when nothing listens', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new Client({ apiKey: shop.liveKey, baseUrl: `http://127.0.0.1:${port}`, sleep: async () => {} });
    const error = await rejection(unreachable.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error).toMatchObject({ status: undefined, code: undefined, requestId: undefined, headers: {} });
  });

  it('TimeoutError when the server accepts and never answers', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const hanging = new Client({ apiKey: shop.liveKey, baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 100, maxRetries: 1, sleep: async () => {} });
      const error = await rejection(hanging.orders.retrieve('1001'));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(sockets.length).toBeGreaterThanOrEqual(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
