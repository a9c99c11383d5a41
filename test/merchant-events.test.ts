// Events to merchants, end to end over real HTTP: endpoints made through the API, every event type
// caused by a real flow (REST, a platform's refund, a sandbox tracking poll, the admin CLI), each
// delivery checked with the standardwebhooks package (not our code), retries, disabling, resends,
// rotation, ordering, and two instances sharing the work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { EVENT_RETENTION_DAYS, MAX_ENDPOINTS_PER_STORE, sweepExpiredEvents } from '../server/domain/events/index.js';
import { pollShipment } from '../server/domain/shipments/index.js';

import { runAdmin } from './support/admin-cli.js';
import { call, orderBody } from './support/http.js';
import { startEventReceiver, verifiedWith, type EventReceiver, type ReceivedEvent } from './support/event-receiver.js';
import { deliveriesSettled } from './support/event-deliveries.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const HOUR = 3600_000;
const PLATFORM = 'eventsplat';
const PLATFORM_SECRET = 'events-platform-shared-secret-0123456789';

let service: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService({ events: { workers: true }, exposeMetrics: true });
  shop = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, PLATFORM_SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
});
afterAll(async () => {
  await service?.close();
});

const api = (method: string, path: string, body?: unknown, key = shop.liveKey) =>
  call(service.baseUrl, method, path, { key, ...(body === undefined ? {} : { body }) });

async function endpointFor(receiver: EventReceiver, events: string[] = ['*'], store = shop) {
  const created = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: receiver.url, events } });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

const verified = verifiedWith;

const ofType = (receiver: EventReceiver, type: string) => receiver.received.filter((delivery) => delivery.event.type === type);

describe('webhook endpoints', () => {
  it('shows the whsec_ secret once, on create, and never on reads', async () => {
    const receiver = await startEventReceiver();
    try {
      const endpoint = await endpointFor(receiver, ['order.created']);
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(endpoint).toMatchObject({ id: expect.stringMatching(/^we_[0-9a-f]{32}$/), url: receiver.url, events: ['order.created'], status: 'enabled', disabled_reason: null });
      const read = await api('GET', `/v1/webhook_endpoints/${endpoint.id}`);
      expect(read.status).toBe(200);
      expect(read.body).not.toHaveProperty('secret');
      const list = await api('GET', '/v1/webhook_endpoints');
      expect(list.body.data.map((e: { id: string }) => e.id)).toContain(endpoint.id);
      expect(JSON.stringify(list.body)).not.toContain(endpoint.secret);
    } finally {
      await receiver.close();
    }
  });

  it('refuses bad bodies with every bad field, and test keys with 404', async () => {
    const bad = await api('POST', '/v1/webhook_endpoints', { url: 'not a url', events: ['order.exploded'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe('invalid_request');
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['events[0]', 'url']);
    const repeated = await api('POST', '/v1/webhook_endpoints', { url: 'https://shop.example.com/h', events: ['order.created', 'order.created'] });
    expect(repeated.status).toBe(422);
    expect(repeated.body.errors).toEqual([{ field: 'events[1]', message: 'repeats order.created' }]);
    const testKey = await api('POST', '/v1/webhook_endpoints', { url: 'https://shop.example.com/h', events: ['*'] }, shop.testKey);
    expect(testKey.status).toBe(404);
    expect((await api('GET', '/v1/events', undefined, shop.testKey)).status).toBe(404);
  });

  it(`allows ${MAX_ENDPOINTS_PER_STORE} endpoints per store, even when created all at once`, async () => {
    const store = await seedStore(service.db);
    const answers = await Promise.all(
      Array.from({ length: MAX_ENDPOINTS_PER_STORE + 4 }, (_, index) =>
        call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: `https://shop.example.com/h${index}`, events: ['*'] } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_ENDPOINTS_PER_STORE);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => answer.body.error_code)).toEqual(['conflict', 'conflict', 'conflict', 'conflict']);
    expect((await call(service.baseUrl, 'GET', '/v1/webhook_endpoints', { key: store.liveKey })).body.data).toHaveLength(MAX_ENDPOINTS_PER_STORE);
  });

  it('updates url, events and enabled, and deletes', async () => {
    const created = await api('POST', '/v1/webhook_endpoints', { url: 'https://shop.example.com/a', events: ['claim.created'], description: 'claims desk' });
    const { id } = created.body as { id: string };
    const patched = await api('PATCH', `/v1/webhook_endpoints/${id}`, { url: 'https://shop.example.com/b', events: ['*'], enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ url: 'https://shop.example.com/b', events: ['*'], status: 'disabled', disabled_reason: 'merchant', description: 'claims desk' });
    const enabled = await api('PATCH', `/v1/webhook_endpoints/${id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    const deleted = await api('DELETE', `/v1/webhook_endpoints/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deleted: true });
    expect((await api('GET', `/v1/webhook_endpoints/${id}`)).status).toBe(404);
    expect((await api('DELETE', `/v1/webhook_endpoints/${id}`)).status).toBe(404);
  });
});

describe('every event type, from real flows', () => {
  let receiver: EventReceiver;
  let secret: string;
  let other: SeededStore;
  let otherReceiver: EventReceiver;

  beforeAll(async () => {
    receiver = await startEventReceiver();
    secret = (await endpointFor(receiver)).secret;
    // Another store's endpoint must hear nothing of this store.
    other = await seedStore(service.db);
    otherReceiver = await startEventReceiver();
    await endpointFor(otherReceiver, ['*'], other);
  });
  afterAll(async () => {
    await receiver.close();
    await otherReceiver.close();
  });

  it('sends them all, each signed as Standard Webhooks says, with the object as the API answers it', async () => {
    // REST: an order, re-priced, a shipment, a claim.
    const order = orderBody({ subtotal: 200 });
    const created = await api('POST', '/v2/orders', order);
    expect(created.status).toBe(201);
    const repriced = await api('PATCH', `/v2/orders/${order.source_order_id as string}`, { subtotal: 300 });
    expect(repriced.status).toBe(200);
    const shipment = await api('POST', '/v1/shipments', { tracking_number: 'SBXDELIVERED', source_order_id: order.source_order_id, courier_id: 'ups' });
    expect(shipment.status).toBe(201);
    const claim = await api('POST', '/v1/claims', { source_order_id: order.source_order_id, reason: 'damaged' });
    expect(claim.status).toBe(201);

    // The sandbox carrier reaches Delivered on a poll (as the tracking job runs it).
    const registeredAt = new Date(shipment.body.created_on as string);
    const at = new Date(registeredAt.getTime() + 51 * HOUR);
    expect(await pollShipment(service.db, service.provider, service.jobs.scheduler, { shipmentId: shipment.body.id as string }, at, new Date(at.getTime() + HOUR))).toBe('stop');

    // The operator decides the claim through the CLI.
    const cli = await runAdmin(service.databaseUrl, 'claim', 'set-status', '--id', claim.body.id as string, '--status', 'approved', '--resolution', 'refund', '--note', 'photos attached');
    expect(cli).toMatchObject({ code: 0, stderr: '' });

    // A second order: its shipment is cancelled, then a platform refund gives the whole premium back.
    const second = orderBody({ subtotal: 100 });
    expect((await api('POST', '/v2/orders', second)).status).toBe(201);
    const tracking = `1Z999AA1${String(Date.now()).slice(-10)}`;
    expect((await api('POST', '/v1/shipments', { tracking_number: tracking, source_order_id: second.source_order_id, courier_id: 'ups' })).status).toBe(201);
    expect((await api('POST', `/v1/shipments/${tracking}/cancel`)).status).toBe(200);
    const refund = JSON.stringify({
      merchant: shop.store.slug,
      event: 'refund.created',
      order: { id: second.source_order_id },
      refund: { id: `rf-${Date.now()}`, amount_cents: 150, items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 150 }] },
    });
    const refunded = await call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
      rawBody: refund,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(PLATFORM_SECRET, refund) },
    });
    expect(refunded.status).toBe(200);
    expect(refunded.body.reversed_cents).toBe(150);

    // A third order, cancelled by the merchant.
    const third = orderBody();
    expect((await api('POST', '/v2/orders', third)).status).toBe(201);
    expect((await api('POST', `/v1/orders/${third.source_order_id as string}/cancel`)).status).toBe(200);

    const expected = [
      'order.created', 'order.repriced', 'shipment.created', 'claim.created', 'shipment.delivery_status_changed', 'claim.status_changed',
      'order.created', 'shipment.created', 'shipment.delivery_status_changed', 'shipment.cancelled', 'premium.reversed', 'order.cancelled',
      'order.created', 'order.cancelled',
    ];
    await receiver.waitFor((received) => received.length >= expected.length);
    // Every event, once; each object's (an order, a shipment, a claim) in the order they were
    // committed. Different objects' events may be in flight together, so only that order is promised.
    expect(receiver.received.map((delivery) => delivery.event.type).sort()).toEqual([...expected].sort());
    const byObject = new Map<string, string[]>();
    for (const delivery of receiver.received) {
      const key = `${delivery.event.type.split('.')[0] === 'premium' ? 'order' : delivery.event.type.split('.')[0]}:${String(delivery.event.data.id)}`;
      byObject.set(key, [...(byObject.get(key) ?? []), delivery.event.created_at]);
    }
    for (const [key, times] of byObject) expect(times, key).toEqual([...times].sort());
    expect([...byObject.values()].find((times) => times.length >= 3), 'an object with several events').toBeDefined();
    expect(otherReceiver.received).toEqual([]);

    for (const delivery of receiver.received) {
      // The package's verify checks the v1 HMAC of "id.timestamp.body" and the 5-minute window.
      expect(verified(secret, delivery)).toEqual(delivery.event);
      expect(delivery.headers['webhook-id']).toBe(delivery.event.id);
      expect(delivery.event.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(delivery.event.mode).toBe('live');
      expect(delivery.headers['content-type']).toBe('application/json');
    }
    // A wrong secret fails the package's check.
    expect(() => verified(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, receiver.received[0] as ReceivedEvent)).toThrow();

    const [orderCreated] = ofType(receiver, 'order.created');
    expect(orderCreated?.event.data).toEqual(created.body);
    expect(ofType(receiver, 'order.repriced')[0]?.event.data).toEqual(repriced.body);
    expect(ofType(receiver, 'shipment.created')[0]?.event.data).toEqual(shipment.body);
    expect(ofType(receiver, 'claim.created')[0]?.event.data).toEqual(claim.body);

    const delivered = ofType(receiver, 'shipment.delivery_status_changed')[0]?.event.data;
    expect(delivered).toMatchObject({ tracking_number: 'SBXDELIVERED', delivery_status: 'Delivered', previous_delivery_status: 'Active' });
    expect(delivered?.latest_checkpoint).toMatchObject({ status: 'Delivered', message: 'Delivered, left at front door' });
    const cancelledShipment = ofType(receiver, 'shipment.delivery_status_changed')[1]?.event.data;
    expect(cancelledShipment).toMatchObject({ tracking_number: tracking, delivery_status: 'Cancelled', previous_delivery_status: 'Active', latest_checkpoint: null });
    expect(ofType(receiver, 'shipment.cancelled')[0]?.event.data).toMatchObject({ tracking_number: tracking, delivery_status: 'Cancelled' });

    const statusChanged = ofType(receiver, 'claim.status_changed')[0]?.event.data;
    expect(statusChanged).toMatchObject({ id: claim.body.id, status: 'approved', status_change: { from_status: 'open', to_status: 'approved', note: 'photos attached' } });

    // 100 x 1.5 % = 1.50 booked, all of it refunded: reversed, then cancelled because of the refund.
    const reversed = ofType(receiver, 'premium.reversed')[0]?.event.data;
    expect(reversed).toMatchObject({ source_order_id: second.source_order_id, paid_to_insure: 0, reversal: { amount_reversed: 1.5, premium_remaining: 0 } });
    const cancellations = ofType(receiver, 'order.cancelled').map((delivery) => delivery.event.data);
    expect(cancellations.map((data) => [data.source_order_id, data.cancellation_cause, data.status]).sort()).toEqual(
      [
        [second.source_order_id, 'refund', 'cancelled'],
        [third.source_order_id, 'api', 'cancelled'],
      ].sort(),
    );
    // The refund's events carry the order as a read answers it afterwards: built from the order
    // read under its lock, not read again, so this is what keeps the two the same.
    const afterRefund = await api('GET', `/v2/orders/${second.source_order_id as string}`);
    expect(afterRefund.body.status).toBe('cancelled');
    const { cancellation_cause: _cause, ...cancelledOrder } = cancellations.find((data) => data.source_order_id === second.source_order_id) as Record<string, unknown>;
    expect(cancelledOrder).toEqual(afterRefund.body);
    const { reversal: _reversal, ...reversedOrder } = reversed as Record<string, unknown>;
    expect(reversedOrder).toEqual({ ...afterRefund.body, status: 'created', cancelled_on: null, updated_on: reversedOrder.updated_on });
    expect(reversedOrder.updated_on).not.toBe(afterRefund.body.updated_on);

    // The events API holds the same events, newest first, and each reads back as delivered.
    const events = await api('GET', '/v1/events?limit=100');
    expect(events.status).toBe(200);
    expect(events.body.data.map((event: { type: string }) => event.type)).toEqual([...expected].reverse());
    const last = [...receiver.received].sort((a, b) => a.event.created_at.localeCompare(b.event.created_at)).at(-1) as ReceivedEvent;
    const one = await api('GET', `/v1/events/${last.event.id}`);
    expect(one.body).toEqual(last.event);
  });

  it('pages the events list and filters it by type', async () => {
    const first = await api('GET', '/v1/events?type=order.created&limit=2');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.every((event: { type: string }) => event.type === 'order.created')).toBe(true);
    const next = await api('GET', `/v1/events?type=order.created&limit=2&starting_after=${first.body.data[1].id as string}`);
    expect(next.body.data[0].id).not.toBe(first.body.data[1].id);
    expect(new Date(next.body.data[0].created_at).getTime()).toBeLessThanOrEqual(new Date(first.body.data[1].created_at).getTime());
    const bad = await api('GET', '/v1/events?limit=0&type=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'type']);
    expect((await api('GET', '/v1/events/evt_00000000000000000000000000000000')).status).toBe(404);
  });

  it('writes nothing for a test key, nor for a change that is refused', async () => {
    const before = (await api('GET', '/v1/events?limit=100')).body.data.length as number;
    expect((await api('POST', '/v2/orders', orderBody(), shop.testKey)).status).toBe(201);
    // A claim naming an item the order does not have: refused after the order row was locked.
    const order = orderBody();
    expect((await api('POST', '/v2/orders', order)).status).toBe(201);
    const refused = await api('POST', '/v1/claims', { source_order_id: order.source_order_id, reason: 'lost', items: [{ source_id: 'nope', quantity: 1 }] });
    expect(refused.status).toBe(400);
    const after = (await api('GET', '/v1/events?limit=100')).body.data as Array<{ type: string }>;
    expect(after.length).toBe(before + 1);
    expect(after[0]?.type).toBe('order.created');
  });
});

describe('delivery', () => {
  it('retries a failing endpoint: 500 twice, then 200, with three attempts in the log', async () => {
    const store = await seedStore(service.db);
    const receiver = await startEventReceiver();
    try {
      receiver.answer((index) => (index < 2 ? 500 : 200));
      const endpoint = await endpointFor(receiver, ['order.created'], store);
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
      await receiver.waitFor((received) => received.length >= 3);
      const ids = new Set(receiver.received.map((delivery) => delivery.event.id));
      expect(ids.size).toBe(1);
      // Each attempt is signed afresh, each with a valid signature.
      for (const delivery of receiver.received) expect(verified(endpoint.secret, delivery)).toEqual(delivery.event);
      const readLog = () => call(service.baseUrl, 'GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: store.liveKey });
      // The third attempt is recorded just after its answer arrived.
      await expect.poll(async () => (await readLog()).body.data[0]?.status, { timeout: 5000 }).toBe('succeeded');
      const log = await readLog();
      expect(log.body.data).toHaveLength(1);
      const [delivery] = log.body.data;
      expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, next_attempt_on: null, event_type: 'order.created' });
      expect(delivery.attempts.map((a: { status_code: number; succeeded: boolean; error: string | null }) => [a.status_code, a.succeeded, a.error])).toEqual([
        [200, true, null],
        [500, false, 'http_status'],
        [500, false, 'http_status'],
      ]);
      expect(delivery.attempts[1].response_body).toBe('refused with 500');
      expect(delivery.attempts.every((a: { duration_ms: number }) => Number.isInteger(a.duration_ms) && a.duration_ms >= 0)).toBe(true);
      // The retries waited about the schedule (1 s each, ±10 %).
      const times: number[] = [...delivery.attempts].reverse().map((a: { attempted_on: string }) => new Date(a.attempted_on).getTime());
      const [t0 = 0, t1 = 0, t2 = 0] = times;
      expect(t1 - t0).toBeGreaterThanOrEqual(850);
      expect(t2 - t1).toBeGreaterThanOrEqual(850);
      const endpointNow = await call(service.baseUrl, 'GET', `/v1/webhook_endpoints/${endpoint.id}`, { key: store.liveKey });
      expect(endpointNow.body).toMatchObject({ status: 'enabled', failing_since: null });
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint whose delivery ran out of attempts, and says so in its status', async () => {
    const store = await seedStore(service.db);
    const receiver = await startEventReceiver();
    try {
      receiver.answer(() => 503);
      const endpoint = await endpointFor(receiver, ['order.created'], store);
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
      // The test schedule waits 1 s three times: four attempts.
      await receiver.waitFor((received) => received.length >= 4);
      const readEndpoint = () => call(service.baseUrl, 'GET', `/v1/webhook_endpoints/${endpoint.id}`, { key: store.liveKey });
      await expect.poll(async () => (await readEndpoint()).body.status, { timeout: 5000 }).toBe('disabled');
      const read = await readEndpoint();
      expect(read.body).toMatchObject({ status: 'disabled', disabled_reason: 'failing', failing_since: expect.any(String) });
      const log = await call(service.baseUrl, 'GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: store.liveKey });
      expect(log.body.data[0]).toMatchObject({ status: 'failed', attempt_count: 4, next_attempt_on: null });
      // Disabled: a new event is not sent to it. Rather than sleep and see nothing, a positive
      // control: a second, enabled endpoint of the store, subscribed to the same type, gets the same
      // event through the same dispatcher and worker. Once it has, and the store's deliveries are
      // over (none pending, no job queued or running), nothing is on its way to the disabled one
      // either, and its log shows nothing was queued for it.
      const failedEventId = log.body.data[0].event_id as string;
      const control = await startEventReceiver();
      try {
        await endpointFor(control, ['order.created'], store);
        const next = await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() });
        expect(next.status).toBe(201);
        await control.waitFor((received) => received.length >= 1);
        expect(control.received[0]?.event).toMatchObject({ type: 'order.created', data: next.body });
        await deliveriesSettled(service.db, store.store.id);
        expect(receiver.received).toHaveLength(4);
        const logNow = await call(service.baseUrl, 'GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`, { key: store.liveKey });
        expect(logNow.body.data.map((d: { event_id: string }) => d.event_id)).toEqual([failedEventId]);
      } finally {
        await control.close();
      }
      // Re-enabled and answering: a resend of the failed event arrives, with the same id.
      receiver.answer(() => 200);
      expect((await call(service.baseUrl, 'PATCH', `/v1/webhook_endpoints/${endpoint.id}`, { key: store.liveKey, body: { enabled: true } })).body.status).toBe('enabled');
      const resent = await call(service.baseUrl, 'POST', `/v1/events/${failedEventId}/resend`, { key: store.liveKey, body: { endpoint_id: endpoint.id } });
      expect(resent.status).toBe(202);
      expect(resent.body.data).toHaveLength(1);
      await receiver.waitFor((received) => received.length >= 5);
      expect(receiver.received[4]?.event.id).toBe(failedEventId);
      expect(receiver.received[4]?.headers['webhook-id']).toBe(failedEventId);
    } finally {
      await receiver.close();
    }
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const store = await seedStore(service.db);
    const receiver = await startEventReceiver();
    try {
      const endpoint = await endpointFor(receiver, ['order.created'], store);
      const rotated = await call(service.baseUrl, 'POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { key: store.liveKey });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      const overlapHours = (new Date(rotated.body.previous_secret_expires_on).getTime() - Date.now()) / HOUR;
      expect(overlapHours).toBeGreaterThan(23.9);
      expect(overlapHours).toBeLessThanOrEqual(24);
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
      await receiver.waitFor((received) => received.length >= 1);
      const [delivery] = receiver.received as [ReceivedEvent];
      expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verified(rotated.body.secret as string, delivery)).toEqual(delivery.event);
      expect(verified(endpoint.secret, delivery)).toEqual(delivery.event);
    } finally {
      await receiver.close();
    }
  });

  it('delivers each event once when two instances work the same queue', async () => {
    const second = await startService({ databaseUrl: service.databaseUrl, events: { workers: true } });
    const store = await seedStore(service.db);
    const receivers = await Promise.all([startEventReceiver(), startEventReceiver(), startEventReceiver()]);
    try {
      for (const receiver of receivers) await endpointFor(receiver, ['order.created'], store);
      const orders = 30;
      await Promise.all(
        Array.from({ length: orders }, (_, index) =>
          call(index % 2 === 0 ? service.baseUrl : second.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() }),
        ),
      );
      for (const receiver of receivers) await receiver.waitFor((received) => received.length >= orders);
      // Not a sleep for a duplicate to show up: once nothing is pending and no delivery job of the
      // store is queued or running on either instance, no attempt can still be on its way.
      await deliveriesSettled(service.db, store.store.id);
      for (const receiver of receivers) {
        const ids = receiver.received.map((delivery) => delivery.event.id);
        expect(ids).toHaveLength(orders);
        expect(new Set(ids).size).toBe(orders);
      }
      const attempts = async () => {
        const deliveries = await service.db.webhookDelivery.findMany({ where: { endpoint: { storeId: store.store.id } }, select: { id: true } });
        return service.db.webhookDeliveryAttempt.count({ where: { deliveryId: { in: deliveries.map((delivery) => delivery.id) } } });
      };
      expect(await attempts()).toBe(orders * receivers.length);
      // Positive control: a second delivery of one event, made on purpose (a resend to every
      // endpoint), is seen by the same wait and the same count, so a duplicate would have been.
      const repeated = receivers[0]?.received[0]?.event.id as string;
      const resent = await call(second.baseUrl, 'POST', `/v1/events/${repeated}/resend`, { key: store.liveKey, body: {} });
      expect(resent.status).toBe(202);
      expect(resent.body.data).toHaveLength(receivers.length);
      await deliveriesSettled(service.db, store.store.id);
      for (const receiver of receivers) {
        const ids = receiver.received.map((delivery) => delivery.event.id);
        expect(ids).toHaveLength(orders + 1);
        expect(new Set(ids).size).toBe(orders);
        expect(ids.filter((id) => id === repeated)).toHaveLength(2);
      }
      expect(await attempts()).toBe((orders + 1) * receivers.length);
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
      await second.close();
    }
  });

  it('counts deliveries by outcome and reports the queue lag in /metrics', async () => {
    // The tests above made each outcome happen on this instance: successes, retries, and a failure.
    const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
    const count = (outcome: string) => Number(new RegExp(`^event_delivery_attempts_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('succeeded')).toBeGreaterThanOrEqual(14);
    expect(count('retrying')).toBeGreaterThanOrEqual(5);
    expect(count('failed')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^event_delivery_lag_seconds \d/m);
  });
});

describe('retention', () => {
  const day = 86_400_000;
  const utcDay = (at: Date) => at.toISOString().slice(0, 10).replaceAll('-', '');
  const tableExists = async (name: string) => (await service.db.$queryRaw<Array<{ found: string | null }>>`SELECT to_regclass(${name})::text AS found`)[0]?.found === name;

  /** Two orders' events delivered to one endpoint, oldest first, with their deliveries' attempts recorded. */
  async function deliveredPair() {
    const store = await seedStore(service.db);
    const receiver = await startEventReceiver();
    try {
      await endpointFor(receiver, ['order.created'], store);
      for (let i = 0; i < 2; i += 1) expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
      await receiver.waitFor((received) => received.length >= 2);
      // Both attempts recorded (the sweep must not race one), the events in commit order.
      await deliveriesSettled(service.db, store.store.id);
      const [first, second] = [...receiver.received].sort((a, b) => a.event.created_at.localeCompare(b.event.created_at)).map((delivery) => delivery.event.id as string);
      return { store, first: first as string, second: second as string };
    } finally {
      await receiver.close();
    }
  }
  const deliveriesOf = (eventId: string) => service.db.webhookDelivery.findMany({ where: { eventId }, select: { id: true } });
  const attemptsOf = async (eventId: string) => service.db.webhookDeliveryAttempt.count({ where: { deliveryId: { in: (await deliveriesOf(eventId)).map((d) => d.id) } } });

  it(`deletes an event dated outside the days created ahead once it is ${EVENT_RETENTION_DAYS} days old, with its deliveries and attempts`, async () => {
    const { store, first: old, second: recent } = await deliveredPair();
    // Dated back to just over and just under the retention, with their deliveries and attempts: days
    // no partition was created for, so the rows move to the default partitions, swept row by row.
    const redate = async (eventId: string, at: Date) => {
      const deliveries = (await deliveriesOf(eventId)).map((d) => d.id);
      await service.db.$executeRaw`UPDATE webhook_delivery_attempts SET event_created_at = ${at} WHERE delivery_id = ANY (${deliveries}::text[])`;
      await service.db.$executeRaw`UPDATE webhook_deliveries SET event_created_at = ${at} WHERE event_id = ${eventId}`;
      await service.db.$executeRaw`UPDATE events SET created_at = ${at} WHERE id = ${eventId}`;
    };
    await redate(old, new Date(Date.now() - EVENT_RETENTION_DAYS * day - 60_000));
    await redate(recent, new Date(Date.now() - EVENT_RETENTION_DAYS * day + 60_000));
    expect(await service.db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM events_default WHERE id IN (${old}, ${recent})`).toEqual([{ n: 2 }]);
    expect(await attemptsOf(old)).toBe(1);

    expect(await sweepExpiredEvents(service.db, new Date())).toBeGreaterThanOrEqual(1);
    expect(await service.db.event.findFirst({ where: { id: old } })).toBeNull();
    expect(await deliveriesOf(old)).toEqual([]);
    expect(await service.db.webhookDeliveryAttempt.count({ where: { eventCreatedAt: { lt: new Date(Date.now() - EVENT_RETENTION_DAYS * day) } } })).toBe(0);
    expect(await service.db.event.findFirst({ where: { id: recent } })).not.toBeNull();
    expect(await deliveriesOf(recent)).toHaveLength(1);
    expect(await attemptsOf(recent)).toBe(1);
    expect((await call(service.baseUrl, 'GET', `/v1/events/${old}`, { key: store.liveKey })).status).toBe(404);
  });

  it('drops a whole day of events, deliveries and attempts once all of it is past the retention, and creates the days ahead', async () => {
    const { store, first, second } = await deliveredPair();
    const created = (await service.db.event.findFirst({ where: { id: first }, select: { createdAt: true } }))?.createdAt as Date;
    const today = utcDay(created);
    for (const table of ['events', 'webhook_deliveries', 'webhook_delivery_attempts']) expect(await tableExists(`${table}_p${today}`)).toBe(true);
    // Just before the day's end is past the retention, the day stays whole.
    const dayEnds = Date.parse(`${created.toISOString().slice(0, 10)}T00:00:00Z`) + day;
    await sweepExpiredEvents(service.db, new Date(dayEnds + EVENT_RETENTION_DAYS * day - 1));
    expect(await tableExists(`events_p${today}`)).toBe(true);
    expect(await service.db.event.count({ where: { id: { in: [first, second] } } })).toBe(2);
    // Once it is, the three tables' partitions of that day go, with every row in them.
    const later = new Date(dayEnds + EVENT_RETENTION_DAYS * day);
    expect(await sweepExpiredEvents(service.db, later)).toBeGreaterThanOrEqual(2);
    for (const table of ['events', 'webhook_deliveries', 'webhook_delivery_attempts']) {
      expect(await tableExists(`${table}_p${today}`)).toBe(false);
      // The days from the sweep's clock on exist ahead.
      expect(await tableExists(`${table}_p${utcDay(later)}`)).toBe(true);
      expect(await tableExists(`${table}_p${utcDay(new Date(later.getTime() + 7 * day))}`)).toBe(true);
    }
    expect(await service.db.event.count({ where: { id: { in: [first, second] } } })).toBe(0);
    expect(await deliveriesOf(first)).toEqual([]);
    expect((await call(service.baseUrl, 'GET', `/v1/events/${second}`, { key: store.liveKey })).status).toBe(404);
    // Events of today go on being written: into the default partition, now that today's day is gone.
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
  });
});

describe('SSRF protection, with the operator setting off', () => {
  // Names resolve through a stub: the test makes no outside connection, and a name the system
  // cannot resolve proves the checked address is the one connected to.
  const answers: Record<string, string> = { 'loopback.test': '127.0.0.1', 'internal.test': '10.0.0.7', 'metadata.test': '169.254.169.254' };
  const resolved: string[] = [];
  let guarded: TestService;
  let store: SeededStore;
  let receiver: EventReceiver;

  beforeAll(async () => {
    // A database of its own: the other instance's workers would otherwise take these deliveries.
    guarded = await startService({
      events: {
        workers: true,
        allowPrivateNetworks: false,
        resolve: async (hostname) => {
          resolved.push(hostname);
          const address = answers[hostname];
          if (address === undefined) throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
          return [{ address, family: 4 }];
        },
      },
    });
    store = await seedStore(guarded.db);
    receiver = await startEventReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await guarded.close();
  });

  it('refuses a URL without a host, on create and on change', async () => {
    const created = await call(guarded.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: 'https://shop.example.com/hook', events: ['*'] } });
    expect(created.status).toBe(201);
    for (const url of ['https:///x', 'https:x', 'https:\\\\x/hook', 'https:///x/y']) {
      const refused = await call(guarded.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url, events: ['*'] } });
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors, url).toContainEqual({ field: 'url', message: 'must name a host, as in https://example.com/webhooks' });
      const changed = await call(guarded.baseUrl, 'PATCH', `/v1/webhook_endpoints/${created.body.id as string}`, { key: store.liveKey, body: { url } });
      expect(changed.status, url).toBe(400);
    }
    const empty = await call(guarded.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: 'https://', events: ['*'] } });
    expect(empty.body.errors).toEqual([{ field: 'url', message: 'must be an absolute URL' }]);
    const kept = await call(guarded.baseUrl, 'GET', `/v1/webhook_endpoints/${created.body.id as string}`, { key: store.liveKey });
    expect(kept.body.url).toBe('https://shop.example.com/hook');
  });

  it('refuses http, literal private addresses and localhost when the endpoint is made', async () => {
    for (const url of ['http://shop.example.com/hook', 'https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hook', 'https://localhost/hook']) {
      const refused = await call(guarded.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url, events: ['*'] } });
      expect(refused.status, url).toBe(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field), url).toEqual(['url']);
    }
  });

  it('refuses, at delivery time, names that resolve to loopback, private or metadata addresses', async () => {
    const endpoints: string[] = [];
    for (const host of Object.keys(answers)) {
      const created = await call(guarded.baseUrl, 'POST', '/v1/webhook_endpoints', {
        key: store.liveKey,
        body: { url: `https://${host}:${receiver.port}/hooks/events`, events: ['order.created'] },
      });
      expect(created.status).toBe(201);
      endpoints.push(created.body.id as string);
    }
    expect((await call(guarded.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
    const logs = async () =>
      Promise.all(endpoints.map(async (id) => (await call(guarded.baseUrl, 'GET', `/v1/webhook_endpoints/${id}/deliveries`, { key: store.liveKey })).body.data[0]));
    await expect.poll(async () => (await logs()).every((delivery) => delivery?.attempts.length >= 1), { timeout: 10_000 }).toBe(true);
    const deliveries = await logs();
    for (const delivery of deliveries) expect(delivery.attempts[0]).toMatchObject({ succeeded: false, status_code: null, error: 'refused_address' });
    expect(resolved).toEqual(expect.arrayContaining(Object.keys(answers)));
    expect(receiver.received).toEqual([]);
    // Not one connection, of any protocol, reached the address behind the names.
    expect(receiver.connections()).toBe(0);
  });
});
