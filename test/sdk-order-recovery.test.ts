// orders.create is safe to retry (README, Concepts, "Retries"): a proxy in front of the real server
// forwards the first create and then loses its answer (a 502, a closed socket, or no answer at
// all). The SDK retries, the server answers 409 because the first attempt landed, and the SDK
// reads the order back and returns it. The order exists once and its premium is booked once.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, ConflictError, ConnectionError, type OrderRequest } from '../sdk/src/index.js';
import { orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

/** What the proxy does with the server's answer to the next POST /v2/orders. */
type Loss = 'answers 502' | 'closes the socket' | 'never answers';

let service: TestService;
let shop: SeededStore;
let proxy: Server;
let proxyUrl: string;
/** Losses for the coming creates, in order; other requests pass through. */
const losses: Loss[] = [];
/** "METHOD path: what the server answered -> what the client got". */
const log: string[] = [];

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  proxy = createServer((request, response) => void forward(request, response));
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await service.close();
});
beforeEach(() => {
  log.length = 0;
  losses.length = 0;
});

async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const name of ['token', 'authorization', 'content-type', 'accept']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const method = request.method ?? 'GET';
  const upstream = await fetch(`${service.baseUrl}${request.url ?? '/'}`, {
    method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
  const body = await upstream.text();
  const line = `${method} ${request.url}: ${upstream.status}`;
  const loss = method === 'POST' && request.url === '/v2/orders' ? losses.shift() : undefined;
  if (loss === 'answers 502') {
    log.push(`${line} -> 502`);
    response.writeHead(502, { 'content-type': 'text/html' });
    response.end('<html><body>502 Bad Gateway</body></html>');
  } else if (loss === 'closes the socket') {
    log.push(`${line} -> closed`);
    request.socket.destroy();
  } else if (loss === 'never answers') {
    log.push(`${line} -> no answer`);
  } else {
    log.push(line);
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      'x-request-id': upstream.headers.get('x-request-id') ?? '',
    });
    response.end(body);
  }
}

const newOrder = (overrides: Record<string, unknown> = {}) => orderBody(overrides) as OrderRequest;
const throughProxy = (options: { timeoutMs?: number; maxRetries?: number } = {}) =>
  new Client({ apiKey: shop.liveKey, baseUrl: proxyUrl, sleep: async () => {}, ...options });

async function storedOnce(sourceOrderId: string): Promise<void> {
  const orders = await service.db.order.findMany({ where: { sourceOrderId, storeId: shop.store.id } });
  expect(orders).toHaveLength(1);
  const entries = await service.db.premiumLedgerEntry.findMany({ where: { order: { sourceOrderId, storeId: shop.store.id } } });
  expect(entries).toHaveLength(1);
}

describe('orders.create when the first answer is lost', () => {
  it.each<[Loss, { timeoutMs?: number }]>([
    ['answers 502', {}],
    ['closes the socket', {}],
    ['never answers', { timeoutMs: 2000 }],
  ])('the proxy forwards it, then %s: the retry gets 409 and the SDK returns the order', async (loss, options) => {
    const body = newOrder({ source_order_id: `#lost/${loss}/β`, subtotal: 125 });
    losses.push(loss);
    const order = await throughProxy(options).orders.create(body);
    expect(order).toMatchObject({ source_order_id: body.source_order_id, status: 'created', paid_to_insure: 1.88, platform_id: 'api' });
    const path = `/v2/orders/${encodeURIComponent(body.source_order_id)}`;
    const lost = { 'answers 502': '502', 'closes the socket': 'closed', 'never answers': 'no answer' }[loss];
    expect(log).toEqual([`POST /v2/orders: 201 -> ${lost}`, 'POST /v2/orders: 409', `GET ${path}: 200`]);
    await storedOnce(body.source_order_id);
  });

  it('when every answer is lost, the merchant is told the outcome is unknown (ConnectionError)', async () => {
    const body = newOrder();
    losses.push('closes the socket', 'closes the socket');
    const error = await throughProxy({ maxRetries: 1 }).orders.create(body).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(log).toEqual(['POST /v2/orders: 201 -> closed', 'POST /v2/orders: 409 -> closed']);
    // The order did land; a later create finds it the same way.
    await expect(throughProxy().orders.create(body)).rejects.toBeInstanceOf(ConflictError);
    await expect(throughProxy().orders.retrieve(body.source_order_id)).resolves.toMatchObject({ source_order_id: body.source_order_id });
    await storedOnce(body.source_order_id);
  });

  it('a plain duplicate create, on a fresh client and its first attempt, is a ConflictError', async () => {
    const body = newOrder();
    losses.push('answers 502');
    await throughProxy().orders.create(body);
    const fresh = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const error = await fresh.orders.create(body).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'conflict' });
    await storedOnce(body.source_order_id);
  });
});
