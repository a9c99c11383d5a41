// Concurrent delivery with per-object order (docs/events.md, "Ordering: the promise, exactly"),
// over real HTTP and PostgreSQL with a local receiver that takes its time: an endpoint has up to
// its max_in_flight deliveries in flight, never more; never two about one object; one object's
// events arrive oldest first, a retry included; a slow endpoint holds up no other endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_IN_FLIGHT, MAX_IN_FLIGHT_LIMIT } from '../contract/webhook-endpoints.js';
import { deliveryEndpoint } from '../server/domain/events/index.js';
import { deliveriesSettled } from './support/event-deliveries.js';
import { startEventReceiver, verifiedWith, type EventReceiver, type ReceivedEvent } from './support/event-receiver.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;

beforeAll(async () => {
  service = await startService({ events: { workers: true, retryScheduleSeconds: [1, 1, 1], dispatchIntervalMs: 50 } });
});
afterAll(async () => service?.close());

/** What the receiver has in flight: all at once, and per object. */
function inFlightCounter() {
  let now = 0;
  let most = 0;
  const perObject = new Map<string, number>();
  let objectOverlaps = 0;
  const objectOf = (entry: ReceivedEvent) => String(entry.event.data.id);
  return {
    onRequest: (entry: ReceivedEvent) => {
      now += 1;
      most = Math.max(most, now);
      const object = objectOf(entry);
      const open = (perObject.get(object) ?? 0) + 1;
      if (open > 1) objectOverlaps += 1;
      perObject.set(object, open);
    },
    onAnswer: (entry: ReceivedEvent) => {
      now -= 1;
      perObject.set(objectOf(entry), (perObject.get(objectOf(entry)) ?? 1) - 1);
    },
    most: () => most,
    objectOverlaps: () => objectOverlaps,
  };
}

async function endpointOf(store: SeededStore, receiver: EventReceiver, body: Record<string, unknown> = {}) {
  const created = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: receiver.url, events: ['*'], ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; secret: string; max_in_flight: number };
}

describe('concurrent delivery', () => {
  it('keeps up to max_in_flight attempts in flight to one endpoint, never more, never two of one object', async () => {
    const store = await seedStore(service.db);
    const counter = inFlightCounter();
    const receiver = await startEventReceiver('/hooks/slow', { answerAfterMs: 300, ...counter });
    try {
      const endpoint = await endpointOf(store, receiver, { max_in_flight: 4 });
      expect(endpoint.max_in_flight).toBe(4);
      // Twelve orders (twelve objects), each created then cancelled: 24 events.
      const ids: string[] = [];
      for (let index = 0; index < 12; index += 1) {
        const body = orderBody();
        expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body })).status).toBe(201);
        ids.push(body.source_order_id as string);
      }
      for (const id of ids) expect((await call(service.baseUrl, 'POST', `/v1/orders/${id}/cancel`, { key: store.liveKey, body: {} })).status).toBe(200);
      await receiver.waitFor((received) => received.length === 24, 30_000);
      await deliveriesSettled(service.db, store.store.id);
      expect(receiver.received).toHaveLength(24);
      // Several at once (one at a time would take 7 s), never past the limit, never one object twice.
      expect(counter.most()).toBeGreaterThanOrEqual(3);
      expect(counter.most()).toBeLessThanOrEqual(4);
      expect(counter.objectOverlaps()).toBe(0);
      // Each order's created arrives before its cancelled.
      for (const id of ids) {
        const types = receiver.received.filter((delivery) => delivery.event.data.source_order_id === id).map((delivery) => delivery.event.type);
        expect(types, id).toEqual(['order.created', 'order.cancelled']);
      }
      for (const delivery of receiver.received) expect(verifiedWith(endpoint.secret, delivery)).toEqual(delivery.event);
    } finally {
      await receiver.close();
    }
  });

  it("holds an object's later events while its earlier one waits for a retry, and lets other objects' go", async () => {
    const store = await seedStore(service.db);
    const counter = inFlightCounter();
    const receiver = await startEventReceiver('/hooks/flaky', counter);
    try {
      const first = orderBody();
      // The first delivery of the first order's creation is refused once.
      let refused = false;
      receiver.answer((_index, entry) => {
        if (!refused && entry.event.type === 'order.created' && entry.event.data.source_order_id === first.source_order_id) {
          refused = true;
          return 500;
        }
        return 200;
      });
      await endpointOf(store, receiver);
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: first })).status).toBe(201);
      expect((await call(service.baseUrl, 'PATCH', `/v2/orders/${first.source_order_id as string}`, { key: store.liveKey, body: { subtotal: 200 } })).status).toBe(200);
      const other = orderBody();
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: other })).status).toBe(201);
      await receiver.waitFor((received) => received.length === 4, 20_000);
      const sequence = receiver.received.map((delivery) => [delivery.event.data.source_order_id, delivery.event.type, delivery.event.id]);
      // The first order's events in order: the refused creation, its retry (the same event), then
      // the re-pricing, which waited for it. The other order's creation may arrive before or after
      // the refused one (both can be in flight at once), but is not held up by the retry: before it.
      const firstOrders = sequence.filter(([id]) => id === first.source_order_id);
      expect(firstOrders.map(([, type]) => type)).toEqual(['order.created', 'order.created', 'order.repriced']);
      expect(firstOrders[1]?.[2]).toBe(firstOrders[0]?.[2]);
      const retryAt = sequence.indexOf(firstOrders[1] as (typeof sequence)[number]);
      const otherAt = sequence.findIndex(([id]) => id === other.source_order_id);
      expect(sequence[otherAt]?.[1]).toBe('order.created');
      expect(otherAt).toBeLessThan(retryAt);
      expect(counter.objectOverlaps()).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it('sends one at a time with max_in_flight 1, and a slow endpoint delays no other', async () => {
    const store = await seedStore(service.db);
    const slowCounter = inFlightCounter();
    const slow = await startEventReceiver('/hooks/slow-one', { answerAfterMs: 400, ...slowCounter });
    const fast = await startEventReceiver('/hooks/fast');
    try {
      await endpointOf(store, slow, { max_in_flight: 1 });
      await endpointOf(store, fast);
      for (let index = 0; index < 6; index += 1) expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
      // The fast endpoint has all six long before the slow one (6 x 400 ms one at a time) is done.
      await fast.waitFor((received) => received.length === 6, 5_000);
      expect(slow.received.length).toBeLessThan(6);
      await slow.waitFor((received) => received.length === 6, 20_000);
      expect(slowCounter.most()).toBe(1);
      // One at a time is commit order.
      const created = slow.received.map((delivery) => delivery.event.created_at);
      expect(created).toEqual([...created].sort());
    } finally {
      await slow.close();
      await fast.close();
    }
  });

  it('takes max_in_flight on create and update, 1 to the limit, and answers the default', async () => {
    const store = await seedStore(service.db);
    const receiver = await startEventReceiver('/hooks/settings');
    try {
      const plain = await endpointOf(store, receiver);
      expect(plain.max_in_flight).toBe(DEFAULT_MAX_IN_FLIGHT);
      for (const bad of [0, MAX_IN_FLIGHT_LIMIT + 1, 2.5, '4']) {
        const refused = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: receiver.url, events: ['*'], max_in_flight: bad } });
        expect(refused.status, String(bad)).toBe(400);
        expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'max_in_flight' })]);
      }
      const updated = await call(service.baseUrl, 'PATCH', `/v1/webhook_endpoints/${plain.id}`, { key: store.liveKey, body: { max_in_flight: MAX_IN_FLIGHT_LIMIT } });
      expect(updated.body.max_in_flight).toBe(MAX_IN_FLIGHT_LIMIT);
      expect((await service.db.webhookEndpoint.findFirstOrThrow({ where: { id: plain.id } })).maxInFlight).toBe(MAX_IN_FLIGHT_LIMIT);
      // The database holds the range too, whatever writes to it.
      await expect(service.db.webhookEndpoint.updateMany({ where: { id: plain.id }, data: { maxInFlight: 0 } })).rejects.toThrow();
    } finally {
      await receiver.close();
    }
  });

  it("names the endpoint's store in its delivery jobs, and finds the endpoint of a job queued without it", async () => {
    const store = await seedStore(service.db);
    const receiver = await startEventReceiver('/hooks/keyed');
    try {
      const endpoint = await endpointOf(store, receiver);
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
      await receiver.waitFor((received) => received.length === 1, 10_000);
      const jobs = await service.db.$queryRaw<Array<{ endpointId: string; storeId: string | null }>>`
        SELECT data->>'endpointId' AS "endpointId", data->>'storeId' AS "storeId" FROM pgboss.job
         WHERE name = 'event-delivery' AND singleton_key = ${endpoint.id}`;
      expect(jobs.length).toBeGreaterThan(0);
      expect(new Set(jobs.map((job) => job.storeId))).toEqual(new Set([store.store.id]));
      // A job from before the store was carried names the endpoint alone: its store is looked up.
      expect(await deliveryEndpoint(service.db, { endpointId: endpoint.id })).toEqual({ endpoint: { id: endpoint.id, storeId: store.store.id }, lanes: DEFAULT_MAX_IN_FLIGHT });
      // A job naming another store finds nothing: the endpoint's id is not enough.
      const other = await seedStore(service.db);
      expect(await deliveryEndpoint(service.db, { endpointId: endpoint.id, storeId: other.store.id })).toBeNull();
    } finally {
      await receiver.close();
    }
  });
});
