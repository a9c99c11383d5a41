// Shipments through real HTTP (README, Concepts, "Shipments" and "Tracking") and tracking polls
// against the sandbox provider and the job queue.
import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startJobQueue } from '../server/jobs/queue.js';
import { queueFirstPolls } from '../server/jobs/tracking-jobs.js';
import { createLogger } from '../server/logger.js';
import { applyTrackingReport, pollShipment } from '../server/domain/shipments/index.js';
import type { ShipmentToTrack, TrackingProvider, TrackingReport } from '../server/domain/shipments/index.js';
import { createSandboxProvider } from '../server/tracking/sandbox.js';
import { call, metricValue, orderBody, tableCounts } from './support/http.js';
import { firstPollOf, seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const HOUR = 60 * 60 * 1000;
let service: TestService;
let shop: SeededStore;
let otherShop: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  otherShop = await seedStore(service.db);
});
afterAll(async () => service.close());

const post = (path: string, key: string, body?: unknown) => call(service.baseUrl, 'POST', path, { key, body });
const fields = (response: { body: { errors: Array<{ field: string }> } }) => response.body.errors.map((e) => e.field).sort();

async function order(overrides: Record<string, unknown> = {}, key = shop.liveKey): Promise<string> {
  const body = orderBody({
    line_items: [
      { source_id: 'li_1', name: 'Desk', price: 50, quantity: 2, source_product_id: 'prod_desk' },
      { source_id: 'li_2', name: 'Lamp', price: 25, quantity: 1, source_product_id: 'prod_lamp' },
    ],
    ...overrides,
  });
  const response = await post('/v2/orders', key, body);
  expect(response.status).toBe(201);
  return body.source_order_id as string;
}

let sequence = 0;
/** A tracking number unique to this run that no carrier format matches. */
const plainNumber = () => `ZZTEST${Date.now()}${(sequence += 1)}`;

describe('POST /v1/shipments', () => {
  it('registers a shipment and answers exactly the SPEC 2.7 create shape', async () => {
    const sourceOrderId = await order();
    const response = await post('/v1/shipments', shop.liveKey, {
      tracking_number: '1z 999-aa1 01 2345 6784',
      source_order_id: sourceOrderId,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      merchant_id: shop.store.id,
      tracking_number: '1Z999AA10123456784',
      courier: 'ups',
      delivery_status: 'Active',
      tracking_registration_status: 'registered',
      tracking_url: null,
      expected_delivery_date: null,
      checkpoints: [],
      merchant_messages: [],
      created_on: expect.any(String),
      updated_on: expect.any(String),
      cancelled_on: null,
    });
  });

  it('commits the first tracking poll with the shipment, and queues it within about a second', async () => {
    const response = await post('/v1/shipments', shop.liveKey, { tracking_number: plainNumber(), source_order_id: await order(), courier_id: 'usps' });
    expect(response.status).toBe(201);
    // Waiting in the outbox or already queued, never neither and never both, whenever this reads.
    const firstPoll = () => firstPollOf(service.db, response.body.id);
    const now = await firstPoll();
    expect(now.waiting + now.queued).toBe(1);
    await vi.waitFor(async () => expect(await firstPoll()).toEqual({ waiting: 0, queued: 1 }), { timeout: 5000, interval: 50 });
  });

  it('moves each waiting first poll into the queue once, however many moves race, and keeps them when the queue fails', async () => {
    // An instance of its own whose mover does not run by itself: the moves below are the only ones.
    const quiet = await startService({ firstPollIntervalMs: 3_600_000, exposeMetrics: true });
    const boss = await startJobQueue({ databaseUrl: quiet.databaseUrl, logger: createLogger('silent'), schedules: false });
    try {
      const quietShop = await seedStore(quiet.db);
      const register = async () => {
        const body = orderBody();
        expect((await call(quiet.baseUrl, 'POST', '/v2/orders', { key: quietShop.liveKey, body })).status).toBe(201);
        const created = await call(quiet.baseUrl, 'POST', '/v1/shipments', {
          key: quietShop.liveKey,
          body: { tracking_number: plainNumber(), source_order_id: body.source_order_id, courier_id: 'usps' },
        });
        expect(created.status).toBe(201);
        return created.body.id as string;
      };
      const ids = await Promise.all(Array.from({ length: 40 }, register));
      expect(await quiet.db.trackingPollOutbox.count()).toBe(40);

      const moved = await Promise.all(Array.from({ length: 5 }, () => queueFirstPolls(quiet.db, boss)));
      expect(moved.reduce((sum, n) => sum + n, 0)).toBe(40);
      expect(await quiet.db.trackingPollOutbox.count()).toBe(0);
      const jobs = await quiet.db.$queryRawUnsafe<Array<{ shipment_id: string; n: number }>>(
        `SELECT data->>'shipmentId' AS shipment_id, count(*)::int AS n FROM pgboss.job
          WHERE name = 'tracking-poll' AND data->>'shipmentId' = ANY($1::text[]) GROUP BY 1`,
        ids,
      );
      expect(Object.fromEntries(jobs.map((job) => [job.shipment_id, job.n]))).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));

      // A queue that refuses the jobs: the row stays waiting for the next move, none is lost.
      const kept = await register();
      const failing = { insert: () => Promise.reject(new Error('queue down')) } as unknown as PgBoss;
      await expect(queueFirstPolls(quiet.db, failing)).rejects.toThrow('queue down');
      expect(await quiet.db.trackingPollOutbox.findMany({ select: { shipmentId: true } })).toEqual([{ shipmentId: kept }]);
      // A first poll left waiting shows in the lag an operator watches, not only a queued one.
      const lag = async () => metricValue(await (await fetch(`${quiet.baseUrl}/metrics`)).text(), 'tracking_job_lag_seconds') ?? -1;
      await quiet.db.$executeRawUnsafe("UPDATE tracking_poll_outbox SET created_at = now() - interval '120 seconds'");
      expect(await lag()).toBeGreaterThanOrEqual(120);
      expect(await queueFirstPolls(quiet.db, boss)).toBe(1);
      expect(await quiet.db.trackingPollOutbox.count()).toBe(0);
      expect(await lag()).toBeLessThan(120);
    } finally {
      await boss.stop({ graceful: false, wait: true });
      await quiet.close();
    }
  });

  it.each([
    ['UPS Ground', 'ups'],
    ['U.S.P.S.', 'usps'],
    ['Federal Express', 'fedex'],
    ['dhl', 'dhl'],
  ])('normalises courier_id %j to %s', async (courierId, slug) => {
    const response = await post('/v1/shipments', shop.liveKey, { tracking_number: plainNumber(), source_order_id: await order(), courier_id: courierId });
    expect(response.status).toBe(201);
    expect(response.body.courier).toBe(slug);
  });

  it('reads a courier_id it does not know as omitted: the carrier is detected, and a merchant message keeps the name sent', async () => {
    // 1Z999AA10123456784 is UPS's own documented sample number (check digit 4); a store of its own
    // keeps it free of the other tests' registrations.
    const own = await seedStore(service.db);
    const response = await post('/v1/shipments', own.liveKey, {
      tracking_number: '1Z999AA10123456784',
      source_order_id: await order({}, own.liveKey),
      courier_id: 'carrier pigeon',
    });
    expect(response.status).toBe(201);
    expect(response.body.courier).toBe('ups');
    expect(response.body.merchant_messages).toEqual([
      { code: 'courier_id_unknown', message: expect.stringContaining('courier_id "carrier pigeon" names no carrier we know'), created_on: expect.any(String) },
    ]);
  });

  it.each([[''], [null], ['custom']])('reads courier_id %j as omitted', async (courierId) => {
    const response = await post('/v1/shipments', shop.liveKey, { tracking_number: plainNumber(), source_order_id: await order(), courier_id: courierId });
    expect(response.status).toBe(201);
    expect(response.body.courier).toBe('unknown');
    expect(response.body.merchant_messages.map((m: { code: string }) => m.code)).toEqual(courierId === 'custom' ? ['courier_id_unknown'] : []);
  });

  it('stores an undetectable number with courier unknown', async () => {
    const response = await post('/v1/shipments', shop.liveKey, { tracking_number: plainNumber(), source_order_id: await order() });
    expect(response.status).toBe(201);
    expect(response.body.courier).toBe('unknown');
  });

  it.each(['1Z999AA1-(SHIPSTATION)', 'ABC.123', '   ', '----', 'ÄBC123'])('rejects the tracking number %j with 400', async (trackingNumber) => {
    const response = await post('/v1/shipments', shop.liveKey, { tracking_number: trackingNumber, source_order_id: await order() });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['tracking_number']);
  });

  it('reports every missing field at once', async () => {
    const response = await post('/v1/shipments', shop.liveKey, {});
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['source_order_id', 'tracking_number']);
  });

  it("answers 404 when the order does not exist in the key's store", async () => {
    const foreign = await order({}, otherShop.liveKey);
    for (const sourceOrderId of ['never-created', foreign]) {
      const response = await post('/v1/shipments', shop.liveKey, { tracking_number: plainNumber(), source_order_id: sourceOrderId });
      expect(response.status).toBe(404);
    }
  });

  it('answers 400 naming each item that is not in the order, and writes nothing', async () => {
    const sourceOrderId = await order();
    const before = await tableCounts(service.db);
    const response = await post('/v1/shipments', shop.liveKey, {
      tracking_number: plainNumber(),
      source_order_id: sourceOrderId,
      source_product_ids: ['prod_desk', 'prod_chair'],
      line_items: [
        { source_id: 'li_1', quantity: 3 },
        { source_id: 'li_9', quantity: 1 },
        { source_id: 'li_2', source_product_id: 'prod_desk', quantity: 1 },
      ],
    });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['line_items[0].quantity', 'line_items[1].source_id', 'line_items[2].source_product_id', 'source_product_ids[1]']);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('accepts a partial shipment naming items of the order', async () => {
    const response = await post('/v1/shipments', shop.liveKey, {
      tracking_number: plainNumber(),
      source_order_id: await order(),
      source_product_ids: ['prod_lamp'],
      line_items: [{ source_id: 'li_2', source_product_id: 'prod_lamp', quantity: 1 }],
    });
    expect(response.status).toBe(201);
  });

  it('answers 409 for an active tracking number registered twice, and frees it once cancelled', async () => {
    const trackingNumber = plainNumber();
    const sourceOrderId = await order();
    expect((await post('/v1/shipments', shop.liveKey, { tracking_number: trackingNumber, source_order_id: sourceOrderId })).status).toBe(201);
    const again = await post('/v1/shipments', shop.liveKey, { tracking_number: trackingNumber, source_order_id: await order() });
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe('conflict');
    expect((await post(`/v1/shipments/${trackingNumber}/cancel`, shop.liveKey)).status).toBe(200);
    expect((await post('/v1/shipments', shop.liveKey, { tracking_number: trackingNumber, source_order_id: sourceOrderId })).status).toBe(201);
  });

  it('gives one 201 and nine 409 for ten parallel registrations of one number', async () => {
    const trackingNumber = plainNumber();
    const sourceOrderId = await order();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post('/v1/shipments', shop.liveKey, { tracking_number: trackingNumber, source_order_id: sourceOrderId })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await service.db.shipment.count({ where: { trackingNumber } })).toBe(1);
  });

  it('lets two stores register the same number', async () => {
    const trackingNumber = plainNumber();
    expect((await post('/v1/shipments', shop.liveKey, { tracking_number: trackingNumber, source_order_id: await order() })).status).toBe(201);
    const theirs = await order({}, otherShop.liveKey);
    expect((await post('/v1/shipments', otherShop.liveKey, { tracking_number: trackingNumber, source_order_id: theirs })).status).toBe(201);
  });
});

describe('read, update and cancel', () => {
  async function shipment(courierId?: string) {
    const trackingNumber = plainNumber();
    const body: Record<string, unknown> = { tracking_number: trackingNumber, source_order_id: await order() };
    if (courierId !== undefined) body.courier_id = courierId;
    const response = await post('/v1/shipments', shop.liveKey, body);
    expect(response.status).toBe(201);
    return trackingNumber;
  }

  it('reads a shipment by its normalised number, however it is written', async () => {
    const trackingNumber = await shipment('ups');
    const spaced = `${trackingNumber.slice(0, 4)} ${trackingNumber.slice(4).toLowerCase()}`;
    const response = await call(service.baseUrl, 'GET', `/v1/shipments/${encodeURIComponent(spaced)}`, { key: shop.liveKey });
    expect(response.status).toBe(200);
    expect(response.body.tracking_number).toBe(trackingNumber);
  });

  it('changes only the courier; any other field is 400', async () => {
    const trackingNumber = await shipment();
    const changed = await call(service.baseUrl, 'PATCH', `/v1/shipments/${trackingNumber}`, { key: shop.liveKey, body: { courier_id: 'FedEx Ground' } });
    expect(changed.status).toBe(200);
    expect(changed.body.courier).toBe('fedex');
    const other = await post(`/v1/shipments/${trackingNumber}`, shop.liveKey, { courier_id: 'ups', tracking_number: 'NEW123' });
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([{ field: 'tracking_number', message: expect.stringMatching(/differs from the stored shipment; only courier_id can change/) }]);
    const unknownField = await post(`/v1/shipments/${trackingNumber}`, shop.liveKey, { courier_id: 'ups', weight: 3 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0].message).toMatch(/only courier_id can be changed/);
    const read = await call(service.baseUrl, 'GET', `/v1/shipments/${trackingNumber}`, { key: shop.liveKey });
    expect(read.body.courier).toBe('fedex');
    const missing = await post(`/v1/shipments/${trackingNumber}`, shop.liveKey, {});
    expect(fields(missing)).toEqual(['courier_id']);
  });

  it('cancels once: Cancelled, cancelled_on set and kept, history kept', async () => {
    const trackingNumber = await shipment('ups');
    const first = await post(`/v1/shipments/${trackingNumber}/cancel`, shop.liveKey);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ delivery_status: 'Cancelled', tracking_number: trackingNumber });
    expect(first.body.cancelled_on).not.toBeNull();
    const again = await post(`/v1/shipments/${trackingNumber}/cancel`, shop.liveKey);
    expect(again.status).toBe(200);
    expect(again.body.cancelled_on).toBe(first.body.cancelled_on);
  });

  it("answers 404 to another store's key and to unknown numbers, changing nothing", async () => {
    const trackingNumber = await shipment('ups');
    const before = await tableCounts(service.db);
    for (const [method, path, body] of [
      ['GET', `/v1/shipments/${trackingNumber}`, undefined],
      ['POST', `/v1/shipments/${trackingNumber}`, { courier_id: 'usps' }],
      ['PATCH', `/v1/shipments/${trackingNumber}`, { courier_id: 'usps' }],
      ['POST', `/v1/shipments/${trackingNumber}/cancel`, undefined],
    ] as const) {
      const response = await call(service.baseUrl, method, path, { key: otherShop.liveKey, body });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await call(service.baseUrl, 'GET', '/v1/shipments/NOSUCHNUMBER', { key: shop.liveKey })).status).toBe(404);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('test keys: a realistic test_ shipment without any lookup or write; reads, updates and cancels 404', async () => {
    const before = await tableCounts(service.db);
    const created = await post('/v1/shipments', shop.testKey, { tracking_number: '1Z999AA10123456784', source_order_id: 'only-in-test' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^test_/), courier: 'ups', delivery_status: 'Active', checkpoints: [] });
    const invalid = await post('/v1/shipments', shop.testKey, { tracking_number: 'A.B', source_order_id: 'x' });
    expect(invalid.status).toBe(400);
    expect(await tableCounts(service.db)).toEqual(before);
    const live = await shipment('ups');
    expect((await call(service.baseUrl, 'GET', `/v1/shipments/${live}`, { key: shop.testKey })).status).toBe(404);
    expect((await post(`/v1/shipments/${live}`, shop.testKey, { courier_id: 'usps' })).status).toBe(404);
    expect((await post(`/v1/shipments/${live}/cancel`, shop.testKey)).status).toBe(404);
  });
});

describe('tracking', () => {
  async function registered(trackingNumber: string, courierId?: string) {
    const body: Record<string, unknown> = { tracking_number: trackingNumber, source_order_id: await order() };
    if (courierId !== undefined) body.courier_id = courierId;
    const response = await post('/v1/shipments', shop.liveKey, body);
    expect(response.status).toBe(201);
    return { id: response.body.id as string, createdOn: new Date(response.body.created_on as string) };
  }
  const read = async (trackingNumber: string) => (await call(service.baseUrl, 'GET', `/v1/shipments/${trackingNumber}`, { key: shop.liveKey })).body;
  const poll = (id: string, at: Date, provider: TrackingProvider = service.provider) =>
    pollShipment(service.db, provider, service.jobs.scheduler, { shipmentId: id }, at, new Date(at.getTime() + HOUR));

  it('follows a sandbox shipment from Active to Delivered, then stops polling', async () => {
    // Sandbox numbers are magic, so each test cancels its own first to free the number.
    const { id, createdOn } = await registered('SBXDELIVERED', 'ups');
    try {
      expect(await poll(id, new Date(createdOn.getTime() + 3 * HOUR))).toBe('again');
      let shipment = await read('SBXDELIVERED');
      // scans at +0 h and +2 h have happened by +3 h
      expect(shipment.delivery_status).toBe('Active');
      expect(shipment.checkpoints.map((c: { subtag: string }) => c.subtag)).toEqual(['pre_transit', 'in_transit']);

      expect(await poll(id, new Date(createdOn.getTime() + 51 * HOUR))).toBe('stop');
      shipment = await read('SBXDELIVERED');
      expect(shipment.delivery_status).toBe('Delivered');
      expect(shipment.checkpoints).toHaveLength(6);
      expect(shipment.checkpoints[0]).toMatchObject({ status: 'Active', subtag: 'pre_transit', source: 'sandbox' });
      expect(shipment.checkpoints[5]).toMatchObject({
        status: 'Delivered',
        message: 'Delivered, left at front door',
        location: { city: 'San Francisco', state: 'CA', zip: '94107', country: 'US' },
        occurred_at: new Date(createdOn.getTime() + 50 * HOUR).toISOString(),
      });
      const times = shipment.checkpoints.map((c: { occurred_at: string }) => Date.parse(c.occurred_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // A delivered shipment is not polled again.
      expect(await poll(id, new Date(createdOn.getTime() + 60 * HOUR))).toBe('stop');
    } finally {
      await post('/v1/shipments/SBXDELIVERED/cancel', shop.liveKey);
    }
  });

  it('follows a sandbox shipment to Exception and keeps polling it', async () => {
    const { id, createdOn } = await registered('SBXEXCEPTION', 'ups');
    try {
      expect(await poll(id, new Date(createdOn.getTime() + 51 * HOUR))).toBe('again');
      const shipment = await read('SBXEXCEPTION');
      expect(shipment.delivery_status).toBe('Exception');
      expect(shipment.checkpoints.at(-1)).toMatchObject({ status: 'Exception', subtag: 'failure' });
    } finally {
      await post('/v1/shipments/SBXEXCEPTION/cancel', shop.liveKey);
    }
  });

  it('stores a scan reported twice once', async () => {
    const { id, createdOn } = await registered('SBXOUTFORDELIVERY', 'ups');
    try {
      const at = new Date(createdOn.getTime() + 45 * HOUR);
      await poll(id, at);
      await poll(id, at);
      expect(await service.db.shipmentCheckpoint.count({ where: { shipmentId: id } })).toBe(5);
    } finally {
      await post('/v1/shipments/SBXOUTFORDELIVERY/cancel', shop.liveKey);
    }
  });

  it('shows the latest 100 scans, oldest first', async () => {
    const trackingNumber = plainNumber();
    const { id, createdOn } = await registered(trackingNumber, 'ups');
    const report: TrackingReport = {
      deliveryStatus: 'Active',
      expectedDeliveryDate: '2026-12-01',
      trackingUrl: 'https://track.example/1',
      checkpoints: Array.from({ length: 150 }, (_, i) => ({
        status: 'Active' as const,
        subtag: 'in_transit',
        message: `scan ${i}`,
        location: { city: null, state: null, zip: null, country: 'US' },
        occurredAt: new Date(createdOn.getTime() + i * 60_000),
        source: 'test',
      })),
    };
    await applyTrackingReport(service.db, { kind: 'system', job: 'test' }, { id, storeId: shop.store.id }, report, new Date());
    const shipment = await read(trackingNumber);
    expect(shipment.checkpoints).toHaveLength(100);
    expect(shipment.checkpoints[0].message).toBe('scan 50');
    expect(shipment.checkpoints[99].message).toBe('scan 149');
    expect(shipment).toMatchObject({ expected_delivery_date: '2026-12-01', tracking_url: 'https://track.example/1' });
  });

  it('keeps the scans of a report older than one already applied, but not its status (crossing polls)', async () => {
    const trackingNumber = plainNumber();
    const { id, createdOn } = await registered(trackingNumber, 'ups');
    const scan = (minutes: number, status: 'Active' | 'Delivered') => ({
      status,
      subtag: null,
      message: `${status} at +${minutes} min`,
      location: { city: null, state: null, zip: null, country: 'US' },
      occurredAt: new Date(createdOn.getTime() + minutes * 60_000),
      source: 'test',
    });
    const later = new Date(createdOn.getTime() + 2 * 3600_000);
    const earlier = new Date(createdOn.getTime() + 3600_000);
    await applyTrackingReport(service.db, { kind: 'system', job: 'test' }, { id, storeId: shop.store.id }, { deliveryStatus: 'Delivered', checkpoints: [scan(90, 'Delivered')], expectedDeliveryDate: null, trackingUrl: null }, later);
    // A poll fetched an hour earlier lands after it: the shipment stays delivered, the scan is kept.
    const answered = await applyTrackingReport(service.db, { kind: 'system', job: 'test' }, { id, storeId: shop.store.id }, { deliveryStatus: 'Active', checkpoints: [scan(30, 'Active')], expectedDeliveryDate: null, trackingUrl: null }, earlier);
    expect(answered).toBe('Delivered');
    const shipment = await read(trackingNumber);
    expect(shipment.delivery_status).toBe('Delivered');
    expect(shipment.checkpoints.map((checkpoint: { message: string }) => checkpoint.message)).toEqual(['Active at +30 min', 'Delivered at +90 min']);
  });

  it('does not poll an unknown carrier: it tells the merchant instead', async () => {
    const trackingNumber = plainNumber();
    const { id } = await registered(trackingNumber);
    let fetched = 0;
    const counting: TrackingProvider = { ...createSandboxProvider(), fetch: async (s: ShipmentToTrack, now: Date) => ((fetched += 1), createSandboxProvider().fetch(s, now)) };
    expect(await poll(id, new Date(), counting)).toBe('stop');
    expect(await poll(id, new Date(), counting)).toBe('stop');
    expect(fetched).toBe(0);
    const shipment = await read(trackingNumber);
    expect(shipment.merchant_messages).toEqual([{ code: 'carrier_unknown', message: expect.stringMatching(/courier_id/), created_on: expect.any(String) }]);
  });

  it('does not poll a cancelled shipment, and a report no longer changes it', async () => {
    const trackingNumber = plainNumber();
    const { id } = await registered(trackingNumber, 'ups');
    await post(`/v1/shipments/${trackingNumber}/cancel`, shop.liveKey);
    let fetched = 0;
    const counting: TrackingProvider = { ...createSandboxProvider(), fetch: async (s: ShipmentToTrack, now: Date) => ((fetched += 1), createSandboxProvider().fetch(s, now)) };
    expect(await poll(id, new Date(), counting)).toBe('stop');
    expect(fetched).toBe(0);
    await applyTrackingReport(service.db, { kind: 'system', job: 'test' }, { id, storeId: shop.store.id }, { deliveryStatus: 'Delivered', checkpoints: [], expectedDeliveryDate: null, trackingUrl: null }, new Date());
    expect((await read(trackingNumber)).delivery_status).toBe('Cancelled');
  });
});
