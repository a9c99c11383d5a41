// The sandbox end to end, through real HTTP and the real job queue (README, "Tracking";
// docs/tracking.md, "For merchants: testing with the sandbox"): a documented sandbox number
// registered without courier_id is tracked (courier "sandbox") and gets the sandbox's scans, on the
// API and on the claim page; a number whose carrier cannot be told is not tracked and says so, until
// a carrier is set by hand, which drops that note; and a sandbox number on a server that tracks with
// another provider is not tracked either, and says why.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pollShipment, type TrackingProvider } from '../server/domain/shipments/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const HOUR = 60 * 60 * 1000;
let service: TestService;
let shop: SeededStore;

// Workers on: the first poll goes from the outbox through the queue to the sandbox, as in production.
beforeAll(async () => {
  service = await startService({ work: true });
  shop = await seedStore(service.db);
});
afterAll(async () => service?.close());

const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: shop.liveKey, ...(body === undefined ? {} : { body }) });

let sequence = 0;
async function placeOrder(): Promise<{ sourceOrderId: string; orderNumber: string }> {
  sequence += 1;
  const orderNumber = `#SBX-${Date.now()}-${sequence}`;
  const body = orderBody({ source_order_number: orderNumber, insurance_selected: true, customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
  expect((await api('POST', '/v2/orders', body)).status).toBe(201);
  return { sourceOrderId: body.source_order_id as string, orderNumber };
}

interface Read {
  courier: string;
  delivery_status: string;
  checkpoints: Array<{ status: string; subtag: string; source: string }>;
  merchant_messages: Array<{ code: string; message: string }>;
}
const read = async (trackingNumber: string): Promise<Read> => (await api('GET', `/v1/shipments/${trackingNumber}`)).body as Read;
const poll = (id: string, at: Date, provider: TrackingProvider = service.provider) =>
  pollShipment(service.db, provider, service.jobs.scheduler, { shipmentId: id }, at, new Date(at.getTime() + HOUR));

describe('the sandbox numbers without courier_id', () => {
  it('tracks SBXDELIVERED registered with no carrier: courier sandbox, its scans, and no "not tracked" note', async () => {
    const { sourceOrderId, orderNumber } = await placeOrder();
    // As a merchant types it: the API normalises it to SBXDELIVERED.
    const created = await api('POST', '/v1/shipments', { tracking_number: 'sbx-delivered', source_order_id: sourceOrderId });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tracking_number: 'SBXDELIVERED', courier: 'sandbox', merchant_messages: [] });
    try {
      // The first poll, through the outbox and the queue: the label scan (+0 h) is there at once.
      await vi.waitFor(async () => expect((await read('SBXDELIVERED')).checkpoints).toHaveLength(1), { timeout: 10_000, interval: 100 });
      let shipment = await read('SBXDELIVERED');
      expect(shipment).toMatchObject({ courier: 'sandbox', delivery_status: 'Active', merchant_messages: [] });
      expect(shipment.checkpoints[0]).toMatchObject({ status: 'Active', subtag: 'pre_transit', source: 'sandbox' });

      // Later polls play the rest of the script, to delivery.
      const createdOn = new Date(created.body.created_on as string);
      expect(await poll(created.body.id as string, new Date(createdOn.getTime() + 51 * HOUR))).toBe('stop');
      shipment = await read('SBXDELIVERED');
      expect(shipment.delivery_status).toBe('Delivered');
      expect(shipment.checkpoints.map((scan) => scan.subtag)).toEqual(['pre_transit', 'in_transit', 'in_transit', 'in_transit', 'out_for_delivery', 'delivered']);
      expect(shipment.merchant_messages).toEqual([]);

      // The claim page shows the parcel as tracked by the sandbox, with its scans.
      const lookup = await call(service.baseUrl, 'POST', `/shopper/api/stores/${shop.store.slug}/lookup`, { body: { order_number: orderNumber, email: 'ada@example.com' } });
      expect(lookup.status).toBe(200);
      const cookie = (lookup.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const order = await call(service.baseUrl, 'GET', `/shopper/api/stores/${shop.store.slug}/order`, { headers: { cookie } });
      expect(order.status).toBe(200);
      const parcel = (order.body.shipments as Array<{ tracking_number: string; carrier: string; status: string; checkpoints: unknown[] }>)[0];
      expect(parcel).toMatchObject({ tracking_number: 'SBXDELIVERED', carrier: 'Sandbox (test parcel)', status: 'Delivered' });
      expect(parcel?.checkpoints).toHaveLength(6);
    } finally {
      await api('POST', '/v1/shipments/SBXDELIVERED/cancel');
    }
  });

  it('tracks every documented number without a carrier, and only those: SBXMYSTERY42 stays unknown', async () => {
    for (const trackingNumber of ['SBXINTRANSIT', 'SBXOUTFORDELIVERY', 'SBXEXCEPTION', 'SBXRETURNED']) {
      const created = await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: (await placeOrder()).sourceOrderId });
      expect(created.body.courier, trackingNumber).toBe('sandbox');
      await vi.waitFor(async () => expect((await read(trackingNumber)).checkpoints, trackingNumber).toHaveLength(1), { timeout: 10_000, interval: 100 });
      expect((await read(trackingNumber)).merchant_messages).toEqual([]);
      await api('POST', `/v1/shipments/${trackingNumber}/cancel`);
    }
    const mystery = await api('POST', '/v1/shipments', { tracking_number: 'SBXMYSTERY42', source_order_id: (await placeOrder()).sourceOrderId });
    expect(mystery.body.courier).toBe('unknown');
    await api('POST', '/v1/shipments/SBXMYSTERY42/cancel');
  });
});

describe('a carrier set by hand', () => {
  it('drops the "not tracked" note of a number whose carrier could not be told, and the shipment is tracked', async () => {
    const trackingNumber = `ZZHAND${Date.now()}`;
    const created = await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: (await placeOrder()).sourceOrderId });
    expect(created.body).toMatchObject({ courier: 'unknown', merchant_messages: [] });
    // The first poll finds no carrier: the note says the shipment is not tracked.
    await vi.waitFor(async () => expect((await read(trackingNumber)).merchant_messages.map((note) => note.code)).toEqual(['carrier_unknown']), { timeout: 10_000, interval: 100 });
    expect((await read(trackingNumber)).merchant_messages[0]?.message).toMatch(/not tracked/);

    const set = await api('PATCH', `/v1/shipments/${trackingNumber}`, { courier_id: 'UPS Ground' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ courier: 'ups', merchant_messages: [] });
    expect(await read(trackingNumber)).toMatchObject({ courier: 'ups', merchant_messages: [] });
    // Followed again (the carrier change queues a poll); a poll neither stops nor brings the note back.
    expect(await poll(created.body.id as string, new Date())).toBe('again');
    expect((await read(trackingNumber)).merchant_messages).toEqual([]);
  });

  it('keeps every other note: an unknown courier_id name stays recorded after the carrier is set', async () => {
    const trackingNumber = `ZZNAME${Date.now()}`;
    const created = await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: (await placeOrder()).sourceOrderId, courier_id: 'Owl Post' });
    expect(created.body.merchant_messages.map((note: { code: string }) => note.code)).toEqual(['courier_id_unknown']);
    await vi.waitFor(async () => expect((await read(trackingNumber)).merchant_messages.map((note) => note.code)).toEqual(['courier_id_unknown', 'carrier_unknown']), { timeout: 10_000, interval: 100 });
    const set = await api('POST', `/v1/shipments/${trackingNumber}`, { courier_id: 'fedex' });
    expect(set.status).toBe(200);
    expect(set.body.merchant_messages.map((note: { code: string }) => note.code)).toEqual(['courier_id_unknown']);
  });

  it('on a server tracking with another provider, a sandbox number is not tracked and says why, until a carrier is set', async () => {
    const created = await api('POST', '/v1/shipments', { tracking_number: 'SBXINTRANSIT', source_order_id: (await placeOrder()).sourceOrderId });
    expect(created.body.courier).toBe('sandbox');
    try {
      await vi.waitFor(async () => expect((await read('SBXINTRANSIT')).checkpoints).toHaveLength(1), { timeout: 10_000, interval: 100 });
      let fetched = 0;
      const elsewhere: TrackingProvider = {
        name: 'easypost',
        register: async () => ({ providerRef: null }),
        fetch: async () => ((fetched += 1), { deliveryStatus: 'Active', checkpoints: [], expectedDeliveryDate: null, trackingUrl: null }),
      };
      const id = created.body.id as string;
      expect(await poll(id, new Date(), elsewhere)).toBe('stop');
      expect(await poll(id, new Date(), elsewhere)).toBe('stop');
      expect(fetched).toBe(0);
      expect((await read('SBXINTRANSIT')).merchant_messages).toEqual([
        { code: 'sandbox_number_not_tracked', message: expect.stringMatching(/sandbox tracking number.*easypost.*not tracked/), created_on: expect.any(String) },
      ]);
      const set = await api('PATCH', '/v1/shipments/SBXINTRANSIT', { courier_id: 'usps' });
      expect(set.body).toMatchObject({ courier: 'usps', merchant_messages: [] });
      expect(await poll(id, new Date(), elsewhere)).toBe('again');
      expect(fetched).toBe(1);
    } finally {
      await api('POST', '/v1/shipments/SBXINTRANSIT/cancel');
    }
  });
});
