// Idempotency-Key on the merchant API (README, Idempotency), through real HTTP on embedded PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_SECONDS, idempotencyRequestHash, sweepExpiredIdempotencyKeys } from '../server/domain/access/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let second: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService();
  // A second instance on the same database: keys hold across instances.
  second = await startService({ databaseUrl: service.databaseUrl });
  shop = await seedStore(service.db);
});

afterAll(async () => {
  await second?.close();
  await service?.close();
});

const withKey = (key: string) => ({ 'Idempotency-Key': key });
const ordersCalled = (sourceOrderId: string) => service.db.order.count({ where: { storeId: shop.store.id, sourceOrderId } });
const keyRows = (key: string) => service.db.idempotencyKey.count({ where: { key } });

// The last two tests move the first instance's clock forward; everything before runs on real time,
// so both instances agree on when a running key counts as abandoned.
describe('Idempotency-Key', () => {
  it('replays the first answer, marked Idempotent-Replayed, for the same key and request, and creates once', async () => {
    const key = randomUUID();
    const body = orderBody();
    const first = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body, headers: withKey(key) });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // As after a lost answer: the same request again, on the other instance.
    const again = await call(second.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body, headers: withKey(key) });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-service-mode')).toBe('live');
    expect(again.body).toEqual(first.body);
    // The same bytes, not only the same JSON: keys in the same order, nothing re-encoded.
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await ordersCalled(body.source_order_id as string)).toBe(1);
  });

  it('without a key, a repeated create is 409 as before', async () => {
    const body = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
    const repeated = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body });
    expect(repeated.status).toBe(409);
    expect(repeated.body.error_code).toBe('conflict');
  });

  it('refuses the same key with a different request: 422 naming the key, and nothing created', async () => {
    const key = `order-${randomUUID()}`;
    const body = orderBody({ subtotal: 125 });
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body, headers: withKey(key) })).status).toBe(201);
    const changed = { ...body, source_order_id: `${body.source_order_id as string}-b`, subtotal: 999 };
    const refused = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: changed, headers: withKey(key) });
    expect(refused.status).toBe(422);
    expect(refused.body.error_code).toBe('unprocessable');
    expect(refused.body.error).toContain(key);
    expect(refused.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'was used with a different request' }]);
    expect(await ordersCalled(changed.source_order_id)).toBe(0);

    // The same body to another route is another request too.
    const elsewhere = await call(service.baseUrl, 'POST', '/v1/orders', { key: shop.liveKey, body, headers: withKey(key) });
    expect(elsewhere.status).toBe(422);
  });

  it('runs 20 parallel requests sharing a key, on two instances, to exactly one effect', async () => {
    const key = randomUUID();
    const body = orderBody();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(index % 2 === 0 ? service.baseUrl : second.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body, headers: withKey(key) }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const busy = answers.filter((answer) => answer.status === 409);
    expect(created.length + busy.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // Exactly one ran; the other successes are replays of its answer.
    expect(created.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    for (const answer of created) expect(answer.body.id).toBe(created[0]!.body.id);
    for (const answer of busy) {
      expect(answer.body.error_code).toBe('conflict');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(await ordersCalled(body.source_order_id as string)).toBe(1);
    const ledger = await service.db.premiumLedgerEntry.count({ where: { order: { sourceOrderId: body.source_order_id as string, storeId: shop.store.id } } });
    expect(ledger).toBe(1);
  });

  it('replays a shipment create whose answer was lost, instead of answering 409', async () => {
    const order = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: order })).status).toBe(201);
    const key = randomUUID();
    const shipment = { tracking_number: `1Z${Math.floor(Math.random() * 1e12)}`, source_order_id: order.source_order_id, courier_id: 'ups' };
    const first = await call(service.baseUrl, 'POST', '/v1/shipments', { key: shop.liveKey, body: shipment, headers: withKey(key) });
    expect(first.status).toBe(201);
    const retry = await call(service.baseUrl, 'POST', '/v1/shipments', { key: shop.liveKey, body: shipment, headers: withKey(key) });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toBe(first.body.id);
    // Without the key the same request is the API's own duplicate: 409.
    expect((await call(service.baseUrl, 'POST', '/v1/shipments', { key: shop.liveKey, body: shipment })).status).toBe(409);
  });

  it('covers PATCH too: a replayed update answers as the first did', async () => {
    const order = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: order })).status).toBe(201);
    const key = randomUUID();
    const path = `/v2/orders/${order.source_order_id as string}`;
    const first = await call(service.baseUrl, 'PATCH', path, { key: shop.liveKey, body: { source_order_number: '#A-1' }, headers: withKey(key) });
    expect(first.status).toBe(200);
    const retry = await call(service.baseUrl, 'PATCH', path, { key: shop.liveKey, body: { source_order_number: '#A-1' }, headers: withKey(key) });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.text).toBe(first.text);
  });

  it('does not keep a failed request: the key is free again, and the 4xx is not replayed', async () => {
    const key = randomUUID();
    const body = orderBody();
    const invalid = { ...body, subtotal: -5 };
    const refused = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: invalid, headers: withKey(key) });
    expect(refused.status).toBe(400);
    expect(await keyRows(key)).toBe(0);
    const again = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: invalid, headers: withKey(key) });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    // The corrected request may use the same key.
    const fixed = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body, headers: withKey(key) });
    expect(fixed.status).toBe(201);
    expect(await keyRows(key)).toBe(1);
  });

  it('accepts the header from test keys and stores nothing: each request runs', async () => {
    const key = randomUUID();
    const body = orderBody();
    const first = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.testKey, body, headers: withKey(key) });
    const second = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.testKey, body, headers: withKey(key) });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await keyRows(key)).toBe(0);
  });

  it('refuses a key that is too long or not visible ASCII, naming the header', async () => {
    for (const bad of ['k'.repeat(256), 'has space', 'tab\tkey']) {
      const refused = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody(), headers: withKey(bad) });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error_code).toBe('invalid_request');
      expect(refused.body.errors[0].field).toBe('Idempotency-Key');
    }
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody(), headers: withKey('k'.repeat(255)) })).status).toBe(201);
  });

  it('answers 409 with Retry-After while the first request with the key still runs', async () => {
    const key = randomUUID();
    const body = orderBody();
    const raw = JSON.stringify(body);
    // Another instance has claimed the key for this very request and not answered yet.
    await service.db.idempotencyKey.create({
      data: {
        storeId: shop.store.id,
        key,
        requestHash: idempotencyRequestHash('POST', '/v2/orders', Buffer.from(raw)),
        state: 'running',
        startedAt: service.clock.now(),
        expiresAt: new Date(service.clock.now().getTime() + 24 * 3600_000),
      },
    });
    const busy = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, rawBody: raw, headers: { ...withKey(key), 'content-type': 'application/json' } });
    expect(busy.status).toBe(409);
    expect(busy.body.error_code).toBe('conflict');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await ordersCalled(body.source_order_id as string)).toBe(0);

    // A run whose instance died is taken over by the same request once it is clearly abandoned.
    service.clock.advance((ABANDONED_AFTER_SECONDS + 1) * 1000);
    const takenOver = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, rawBody: raw, headers: { ...withKey(key), 'content-type': 'application/json' } });
    expect(takenOver.status).toBe(201);
    expect(await ordersCalled(body.source_order_id as string)).toBe(1);
  });

  it('ignores the header on reads, and lets a key be used again after 24 hours', async () => {
    const key = randomUUID();
    const body = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body, headers: withKey(key) })).status).toBe(201);
    const read = await call(service.baseUrl, 'GET', `/v2/orders/${body.source_order_id as string}`, { key: shop.liveKey, headers: withKey(key) });
    expect(read.status).toBe(200);
    expect(read.headers.get('idempotent-replayed')).toBeNull();

    service.clock.advance(24 * 3600_000 + 1000);
    const other = orderBody();
    const reused = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: other, headers: withKey(key) });
    expect(reused.status).toBe(201);
    expect(reused.body.source_order_id).toBe(other.source_order_id);

    service.clock.advance(24 * 3600_000 + 1000);
    expect(await sweepExpiredIdempotencyKeys(service.db, service.clock.now())).toBeGreaterThanOrEqual(1);
    expect(await keyRows(key)).toBe(0);
  });
});
