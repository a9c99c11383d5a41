// Writes are safe to retry (sdk/README.md, "Idempotency"): a fetch wrapper lets each request reach
// the real server, which acts and answers, and then loses the answer (a network error, a proxy's
// 502, or no answer until the attempt times out). The SDK retries with the same Idempotency-Key and
// the server replays its stored answer: the object exists once, the premium is booked once, and
// the SDK resolves with the object the request made, never with another one.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, ConflictError, ConnectionError, type OrderRequest } from '../sdk/src/index.js';
import { orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

/** What happens to the server's answer to the next matching request. */
type Loss = 'network error' | 'answers 502' | 'never answers';

let service: TestService;
let shop: SeededStore;
/** Losses for the coming requests, by "METHOD /path"; other requests pass through. */
const losses = new Map<string, Loss[]>();
/** "METHOD /path: status the server answered [replayed] [-> the loss] (key n)", one line per request. */
const log: string[] = [];
/** The Idempotency-Keys seen, numbered in order of first use, so the log shows which are the same. */
const keys: string[] = [];

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
});
afterAll(async () => service.close());
beforeEach(() => {
  log.length = 0;
  losses.clear();
  keys.length = 0;
});

/** The real fetch, except that the answers planned in `losses` are lost after the server gave them. */
const lossyFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const route = `${init?.method ?? 'GET'} ${url.pathname}`;
  const response = await fetch(input, init);
  const text = await response.text(); // the server acted and answered in full
  const key = new Headers(init?.headers).get('idempotency-key');
  if (key !== null && !keys.includes(key)) keys.push(key);
  const loss = losses.get(route)?.shift();
  const replayed = response.headers.get('idempotent-replayed') === 'true' ? ' replayed' : '';
  log.push(`${route}: ${response.status}${replayed}${loss ? ` -> ${loss}` : ''}${key === null ? '' : ` (key ${keys.indexOf(key) + 1})`}`);
  if (loss === 'network error') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
  if (loss === 'answers 502') return new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'content-type': 'text/html' } });
  if (loss === 'never answers') {
    return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
  }
  return new Response(text, { status: response.status, headers: response.headers });
};

function lose(route: string, ...planned: Loss[]): void {
  losses.set(route, [...(losses.get(route) ?? []), ...planned]);
}

const client = (options: { timeoutMs?: number; maxRetries?: number } = {}) =>
  new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl, fetch: lossyFetch, sleep: async () => {}, ...options });
const newOrder = (overrides: Record<string, unknown> = {}) => orderBody(overrides) as unknown as OrderRequest;

async function orderStoredOnce(sourceOrderId: string): Promise<void> {
  expect(await service.db.order.count({ where: { sourceOrderId, storeId: shop.store.id } })).toBe(1);
  expect(await service.db.premiumLedgerEntry.count({ where: { order: { sourceOrderId, storeId: shop.store.id } } })).toBe(1);
}

describe('orders.create when the answer is lost', () => {
  it.each<[Loss, { timeoutMs?: number }]>([
    ['network error', {}],
    ['answers 502', {}],
    ['never answers', { timeoutMs: 2000 }],
  ])('the server acts, then the answer %s: the retry replays it and the order exists once', async (loss, options) => {
    const body = newOrder({ source_order_id: `#lost/${loss}/β`, subtotal: 125 });
    lose('POST /v2/orders', loss);
    const order = await client(options).orders.create(body);
    expect(order).toMatchObject({ source_order_id: body.source_order_id, status: 'created', subtotal: 125, paid_to_insure: 1.88 });
    expect(order.lastResponse).toMatchObject({ status: 201, replayed: true, idempotencyKey: keys[0] });
    expect(log).toEqual([`POST /v2/orders: 201 -> ${loss} (key 1)`, 'POST /v2/orders: 201 replayed (key 1)']);
    await orderStoredOnce(body.source_order_id);
  });

  it('never resolves with another order: after a lost 409 the retry is a ConflictError, and nothing is read back', async () => {
    const older = newOrder({ subtotal: 125 });
    await client().orders.create(older);
    log.length = 0;
    // Another request for the same source_order_id, with another subtotal: a real conflict.
    lose('POST /v2/orders', 'network error');
    const error = await client().orders.create({ ...older, subtotal: 200 }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'conflict' });
    expect(log).toEqual(['POST /v2/orders: 409 -> network error (key 2)', 'POST /v2/orders: 409 (key 2)']);
    expect(await service.db.order.findFirst({ where: { sourceOrderId: older.source_order_id, storeId: shop.store.id } })).toMatchObject({
      subtotalCents: 12_500n,
    });
  });

  it('when every answer is lost: ConnectionError with the key, and a call with that key gets the stored answer', async () => {
    const body = newOrder();
    lose('POST /v2/orders', 'network error', 'network error');
    const error = await client({ maxRetries: 1 }).orders.create(body).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(log).toEqual(['POST /v2/orders: 201 -> network error (key 1)', 'POST /v2/orders: 201 replayed -> network error (key 1)']);
    const { idempotencyKey } = error as ConnectionError;
    expect(idempotencyKey).toBe(keys[0]);
    // The outcome was unknown to the caller; asking again with the same key tells it.
    const order = await client().orders.create(body, { idempotencyKey });
    expect(order.lastResponse.replayed).toBe(true);
    expect(order.source_order_id).toBe(body.source_order_id);
    await orderStoredOnce(body.source_order_id);
  });

  it('a plain duplicate create (a new call, so a new key) is a ConflictError', async () => {
    const body = newOrder();
    await client().orders.create(body);
    const error = await client().orders.create(body).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConflictError);
    expect(log).toEqual(['POST /v2/orders: 201 (key 1)', 'POST /v2/orders: 409 (key 2)']);
    await orderStoredOnce(body.source_order_id);
  });
});

describe('other writes when the answer is lost', () => {
  it('shipments.create resolves with the shipment it created, not a ConflictError', async () => {
    const body = newOrder();
    await client().orders.create(body);
    log.length = 0;
    lose('POST /v1/shipments', 'network error');
    const shipment = await client().shipments.create({ tracking_number: '1Z 999 AA1 01 2345 6784', source_order_id: body.source_order_id });
    expect(shipment).toMatchObject({ tracking_number: '1Z999AA10123456784', courier: 'ups', cancelled_on: null });
    expect(shipment.lastResponse.replayed).toBe(true);
    expect(log).toEqual(['POST /v1/shipments: 201 -> network error (key 2)', 'POST /v1/shipments: 201 replayed (key 2)']);
    expect(await service.db.shipment.count({ where: { storeId: shop.store.id, trackingNumber: '1Z999AA10123456784', order: { sourceOrderId: body.source_order_id } } })).toBe(1);
  });

  it('claims.create files one claim', async () => {
    const body = newOrder();
    await client().orders.create(body);
    lose('POST /v1/claims', 'answers 502');
    const claim = await client().claims.create({ source_order_id: body.source_order_id, reason: 'lost' });
    expect(claim.lastResponse.replayed).toBe(true);
    expect(await service.db.claim.count({ where: { order: { sourceOrderId: body.source_order_id, storeId: shop.store.id } } })).toBe(1);
  });

  it('orders.update re-prices once', async () => {
    const body = newOrder({ subtotal: 125 });
    await client().orders.create(body);
    const path = `/v2/orders/${encodeURIComponent(body.source_order_id)}`;
    lose(`PATCH ${path}`, 'network error');
    const updated = await client().orders.update(body.source_order_id, { subtotal: 200 });
    expect(updated).toMatchObject({ subtotal: 200, paid_to_insure: 3 });
    expect(updated.lastResponse.replayed).toBe(true);
    // The booking of 1.88 and one re-pricing of +1.12: not two.
    const entries = await service.db.premiumLedgerEntry.findMany({ where: { order: { sourceOrderId: body.source_order_id, storeId: shop.store.id } } });
    expect(entries.map((entry) => Number(entry.amountCents)).sort((a, b) => a - b)).toEqual([112, 188]);
  });
});
