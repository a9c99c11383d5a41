// Event and ledger times follow the order in which changes were applied (docs/events.md, "Order").
// A change is dated once it holds the lock that orders changes to its object, never when its
// request arrived: a request that waited behind another is applied after it and dated after it.
// Each round races changes to one object through the real server and checks, by the events'
// sequence (the order the database wrote them in, under the object's lock):
//   - the created_at of the object's events strictly increases, so the event with the newest
//     created_at carries the object's final state;
//   - no re-pricing of an order is dated after its cancellation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideClaim, type ClaimStatus } from '../server/domain/claims/index.js';
import { applyTrackingReport } from '../server/domain/shipments/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const ROUNDS = 20;

let service: TestService;
let shop: SeededStore;
beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
});
afterAll(async () => service?.close());

interface EventRow {
  seq: bigint;
  type: string;
  created_at: Date;
  data: Record<string, unknown>;
}

/** The events whose data is the object (matched on one of its fields), in the order they were written. */
async function eventsOf(field: 'source_order_id' | 'tracking_number' | 'id', value: string, types: string): Promise<EventRow[]> {
  return service.db.$queryRawUnsafe<EventRow[]>(
    `SELECT seq, type, created_at, data FROM events WHERE store_id = $1::uuid AND data ->> '${field}' = $2 AND type LIKE $3 ORDER BY seq`,
    shop.store.id,
    value,
    types,
  );
}

/** Every later event (by sequence) has a later created_at than every earlier one. */
function expectDatedInOrder(events: EventRow[], label: string): void {
  expect(events.length, label).toBeGreaterThan(1);
  for (let i = 1; i < events.length; i += 1) {
    const [before, after] = [events[i - 1] as EventRow, events[i] as EventRow];
    expect(after.created_at.getTime(), `${label}: ${before.type} then ${after.type}`).toBeGreaterThan(before.created_at.getTime());
  }
}

const newest = (events: EventRow[]) => events.reduce((a, b) => (b.created_at.getTime() > a.created_at.getTime() ? b : a));

describe('an order: a cancel racing re-pricings', () => {
  it(`dates every event and ledger entry in the order of application, ${ROUNDS} rounds`, async () => {
    let cancelledBetween = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const body = orderBody({ subtotal: 100 });
      const sourceOrderId = body.source_order_id as string;
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
      const path = `/v2/orders/${sourceOrderId}`;
      // Re-pricings on both sides of the cancel, all sent at once.
      const answers = await Promise.all([
        call(service.baseUrl, 'PATCH', path, { key: shop.liveKey, body: { subtotal: 200 + round } }),
        call(service.baseUrl, 'PATCH', path, { key: shop.liveKey, body: { subtotal: 300 + round } }),
        call(service.baseUrl, 'POST', `/v1/orders/${sourceOrderId}/cancel`, { key: shop.liveKey }),
        call(service.baseUrl, 'PATCH', path, { key: shop.liveKey, body: { subtotal: 400 + round } }),
        call(service.baseUrl, 'PATCH', path, { key: shop.liveKey, body: { subtotal: 500 + round } }),
      ]);
      const label = `round ${round}`;
      // A re-pricing after the cancel is refused (409); one before it succeeds and never shows a cancelled order.
      for (const answer of answers) expect([200, 409], label).toContain(answer.status);
      for (const answer of answers.filter((a, index) => index !== 2 && a.status === 200)) expect(answer.body.status, label).toBe('created');
      if (answers.some((a, index) => index !== 2 && a.status === 409)) cancelledBetween += 1;

      const events = await eventsOf('source_order_id', sourceOrderId, 'order.%');
      expectDatedInOrder(events, label);
      const final = (await call(service.baseUrl, 'GET', path, { key: shop.liveKey })).body;
      // The newest event is the cancellation, with the order's final premium.
      expect(newest(events).type, label).toBe('order.cancelled');
      expect(newest(events).data, label).toMatchObject({ status: 'cancelled', paid_to_insure: final.paid_to_insure });

      const order = await service.db.order.findFirstOrThrow({ where: { storeId: shop.store.id, sourceOrderId }, include: { ledgerEntries: true } });
      expect(order.cancelledOn, label).not.toBeNull();
      for (const entry of order.ledgerEntries.filter((e) => e.reason === 'repricing')) {
        expect(entry.effectiveAt.getTime(), `${label}: a re-pricing dated after the cancellation`).toBeLessThan((order.cancelledOn as Date).getTime());
      }
    }
    // The race was real: in some rounds the cancel landed between re-pricings.
    expect(cancelledBetween).toBeGreaterThan(0);
  }, 120_000);
});

describe('a shipment: a cancel racing tracking reports', () => {
  it(`dates every event in the order of application, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const body = orderBody();
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
      const trackingNumber = `1Z999AA1${String(10_000_000 + round * 7919).padStart(10, '0')}`;
      const created = await call(service.baseUrl, 'POST', '/v1/shipments', {
        key: shop.liveKey,
        body: { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'ups', source_product_ids: [] },
      });
      expect(created.status).toBe(201);
      const shipment = await service.db.shipment.findFirstOrThrow({ where: { storeId: shop.store.id, trackingNumber } });
      const report = (status: 'Active' | 'Exception' | 'Delivered') => ({ deliveryStatus: status, checkpoints: [], expectedDeliveryDate: null, trackingUrl: null });
      // Reports as of now (a poll), the cancel, and reports as of a moment later, all at once.
      const reportedAt = () => service.clock.now();
      await Promise.all([
        applyTrackingReport(service.db, { kind: 'system', job: 'test' }, shipment, report('Exception'), reportedAt()),
        call(service.baseUrl, 'POST', `/v1/shipments/${trackingNumber}/cancel`, { key: shop.liveKey }),
        applyTrackingReport(service.db, { kind: 'system', job: 'test' }, shipment, report('Active'), reportedAt()),
        applyTrackingReport(service.db, { kind: 'system', job: 'test' }, shipment, report('Exception'), reportedAt()),
      ]);
      const events = await eventsOf('tracking_number', trackingNumber, 'shipment.%');
      expectDatedInOrder(events, `round ${round}`);
      expect(newest(events).type, `round ${round}`).toBe('shipment.cancelled');
    }
  }, 120_000);
});

describe('a claim: decisions racing each other', () => {
  it(`dates its history and events in the order of application, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const body = orderBody();
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
      const filed = await call(service.baseUrl, 'POST', '/v1/claims', { key: shop.liveKey, body: { source_order_id: body.source_order_id, reason: 'lost' } });
      expect(filed.status).toBe(201);
      const id = filed.body.id as string;
      const decide = (status: ClaimStatus) => decideClaim(service.db, { store: shop.store, actor: { kind: 'operator', name: 'race' }, mode: 'live' }, id, { status, ...(status === 'approved' ? { resolution: { type: 'refund' } } : {}), ...(status === 'paid' ? { payout: { amountCents: 0 } } : {}) }, service.clock).then(
        () => 'applied',
        (error: { code?: string }) => error.code,
      );
      // open -> in_review -> approved -> paid -> closed, each step raced by the one before it.
      const outcomes = await Promise.all((['in_review', 'approved', 'in_review', 'paid', 'approved', 'closed'] as ClaimStatus[]).map(decide));
      for (const outcome of outcomes) expect(['applied', 'conflict']).toContain(outcome);
      const events = await eventsOf('id', id, 'claim.%');
      // claim.created, and at least the first in_review (allowed from open) applies.
      expectDatedInOrder(events, `round ${round}`);
      const history = await service.db.claimStatusChange.findMany({ where: { claimId: id }, orderBy: { id: 'asc' } });
      for (let i = 1; i < history.length; i += 1) {
        expect((history[i]?.createdAt as Date).getTime(), `round ${round}: history`).toBeGreaterThan((history[i - 1]?.createdAt as Date).getTime());
      }
      const final = await call(service.baseUrl, 'GET', `/v1/claims/${id}`, { key: shop.liveKey });
      expect(newest(events).data.status, `round ${round}`).toBe(final.body.status);
    }
  }, 120_000);
});
