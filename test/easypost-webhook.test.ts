// EasyPost end to end: a new shipment gets a tracker through the poll job, and
// POST /v1/tracking/easypost/webhook applies signed tracker events (a bad signature or a malformed
// event writes nothing).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orderBody, tableCounts } from './support/http.js';
import { createEasyPostProvider } from '../server/tracking/easypost.js';
import { easyPostTracker, easyPostTrackingDetail, startEasyPostFake } from './support/easypost-fake.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const SECRET = 'whsec_test_secret';
let service: TestService;
let disabled: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService({ easyPostWebhookSecret: SECRET });
  disabled = await startService({ databaseUrl: service.databaseUrl });
  shop = await seedStore(service.db);
});
afterAll(async () => {
  await service.close();
  await disabled.close();
});

const sign = (raw: string, secret = SECRET) => `hmac-sha256-hex=${createHmac('sha256', secret).update(raw).digest('hex')}`;

function deliver(raw: string, signature: string | undefined, base = service.baseUrl) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-hmac-signature'] = signature;
  return call(base, 'POST', '/v1/tracking/easypost/webhook', { rawBody: raw, headers });
}

async function followedShipment(providerRef: string) {
  const trackingNumber = `ZZEP${Date.now()}`;
  const body = orderBody();
  await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body });
  const created = await call(service.baseUrl, 'POST', '/v1/shipments', {
    key: shop.liveKey,
    body: { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'ups' },
  });
  await service.db.shipment.updateMany({ where: { id: created.body.id }, data: { providerRef } });
  return trackingNumber;
}

function deliveredEvent(providerRef: string, trackingNumber: string): string {
  const tracker = easyPostTracker({
    id: providerRef,
    tracking_code: trackingNumber,
    carrier: 'UPS',
    status: 'delivered',
    status_detail: 'arrived_at_destination',
    public_url: 'https://track.easypost.com/djE6dHJrXzEyMw',
    est_delivery_date: '2026-11-25T00:00:00Z',
    tracking_details: [
      easyPostTrackingDetail({ status: 'in_transit', message: 'Departed facility', datetime: '2026-11-23T08:00:00Z' }),
      easyPostTrackingDetail({ status: 'delivered', message: 'Delivered', datetime: '2026-11-24T15:30:00Z' }),
    ],
  });
  return JSON.stringify({ object: 'Event', id: 'evt_1', description: 'tracker.updated', mode: 'test', result: tracker });
}

describe('the EasyPost webhook', () => {
  it('applies a signed tracker.updated event to the shipment that follows the tracker', async () => {
    const trackingNumber = await followedShipment('trk_delivered');
    const response = await deliver(deliveredEvent('trk_delivered', trackingNumber), sign(deliveredEvent('trk_delivered', trackingNumber)));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true, matched: true });
    const shipment = await call(service.baseUrl, 'GET', `/v1/shipments/${trackingNumber}`, { key: shop.liveKey });
    expect(shipment.body).toMatchObject({
      delivery_status: 'Delivered',
      tracking_url: 'https://track.easypost.com/djE6dHJrXzEyMw',
      expected_delivery_date: '2026-11-25',
    });
    expect(shipment.body.checkpoints.map((c: { message: string; status: string }) => [c.status, c.message])).toEqual([
      ['Active', 'Departed facility'],
      ['Delivered', 'Delivered'],
    ]);
  });

  it('refuses a missing or wrong signature with 401 and writes nothing', async () => {
    const trackingNumber = await followedShipment('trk_unsigned');
    const raw = deliveredEvent('trk_unsigned', trackingNumber);
    const before = await tableCounts(service.db);
    for (const signature of [undefined, sign(raw, 'another secret'), sign(`${raw} `), 'hmac-sha256-hex=zz']) {
      const response = await deliver(raw, signature);
      expect(response.status).toBe(401);
      expect(response.body.error_code).toBe('unauthorized');
    }
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('refuses a malformed tracker event with 400 and writes nothing', async () => {
    await followedShipment('trk_malformed');
    const raw = JSON.stringify({
      object: 'Event',
      description: 'tracker.updated',
      result: { object: 'Tracker', id: 'trk_malformed', tracking_code: 42, status: 'delivered', tracking_details: 'soon' },
    });
    const before = await tableCounts(service.db);
    const response = await deliver(raw, sign(raw));
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_request');
    expect(await tableCounts(service.db)).toEqual(before);
    const row = await service.db.shipment.findFirstOrThrow({ where: { providerRef: 'trk_malformed' } });
    expect(row.deliveryStatus).toBe('Active');
  });

  it('acknowledges events for trackers no shipment follows, and other event types', async () => {
    const stranger = deliveredEvent('trk_nobody', 'ZZNOBODY1');
    expect((await deliver(stranger, sign(stranger))).body).toEqual({ received: true, matched: false });
    const other = JSON.stringify({ object: 'Event', description: 'batch.updated', result: { object: 'Batch' } });
    expect((await deliver(other, sign(other))).body).toEqual({ received: true, matched: false });
  });

  it('answers 404 when no webhook secret is configured', async () => {
    const raw = deliveredEvent('trk_x', 'ZZX1');
    const response = await deliver(raw, sign(raw), disabled.baseUrl);
    expect(response.status).toBe(404);
  });
});

describe('claim rules after a tracking update', () => {
  it("runs the store's rules again on the parcel's open claims: a lost claim is denied once the carrier says delivered", async () => {
    const rule = { name: 'Delivered is not lost', enabled: true, when: { reasons: ['lost'], delivery_statuses: ['Delivered'] }, then: { action: 'deny', note_to_shopper: 'The carrier delivered it.' } };
    expect((await call(service.baseUrl, 'PUT', '/v1/claim_rules', { key: shop.liveKey, body: { rules: [rule] } })).status).toBe(200);
    const providerRef = `trk_rules_${Date.now()}`;
    const trackingNumber = await followedShipment(providerRef);
    const { order } = await service.db.shipment.findFirstOrThrow({ where: { trackingNumber }, select: { order: { select: { sourceOrderId: true } } } });
    const filed = await call(service.baseUrl, 'POST', '/v1/claims', {
      key: shop.liveKey,
      body: { source_order_id: order.sourceOrderId, tracking_number: trackingNumber, reason: 'lost' },
    });
    // Still in transit when filed: the rule does not match.
    expect([filed.status, filed.body.status]).toEqual([201, 'open']);

    expect((await deliver(deliveredEvent(providerRef, trackingNumber), sign(deliveredEvent(providerRef, trackingNumber)))).status).toBe(200);
    const claim = await call(service.baseUrl, 'GET', `/v1/claims/${filed.body.id as string}`, { key: shop.liveKey });
    expect(claim.body).toMatchObject({ status: 'denied', evidence: { delivery_status: 'Delivered' } });
    expect((claim.body.history as Array<Record<string, unknown>>).at(-1)).toMatchObject({
      to_status: 'denied',
      note: 'The carrier delivered it.',
      by: { kind: 'rule', rule: { name: 'Delivered is not lost', version: 1, evidence: { delivery_status: 'Delivered' } } },
    });
  });
});

describe('registration with EasyPost', () => {
  it('creates a tracker for a new shipment through the poll job and keeps its id', async () => {
    const fake = await startEasyPostFake();
    const tracked = await startService({
      databaseUrl: service.databaseUrl,
      provider: createEasyPostProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }),
      work: true,
    });
    try {
      const body = orderBody();
      await call(tracked.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body });
      const trackingNumber = `ZZREG${Date.now()}`;
      const created = await call(tracked.baseUrl, 'POST', '/v1/shipments', {
        key: shop.liveKey,
        body: { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'UPS Ground' },
      });
      expect(created.status).toBe(201);
      const deadline = Date.now() + 20_000;
      let providerRef: string | null = null;
      while (providerRef === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        providerRef = (await tracked.db.shipment.findFirstOrThrow({ where: { id: created.body.id } })).providerRef;
      }
      expect(providerRef).toMatch(/^trk_/);
      const registration = fake.requests.find((r) => r.method === 'POST' && r.path === '/v2/trackers');
      expect(registration?.body).toMatchObject({ tracker: { tracking_code: trackingNumber, carrier: 'UPS' } });
      expect(registration?.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.apiKey}:`).toString('base64')}`);
    } finally {
      await tracked.close();
      await fake.close();
    }
  }, 40_000);
});
