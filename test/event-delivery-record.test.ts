// Recording a delivery attempt (server/domain/events/event-delivery.ts) on PostgreSQL, with no
// worker running, so each step is the test's: take a delivery, erase the order meanwhile or not,
// record the answer. The receiver's answer is kept only if the event is still as it was sent (an
// echo of an erased order's event would bring the shopper back), a success settles the delivery
// once, and a record for a delivery settled or gone meanwhile writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, recordAttempt, takeDueDelivery, type DueDelivery } from '../server/domain/events/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let shop: SeededStore;
let endpointId: string;

const settings = { retryScheduleSeconds: DEFAULT_RETRY_SCHEDULE_SECONDS };
const answered = (statusCode: number, responseBody: string) => ({ succeeded: statusCode < 300, statusCode, durationMs: 12, error: statusCode < 300 ? null : 'http_status', responseBody });

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  const endpoint = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: shop.liveKey, body: { url: 'https://shop.example.com/hooks', events: ['order.created'] } });
  expect(endpoint.status).toBe(201);
  endpointId = endpoint.body.id as string;
});
afterAll(async () => service?.close());

/** An order created with the test's shopper, and its order.created delivery taken for an attempt. */
async function takenOrderEvent(lastName: string): Promise<{ sourceOrderId: string; due: DueDelivery }> {
  const body = orderBody({ customer_details: { first_name: 'Grace', last_name: lastName, email: `${lastName.toLowerCase()}@example.com` } });
  expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
  const due = await takeDueDelivery(service.db, { id: endpointId, storeId: shop.store.id }, new Date());
  if (due === null) throw new Error('no delivery was due');
  expect(JSON.parse(due.body)).toMatchObject({ type: 'order.created', data: { source_order_id: body.source_order_id, last_name: lastName } });
  return { sourceOrderId: body.source_order_id as string, due };
}

const attemptsOf = (deliveryId: string) =>
  service.db.webhookDeliveryAttempt.findMany({ where: { deliveryId }, select: { succeeded: true, statusCode: true, durationMs: true, responseBody: true }, orderBy: { attemptedAt: 'asc' } });
const deliveryOf = (deliveryId: string) =>
  service.db.webhookDelivery.findFirstOrThrow({ where: { id: deliveryId }, select: { status: true, attemptCount: true, nextAttemptAt: true, leasedUntil: true } });

describe('recording a delivery attempt', () => {
  it("keeps a success's answer while the event is as sent, and settles the delivery once", async () => {
    const { due } = await takenOrderEvent('Hopper');
    const at = new Date();
    expect(await recordAttempt(service.db, due, answered(200, due.body), at, settings)).toBe('succeeded');
    expect(await attemptsOf(due.id)).toEqual([{ succeeded: true, statusCode: 200, durationMs: 12, responseBody: due.body }]);
    expect(await deliveryOf(due.id)).toEqual({ status: 'succeeded', attemptCount: 1, nextAttemptAt: null, leasedUntil: null });

    // A second worker whose lease ran out records the same delivery: nothing more is written.
    expect(await recordAttempt(service.db, due, answered(200, 'again'), new Date(), settings)).toBe('succeeded');
    expect(await attemptsOf(due.id)).toHaveLength(1);
    expect(await deliveryOf(due.id)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
  });

  it("drops a success's answer when the order was erased while the attempt was in flight", async () => {
    const { sourceOrderId, due } = await takenOrderEvent('Erased');
    expect((await call(service.baseUrl, 'POST', `/v2/orders/${sourceOrderId}/redact`, { key: shop.liveKey })).status).toBe(200);
    expect(await recordAttempt(service.db, due, answered(200, due.body), new Date(), settings)).toBe('succeeded');
    expect(await attemptsOf(due.id)).toEqual([{ succeeded: true, statusCode: 200, durationMs: 12, responseBody: null }]);
    expect(await deliveryOf(due.id)).toMatchObject({ status: 'succeeded', attemptCount: 1 });
  });

  it("keeps a failure's answer while the event is as sent, drops it once erased, and schedules the retry", async () => {
    const kept = await takenOrderEvent('Failing');
    const erased = await takenOrderEvent('FailingErased');
    expect((await call(service.baseUrl, 'POST', `/v2/orders/${erased.sourceOrderId}/redact`, { key: shop.liveKey })).status).toBe(200);
    const at = new Date();
    expect(await recordAttempt(service.db, kept.due, answered(500, kept.due.body), at, settings)).toBe('retrying');
    expect(await recordAttempt(service.db, erased.due, answered(500, erased.due.body), at, settings)).toBe('retrying');
    expect(await attemptsOf(kept.due.id)).toEqual([{ succeeded: false, statusCode: 500, durationMs: 12, responseBody: kept.due.body }]);
    expect(await attemptsOf(erased.due.id)).toEqual([{ succeeded: false, statusCode: 500, durationMs: 12, responseBody: null }]);
    // The first wait of the schedule (60 s, ±10%) from the end of the attempt.
    for (const due of [kept.due, erased.due]) {
      const delivery = await deliveryOf(due.id);
      expect(delivery).toMatchObject({ status: 'pending', attemptCount: 1, leasedUntil: null });
      const waitMs = (delivery.nextAttemptAt?.getTime() ?? 0) - (at.getTime() + 12);
      expect(waitMs).toBeGreaterThanOrEqual(54_000);
      expect(waitMs).toBeLessThanOrEqual(66_000);
    }
  });

  it('writes nothing for a delivery whose endpoint was deleted meanwhile', async () => {
    const endpoint = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: shop.liveKey, body: { url: 'https://shop.example.com/other', events: ['order.created'] } });
    const otherId = endpoint.body.id as string;
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody() })).status).toBe(201);
    const due = await takeDueDelivery(service.db, { id: otherId, storeId: shop.store.id }, new Date());
    if (due === null) throw new Error('no delivery was due');
    expect((await call(service.baseUrl, 'DELETE', `/v1/webhook_endpoints/${otherId}`, { key: shop.liveKey })).status).toBe(200);
    expect(await recordAttempt(service.db, due, answered(200, 'ok'), new Date(), settings)).toBe('failed');
    expect(await service.db.webhookDeliveryAttempt.count({ where: { deliveryId: due.id } })).toBe(0);
  });
});
