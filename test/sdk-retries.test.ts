// The SDK's retries (sdk/src/retry.ts) against a local server that fails on purpose and counts
// attempts. Waits are recorded by an injected sleep, so no test waits the real seconds it asserts.
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
    ['more than 60 seconds, capped', '600', 60_000],
    ['an HTTP date 10 s ahead', new Date(NOW + 10_000).toUTCString(), 10_000],
    ['an HTTP date an hour ahead, capped', new Date(NOW + 3_600_000).toUTCString(), 60_000],
    ['an HTTP date in the past', new Date(NOW - 5_000).toUTCString(), 0],
  ])('429 with Retry-After of %s waits as told', async (_label, retryAfter, expected) => {
    script.push({ status: 429, headers: { 'retry-after': retryAfter } });
    const { client, delays, events } = recordingClient();
    await client.orders.retrieve('1001');
    expect(requests).toHaveLength(2);
    expect(delays).toEqual([expected]);
    expect(events).toEqual([{ attempt: 1, delayMs: expected, status: 429, error: undefined }]);
  });

  it('is honoured on a 503 too, and backoff applies when it is absent or unreadable', async () => {
    script.push({ status: 503, headers: { 'retry-after': '1' } }, { status: 429 }, { status: 429, headers: { 'retry-after': 'later' } });
    const { client, delays } = recordingClient({ maxRetries: 3 });
    await client.orders.retrieve('1001');
    expect(delays).toEqual([1000, 750, 1500]);
  });

  it('a 429 that outlasts the retries is a RateLimitError with retryAfterSeconds', async () => {
    script.push(...Array.from({ length: 3 }, () => ({ status: 429, headers: { 'retry-after': '7' } })));
    const { client, delays } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(7);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req_fake_3' });
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([7000, 7000]);
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

describe('orders.create after an unknown outcome', () => {
  it('a 409 on a retry after a 5xx means the first attempt landed: the order is read back', async () => {
    script.push({ status: 503 }, { status: 409 }, { status: 200, body: storedOrder });
    const { client } = recordingClient();
    await expect(client.orders.create(order())).resolves.toEqual(storedOrder);
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v2/orders',
      'POST /v2/orders',
      'GET /v2/orders/1001',
    ]);
  });

  it('the same after a timeout or a dropped connection', async () => {
    script.push({ hang: true }, { destroy: true }, { status: 409 }, { status: 200, body: storedOrder });
    const { client } = recordingClient({ timeoutMs: 100 });
    await expect(client.orders.create(order({ source_order_id: '#1001/β' }))).resolves.toEqual(storedOrder);
    expect(requests.at(-1)?.url).toBe('/v2/orders/%231001%2F%CE%B2');
  });

  it('a 409 on the first attempt is a ConflictError', async () => {
    script.push({ status: 409 });
    const { client } = recordingClient();
    expect(await rejection(client.orders.create(order()))).toBeInstanceOf(ConflictError);
    expect(requests).toHaveLength(1);
  });

  it('a 409 after a 429 is a ConflictError: a rate-limited attempt did nothing', async () => {
    script.push({ status: 429, headers: { 'retry-after': '0' } }, { status: 409 });
    const { client } = recordingClient();
    expect(await rejection(client.orders.create(order()))).toBeInstanceOf(ConflictError);
    expect(requests).toHaveLength(2);
  });

  it('a 409 after a refused connection is a ConflictError: the request never left', async () => {
    let calls = 0;
    const refusingOnce: typeof fetch = async (input, init) => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      return fetch(input, init);
    };
    script.push({ status: 409 });
    const { client, events } = recordingClient({ fetch: refusingOnce });
    expect(await rejection(client.orders.create(order()))).toBeInstanceOf(ConflictError);
    expect(events[0]?.error?.message).toMatch(/ECONNREFUSED/);
    expect(requests).toHaveLength(1);
  });
});

describe('claims.create, which the API cannot deduplicate', () => {
  const claim = { source_order_id: '1001', reason: 'lost' as const };

  it('is not retried after an unknown outcome', async () => {
    script.push({ status: 503 });
    const { client } = recordingClient();
    expect(await rejection(client.claims.create(claim))).toBeInstanceOf(APIError);
    script.push({ destroy: true });
    expect(await rejection(client.claims.create(claim))).toBeInstanceOf(ConnectionError);
    expect(requests).toHaveLength(2);
  });

  it('is retried after a 429', async () => {
    script.push({ status: 429, headers: { 'retry-after': '1' } }, { status: 201, body: { id: 'clm_1' } });
    const { client } = recordingClient();
    await expect(client.claims.create(claim)).resolves.toEqual({ id: 'clm_1' });
    expect(requests).toHaveLength(2);
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
      expect(typeof header === 'string' && verifyWebhook(header, request.body, secret)).toEqual({ valid: true });
    }
  });
});
