// The SDK's retries (sdk/src/retry.ts) and requests (sdk/src/transport.ts) against a local server
// that fails on purpose and records every request. Waits are recorded by an injected sleep, so no
// test waits the real seconds it asserts.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  Client,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  OrderProtectionError,
  PermissionError,
  RateLimitError,
  SDK_VERSION,
  TimeoutError,
  UnprocessableError,
  sendPlatformMessage,
  verifyWebhook,
  type ClientOptions,
  type OrderRequest,
  type RetryEvent,
} from '../sdk/src/index.js';
import { backoffDelayMs, parseRetryAfterMs } from '../sdk/src/retry.js';

type Step =
  /** Answer with this status, JSON body (the API's error format by default) and headers. */
  | { status: number; body?: unknown; text?: string; headers?: Record<string, string> }
  /** Read the request, then destroy the socket without answering. */
  | { destroy: true }
  /** Read the request and never answer. */
  | { hang: true };

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const KEY = 'ak_live_00000000000000000000000000000000';
const NOW = Date.parse('2026-11-20T10:00:00Z');
const requests: Recorded[] = [];
const script: Step[] = [];
let baseUrl: string;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    const step = script.shift() ?? { status: 200, body: { ok: true } };
    if ('hang' in step) return;
    if ('destroy' in step) {
      request.socket.destroy();
      return;
    }
    const headers = { 'x-request-id': `req_fake_${requests.length}`, ...step.headers };
    if (step.text !== undefined) {
      response.writeHead(step.status, { 'content-type': 'text/html', ...headers });
      response.end(step.text);
      return;
    }
    const body = step.body ?? { error: `Failed with ${step.status}.`, error_code: codeFor(step.status), errors: [] };
    response.writeHead(step.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  });
});

function codeFor(status: number): string {
  const codes: Record<number, string> = {
    400: 'invalid_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    409: 'conflict',
    413: 'payload_too_large',
    422: 'unprocessable',
    429: 'rate_limited',
  };
  return codes[status] ?? 'internal_error';
}

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  requests.length = 0;
  script.length = 0;
  // Hung requests were aborted by the client; closing idle keep-alive sockets here would make the
  // next test's first attempt meet a stale socket (which the SDK would rightly retry).
});

/** A client that records every wait instead of sleeping, with mid-range jitter and a fixed clock. */
function recordingClient(options: Partial<ClientOptions> = {}) {
  const delays: number[] = [];
  const events: RetryEvent[] = [];
  const client = new Client({
    apiKey: KEY,
    baseUrl,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    now: () => NOW,
    onRetry: (event) => events.push(event),
    ...options,
  });
  return { client, delays, events };
}

const order = (overrides: Partial<OrderRequest> = {}): OrderRequest => ({
  source_order_id: '1001',
  subtotal: 125,
  insurance_selected: true,
  customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
  line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2 }],
  source_created_on: '2026-11-20T10:00:00Z',
  ...overrides,
});
const storedOrder = { id: 'ord_1', source_order_id: '1001', status: 'created', paid_to_insure: 1.88 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const keysSent = () => requests.map((request) => request.headers['idempotency-key']);

async function rejection(promise: Promise<unknown>): Promise<OrderProtectionError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OrderProtectionError);
  return error as OrderProtectionError;
}

describe('backoff', () => {
  it('is min(0.5 s * 2^(n-1), 5 s), jittered down to at most half and never below 0.5 s', () => {
    const ceilings = [500, 1000, 2000, 4000, 5000, 5000, 5000, 5000];
    ceilings.forEach((ceiling, index) => {
      const retry = index + 1;
      expect(backoffDelayMs(retry, () => 0.999999)).toBe(ceiling);
      expect(backoffDelayMs(retry, () => 0)).toBe(Math.max(500, ceiling / 2));
      for (let sample = 0; sample < 50; sample += 1) {
        const delay = backoffDelayMs(retry);
        expect(delay).toBeGreaterThanOrEqual(Math.max(500, ceiling / 2));
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    });
  });

  it('grows from one retry to the next and stays within the bounds', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const { client, delays } = recordingClient({ maxRetries: 5 });
    await client.orders.retrieve('1001');
    expect(requests).toHaveLength(6);
    expect(delays).toEqual([500, 750, 1500, 3000, 3750]);
    for (let index = 1; index < delays.length; index += 1) expect(delays[index]).toBeGreaterThan(delays[index - 1]!);
    expect(Math.max(...delays)).toBeLessThanOrEqual(5000);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfterMs('2', NOW)).toBe(2000);
    expect(parseRetryAfterMs(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfterMs('1.5', NOW)).toBe(1500);
    expect(parseRetryAfterMs(new Date(NOW + 10_000).toUTCString(), NOW)).toBe(10_000);
    expect(parseRetryAfterMs(new Date(NOW - 10_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfterMs('soon', NOW)).toBeUndefined();
    expect(parseRetryAfterMs('-1', NOW)).toBeUndefined();
    expect(parseRetryAfterMs(null, NOW)).toBeUndefined();
  });

  it.each([
    ['2 seconds', '2', 2000],
    ['an HTTP date 10 s ahead', new Date(NOW + 10_000).toUTCString(), 10_000],
    ['an HTTP date in the past', new Date(NOW - 5_000).toUTCString(), 0],
    ['exactly maxRetryDelayMs', '20', 20_000],
  ])('429 with Retry-After of %s waits as told (maxRetryDelayMs 20 s)', async (_label, retryAfter, expected) => {
    script.push({ status: 429, headers: { 'retry-after': retryAfter } });
    const { client, delays, events } = recordingClient({ maxRetryDelayMs: 20_000 });
    await client.orders.retrieve('1001');
    expect(requests).toHaveLength(2);
    expect(delays).toEqual([expected]);
    expect(events).toEqual([{ attempt: 1, delayMs: expected, status: 429, error: undefined }]);
  });

  it.each([
    ['60 seconds, over the default 5 s', '60', {}, 60],
    ['an HTTP date an hour ahead', new Date(NOW + 3_600_000).toUTCString(), { maxRetryDelayMs: 60_000 }, 3600],
    ['6 seconds, over a 5.999 s cap', '6', { maxRetryDelayMs: 5_999 }, 6],
  ])('a Retry-After of %s, longer than the SDK may wait, is a RateLimitError at once', async (_label, retryAfter, options, seconds) => {
    script.push({ status: 429, headers: { 'retry-after': retryAfter } }, { status: 200, body: storedOrder });
    const { client, delays } = recordingClient(options);
    const error = await rejection(client.quotes.create({ cart: { covered: { amount: '80.00' } } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(seconds);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('is honoured on a 503 too, and backoff applies when it is absent or unreadable', async () => {
    script.push({ status: 503, headers: { 'retry-after': '1' } }, { status: 429 }, { status: 429, headers: { 'retry-after': 'later' } });
    const { client, delays } = recordingClient({ maxRetries: 3 });
    await client.orders.retrieve('1001');
    expect(delays).toEqual([1000, 750, 1500]);
  });

  it('a 429 that outlasts the retries is a RateLimitError with retryAfterSeconds', async () => {
    script.push(...Array.from({ length: 3 }, () => ({ status: 429, headers: { 'retry-after': '3' } })));
    const { client, delays } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(3);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req_fake_3' });
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([3000, 3000]);
  });

  it('maxRetryDelayMs caps the backoff too', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const { client, delays } = recordingClient({ maxRetries: 4, maxRetryDelayMs: 800, random: () => 0.999999 });
    await client.orders.retrieve('1001');
    expect(delays).toEqual([500, 800, 800, 800]);
    expect(() => recordingClient({ maxRetryDelayMs: -1 })).toThrow(/maxRetryDelayMs/);
  });
});

describe('what is retried', () => {
  it('503 twice then 200 makes 3 attempts and resolves with the body', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 200, body: storedOrder });
    const { client, delays, events } = recordingClient();
    await expect(client.orders.retrieve('1001')).resolves.toEqual(storedOrder);
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(Array(3).fill('GET /v2/orders/1001'));
    expect(delays).toEqual([500, 750]);
    expect(events.map((event) => event.status)).toEqual([503, 503]);
  });

  it('5xx that outlasts the retries is an APIError', async () => {
    script.push({ status: 500 }, { status: 502 }, { status: 504 });
    const { client } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 504, code: 'internal_error' });
    expect(requests).toHaveLength(3);
  });

  it.each([
    [400, InvalidRequestError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, InvalidRequestError],
    [422, UnprocessableError],
  ])('%i is never retried', async (status, errorClass) => {
    script.push({ status }, { status: 200, body: storedOrder });
    const { client, delays } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ status, code: codeFor(status), requestId: 'req_fake_1' });
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries a network error (the server destroys the socket)', async () => {
    script.push({ destroy: true }, { status: 200, body: storedOrder });
    const { client, events } = recordingClient();
    await expect(client.orders.retrieve('1001')).resolves.toEqual(storedOrder);
    expect(requests).toHaveLength(2);
    expect(events[0]?.error).toBeInstanceOf(ConnectionError);
    expect(events[0]?.status).toBeUndefined();
  });

  it('a network error on every attempt is a ConnectionError', async () => {
    script.push({ destroy: true }, { destroy: true }, { destroy: true });
    const { client } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/retried 2 times/);
    expect(requests).toHaveLength(3);
  });

  it('a hang is a TimeoutError after the retries', async () => {
    script.push({ hang: true }, { hang: true }, { hang: true });
    const { client } = recordingClient({ timeoutMs: 100 });
    const started = Date.now();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/within 100 ms/);
    expect(requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('the deadline holds even with a fetch that ignores its abort signal', async () => {
    const deaf: typeof fetch = () => new Promise<Response>(() => {});
    const { client } = recordingClient({ fetch: deaf, timeoutMs: 50, maxRetries: 1 });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(TimeoutError);
  });

  it('a hang followed by an answer resolves', async () => {
    script.push({ hang: true }, { status: 200, body: storedOrder });
    const { client, events } = recordingClient({ timeoutMs: 100 });
    await expect(client.orders.retrieve('1001')).resolves.toEqual(storedOrder);
    expect(events[0]?.error).toBeInstanceOf(TimeoutError);
  });

  it('maxRetries: 0 makes one attempt', async () => {
    const { client, delays } = recordingClient({ maxRetries: 0 });
    script.push({ status: 503 });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(APIError);
    script.push({ destroy: true });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(ConnectionError);
    script.push({ status: 429, headers: { 'retry-after': '1' } });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(RateLimitError);
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([]);
  });

  it('a call can override maxRetries and timeoutMs', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 });
    const { client } = recordingClient({ timeoutMs: 60_000 });
    await expect(client.orders.retrieve('1001', { maxRetries: 3 })).resolves.toEqual({ ok: true });
    expect(requests).toHaveLength(4);
    script.push({ hang: true });
    expect(await rejection(client.orders.retrieve('1001', { maxRetries: 0, timeoutMs: 50 }))).toBeInstanceOf(TimeoutError);
    await expect(client.orders.retrieve('1001', { maxRetries: -1 })).rejects.toThrow(TypeError);
    await expect(client.orders.retrieve('1001', { timeoutMs: 0 })).rejects.toThrow(TypeError);
  });

  it('an answer that is not in the error format is still typed, with its text as raw', async () => {
    script.push({ status: 502, text: '<html>Bad gateway</html>' });
    const { client } = recordingClient({ maxRetries: 0 });
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 502, code: undefined, fieldErrors: [], raw: '<html>Bad gateway</html>' });
    expect(error.headers['content-type']).toBe('text/html');
  });

  it('a 2xx without a JSON body is an APIError, not a silent undefined', async () => {
    script.push({ status: 200, text: 'ok' });
    const { client } = recordingClient();
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(APIError);
  });
});

describe('writes, which carry an Idempotency-Key', () => {
  it('a 5xx then a 409 is a ConflictError: the SDK never reads another order back', async () => {
    script.push({ status: 503 }, { status: 409 }, { status: 200, body: storedOrder });
    const { client } = recordingClient();
    const error = await rejection(client.orders.create(order()));
    expect(error).toBeInstanceOf(ConflictError);
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /v2/orders', 'POST /v2/orders']);
    expect(error.idempotencyKey).toMatch(UUID);
    expect(keysSent()).toEqual([error.idempotencyKey, error.idempotencyKey]);
  });

  it('a 409 with Retry-After (the same key still being processed) is retried after the wait, with the same key', async () => {
    script.push({ status: 409, headers: { 'retry-after': '1' } }, { status: 201, body: storedOrder, headers: { 'idempotent-replayed': 'true' } });
    const { client, delays } = recordingClient();
    const created = await client.orders.create(order());
    expect(created).toEqual(storedOrder);
    expect(created.lastResponse).toMatchObject({ status: 201, replayed: true });
    expect(delays).toEqual([1000]);
    expect(keysSent()).toEqual([created.lastResponse.idempotencyKey, created.lastResponse.idempotencyKey]);
  });

  it('a 409 without Retry-After, or to a read (no key), is final', async () => {
    script.push({ status: 409 }, { status: 409, headers: { 'retry-after': '1' } });
    const { client, delays } = recordingClient();
    expect(await rejection(client.orders.create(order()))).toBeInstanceOf(ConflictError);
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(ConflictError);
    expect(requests).toHaveLength(2);
    expect(delays).toEqual([]);
  });

  it('every write is retried after an unknown outcome, claims included, with one key per call', async () => {
    script.push({ status: 503 }, { destroy: true }, { status: 201, body: { id: 'clm_1' } }, { status: 502 }, { status: 201, body: { id: 'clm_2' } });
    const { client } = recordingClient();
    const claim = { source_order_id: '1001', reason: 'lost' as const };
    const first = await client.claims.create(claim);
    const second = await client.claims.create(claim);
    expect([first.id, second.id]).toEqual(['clm_1', 'clm_2']);
    const [a, b] = [first.lastResponse.idempotencyKey, second.lastResponse.idempotencyKey];
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(b).not.toBe(a);
    expect(keysSent()).toEqual([a, a, a, b, b]);
  });

  it('every POST and PATCH of the client sends one, reads and the platform webhook none', async () => {
    const { client } = recordingClient();
    await client.quotes.create({ cart: { covered: { amount: '80.00' } } });
    await client.orders.create(order());
    await client.orders.update('1001', { subtotal: 10 });
    await client.orders.cancel('1001');
    await client.shipments.create({ tracking_number: '1Z999AA10123456784', source_order_id: '1001' });
    await client.shipments.update('1Z999AA10123456784', { courier_id: 'ups' });
    await client.shipments.cancel('1Z999AA10123456784');
    await client.claims.create({ source_order_id: '1001', reason: 'lost' });
    await client.addresses.verify({ address: { street_address1: '1 Main St', zip: '62701' } });
    await client.orders.retrieve('1001');
    await client.shipments.retrieve('1Z999AA10123456784');
    await client.claims.retrieve('clm_1');
    await client.claims.list({ source_order_id: '1001' });
    await client.billing.statement({ month: '2026-11' });
    await sendPlatformMessage({ baseUrl, platform: 'shopwire', secret: 'platform-secret-0123456789', message: { merchant: 'acme', event: 'refund.created', order: { id: '1' }, refund: { id: 'r1' } } });
    const sent = requests.map((request) => [`${request.method} ${request.url}`, request.headers['idempotency-key']] as const);
    const writes = sent.slice(0, 9);
    expect(writes.every(([, key]) => typeof key === 'string' && UUID.test(key))).toBe(true);
    expect(new Set(writes.map(([, key]) => key)).size).toBe(9);
    expect(sent.slice(9)).toEqual([
      ['GET /v2/orders/1001', undefined],
      ['GET /v1/shipments/1Z999AA10123456784', undefined],
      ['GET /v1/claims/clm_1', undefined],
      ['GET /v1/claims?source_order_id=1001', undefined],
      ['GET /v1/billing/statements?month=2026-11', undefined],
      ['POST /api/webhooks/shopwire', undefined],
    ]);
  });

  it("a caller's idempotencyKey is sent as given; a malformed one is refused before sending", async () => {
    script.push({ status: 503 }, { status: 201, body: storedOrder });
    const { client } = recordingClient();
    const created = await client.orders.create(order(), { idempotencyKey: 'order-1001-attempt' });
    expect(created.lastResponse.idempotencyKey).toBe('order-1001-attempt');
    expect(keysSent()).toEqual(['order-1001-attempt', 'order-1001-attempt']);
    await expect(client.orders.create(order(), { idempotencyKey: 'has space' })).rejects.toThrow(TypeError);
    await expect(client.orders.create(order(), { idempotencyKey: 'k'.repeat(256) })).rejects.toThrow(TypeError);
    await expect(client.orders.create(order(), { idempotencyKey: '' })).rejects.toThrow(TypeError);
    expect(requests).toHaveLength(2);
  });
});

describe('deadlineMs: one deadline for every attempt and wait of a call', () => {
  /** A client whose clock moves only when it sleeps, so waits count against the deadline exactly. */
  function clockedClient(options: Partial<ClientOptions>) {
    let clock = NOW;
    const delays: number[] = [];
    const client = new Client({
      apiKey: KEY,
      baseUrl,
      random: () => 0.5,
      now: () => clock,
      sleep: async (ms) => {
        delays.push(ms);
        clock += ms;
      },
      ...options,
    });
    return { client, delays };
  }

  it('stops retrying when the next wait would pass the deadline, with the last answer', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: storedOrder });
    const { client, delays } = clockedClient({ maxRetries: 5, deadlineMs: 1_000 });
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(APIError);
    expect(delays).toEqual([500]); // the next, 750 ms, would end at 1250 ms
    expect(requests).toHaveLength(2);
  });

  it('a Retry-After beyond the deadline is final at once', async () => {
    script.push({ status: 429, headers: { 'retry-after': '2' } }, { status: 200, body: storedOrder });
    const { client, delays } = clockedClient({});
    expect(await rejection(client.quotes.create({ cart: { covered: { amount: '1.00' } } }, { deadlineMs: 1_500 }))).toBeInstanceOf(RateLimitError);
    expect(delays).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('bounds each attempt by what is left of it', async () => {
    script.push({ hang: true }, { status: 200, body: storedOrder });
    const { client } = recordingClient({ timeoutMs: 60_000, deadlineMs: 150 });
    const started = Date.now();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/within 150 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(() => recordingClient({ deadlineMs: 0 })).toThrow(/deadlineMs/);
    await expect(client.orders.retrieve('1001', { deadlineMs: Number.NaN })).rejects.toThrow(/deadlineMs/);
  });
});

describe('signal', () => {
  it('aborts a hanging attempt and does not retry: the call rejects with the reason', async () => {
    script.push({ hang: true }, { status: 200, body: storedOrder });
    const { client } = recordingClient();
    const controller = new AbortController();
    const call = client.orders.retrieve('1001', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('the shopper left'));
    await expect(call).rejects.toThrow('the shopper left');
    expect(requests).toHaveLength(1);
  });

  it('aborts the wait between attempts, and an aborted signal sends nothing', async () => {
    script.push({ status: 503 }, { status: 200, body: storedOrder });
    const controller = new AbortController();
    const { client } = recordingClient({ sleep: () => new Promise(() => controller.abort()) });
    await expect(client.orders.retrieve('1001', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(client.orders.retrieve('1001', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(1);
  });
});

describe('requests', () => {
  it('percent-encode path parameters and queries', async () => {
    const { client } = recordingClient();
    await client.orders.retrieve('#1001/β');
    await client.orders.update('#1001/β', { subtotal: 10 });
    await client.orders.cancel('#1001/β');
    await client.shipments.retrieve('1Z 999/AA1');
    await client.claims.retrieve('a?b');
    await client.claims.list({ source_order_id: '#1001/β&x=1' });
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /v2/orders/%231001%2F%CE%B2',
      'PATCH /v2/orders/%231001%2F%CE%B2',
      'POST /v1/orders/%231001%2F%CE%B2/cancel',
      'GET /v1/shipments/1Z%20999%2FAA1',
      'GET /v1/claims/a%3Fb',
      'GET /v1/claims?source_order_id=%231001%2F%CE%B2%26x%3D1',
    ]);
  });

  it('refuse path parameters that cannot name one segment', async () => {
    const { client } = recordingClient();
    await expect(client.orders.retrieve('')).rejects.toThrow(TypeError);
    await expect(client.shipments.cancel('..')).rejects.toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });

  it('carry the key in the token header and JSON bodies', async () => {
    const { client } = recordingClient();
    await client.quotes.create({ cart: { covered: { amount: '80.00' } } });
    const [request] = requests;
    expect(request?.headers.token).toBe(KEY);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ cart: { covered: { amount: '80.00' } } });
  });

  it('a platform message carries no key, and every attempt is signed over the exact body', async () => {
    script.push({ status: 503 }, { status: 200, body: { received: true } });
    const secret = 'platform-secret-0123456789';
    const message = {
      merchant: 'acme',
      event: 'fulfillment.created' as const,
      order: { id: 'po-1' },
      fulfillment: { id: 'f-1', shipments: [{ tracking_number: '1Z999AA10123456784' }] },
    };
    await sendPlatformMessage({ baseUrl, platform: 'shopwire', secret, message, sleep: async () => {} });
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.url).toBe('/api/webhooks/shopwire');
      expect(request.headers.token).toBeUndefined();
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.parse(request.body)).toEqual(message);
      const header = request.headers['x-webhook-signature'];
      expect(typeof header === 'string' && (await verifyWebhook(header, request.body, secret))).toEqual({ valid: true });
    }
  });

  it('say who sends them: User-Agent, and X-Client-User-Agent for browsers, which do not let User-Agent be set', async () => {
    const { client } = recordingClient();
    await client.orders.retrieve('1001');
    const agent = `order-protection-sdk/${SDK_VERSION} node/${process.versions.node}`;
    expect(SDK_VERSION).toBe('0.1.0');
    expect(requests[0]?.headers['user-agent']).toBe(agent);
    expect(requests[0]?.headers['x-client-user-agent']).toBe(agent);
  });

  it("carry a call's own headers, which cannot replace the key, the body's type or the Idempotency-Key", async () => {
    const { client } = recordingClient();
    const headers = { 'X-Trace-Id': 'trace-42', token: 'ak_live_forged', 'Content-Type': 'text/plain', 'Idempotency-Key': 'forged' };
    const quote = await client.quotes.create({ cart: { covered: { amount: '1.00' } } }, { headers });
    expect(requests[0]?.headers).toMatchObject({ 'x-trace-id': 'trace-42', token: KEY, 'content-type': 'application/json' });
    expect(requests[0]?.headers['idempotency-key']).toBe(quote.lastResponse.idempotencyKey);
    expect(quote.lastResponse.idempotencyKey).toMatch(UUID);
  });

  it('resolve with lastResponse read from the headers, non-enumerable', async () => {
    script.push({
      status: 201,
      body: storedOrder,
      headers: { 'ratelimit-limit': '120', 'ratelimit-remaining': '7', 'ratelimit-reset': '31', 'idempotent-replayed': 'true' },
    });
    const { client } = recordingClient();
    const created = await client.orders.create(order());
    expect(created.lastResponse).toEqual({
      status: 201,
      requestId: 'req_fake_1',
      idempotencyKey: requests[0]?.headers['idempotency-key'],
      replayed: true,
      rateLimit: { limit: 120, remaining: 7, resetSeconds: 31 },
      headers: expect.objectContaining({ 'x-request-id': 'req_fake_1', 'ratelimit-limit': '120' }),
    });
    expect(Object.getOwnPropertyDescriptor(created, 'lastResponse')?.enumerable).toBe(false);
    expect(JSON.stringify(created)).toBe(JSON.stringify(storedOrder));
  });
});
