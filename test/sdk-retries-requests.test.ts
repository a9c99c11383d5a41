// The SDK's requests (sdk/src/transport.ts) and their retries: the Idempotency-Key every write
// carries, the same on each attempt, and what each request says (path, key, body, headers), against
// a local server that fails on purpose and records every request (test/support/sdk-fake-api.ts).
// Waits are recorded by an injected sleep, so no test waits the real seconds it asserts.
import { describe, expect, it } from 'vitest';
import { ConflictError, SDK_VERSION, sendPlatformMessage, verifyWebhook } from '../sdk/src/index.js';
import { apiUrl, KEY, keysSent, order, recordingClient, rejection, requests, script, storedOrder, UUID, useFakeApi } from './support/sdk-fake-api.js';

useFakeApi();

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
    await sendPlatformMessage({ baseUrl: apiUrl(), platform: 'shopwire', secret: 'platform-secret-0123456789', message: { merchant: 'acme', event: 'refund.created', order: { id: '1' }, refund: { id: 'r1' } } });
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
    await sendPlatformMessage({ baseUrl: apiUrl(), platform: 'shopwire', secret, message, sleep: async () => {} });
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
