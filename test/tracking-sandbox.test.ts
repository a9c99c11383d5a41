// The sandbox tracking provider (docs/tracking.md): each magic number's scripted history, revealed as
// the clock passes each scan. Expected values are written out by hand from the script in the docs.
import { describe, expect, it } from 'vitest';
import type { ShipmentToTrack, TrackingReport } from '../server/domain/shipments/index.js';
import { createTrackingProvider } from '../server/tracking/index.js';
import { createSandboxProvider } from '../server/tracking/sandbox.js';

const HOUR = 60 * 60 * 1000;
const registeredAt = new Date('2026-03-02T15:00:00.000Z');
const at = (hours: number) => new Date(registeredAt.getTime() + hours * HOUR);
const shipment = (trackingNumber: string): ShipmentToTrack => ({ trackingNumber, courier: 'ups', providerRef: null, registeredAt });

const sandbox = createSandboxProvider();
const fetchAt = (trackingNumber: string, hours: number): Promise<TrackingReport> => sandbox.fetch(shipment(trackingNumber), at(hours));

const LOS_ANGELES = { city: 'Los Angeles', state: 'CA', zip: '90021', country: 'US' };
const OAKLAND = { city: 'Oakland', state: 'CA', zip: '94621', country: 'US' };
const SAN_FRANCISCO = { city: 'San Francisco', state: 'CA', zip: '94107', country: 'US' };

describe('sandbox provider', () => {
  it('is named sandbox and registers without a provider reference', async () => {
    expect(sandbox.name).toBe('sandbox');
    await expect(sandbox.register(shipment('SBXDELIVERED'))).resolves.toEqual({ providerRef: null });
  });

  it('plays the whole SBXDELIVERED history, field by field', async () => {
    const report = await fetchAt('SBXDELIVERED', 1000);
    expect(report).toEqual({
      deliveryStatus: 'Delivered',
      expectedDeliveryDate: null,
      trackingUrl: null,
      checkpoints: [
        { status: 'Active', subtag: 'pre_transit', message: 'Shipping label created, carrier awaiting item', location: LOS_ANGELES, occurredAt: new Date('2026-03-02T15:00:00.000Z'), source: 'sandbox' },
        { status: 'Active', subtag: 'in_transit', message: 'Picked up by carrier', location: LOS_ANGELES, occurredAt: new Date('2026-03-02T17:00:00.000Z'), source: 'sandbox' },
        { status: 'Active', subtag: 'in_transit', message: 'Arrived at carrier facility', location: OAKLAND, occurredAt: new Date('2026-03-03T11:00:00.000Z'), source: 'sandbox' },
        { status: 'Active', subtag: 'in_transit', message: 'Departed carrier facility', location: OAKLAND, occurredAt: new Date('2026-03-03T17:00:00.000Z'), source: 'sandbox' },
        { status: 'Active', subtag: 'out_for_delivery', message: 'Out for delivery', location: SAN_FRANCISCO, occurredAt: new Date('2026-03-04T11:00:00.000Z'), source: 'sandbox' },
        { status: 'Delivered', subtag: 'delivered', message: 'Delivered, left at front door', location: SAN_FRANCISCO, occurredAt: new Date('2026-03-04T17:00:00.000Z'), source: 'sandbox' },
      ],
    });
  });

  // [hours after registration, delivery status, number of scans shown, subtag of the latest scan]
  const progressions: Record<string, Array<[number, string, number, string | null]>> = {
    SBXINTRANSIT: [
      [-1, 'Active', 0, null],
      [0, 'Active', 1, 'pre_transit'],
      [1.99, 'Active', 1, 'pre_transit'],
      [2, 'Active', 2, 'in_transit'],
      [20, 'Active', 3, 'in_transit'],
      [26, 'Active', 4, 'in_transit'],
      [46, 'Active', 5, 'in_transit'],
      [1000, 'Active', 5, 'in_transit'],
    ],
    SBXOUTFORDELIVERY: [
      [-1, 'Active', 0, null],
      [0, 'Active', 1, 'pre_transit'],
      [43.99, 'Active', 4, 'in_transit'],
      [44, 'Active', 5, 'out_for_delivery'],
      [1000, 'Active', 5, 'out_for_delivery'],
    ],
    SBXDELIVERED: [
      [-1, 'Active', 0, null],
      [0, 'Active', 1, 'pre_transit'],
      [2, 'Active', 2, 'in_transit'],
      [44, 'Active', 5, 'out_for_delivery'],
      [49.99, 'Active', 5, 'out_for_delivery'],
      [50, 'Delivered', 6, 'delivered'],
      [1000, 'Delivered', 6, 'delivered'],
    ],
    SBXEXCEPTION: [
      [-1, 'Active', 0, null],
      [0, 'Active', 1, 'pre_transit'],
      [44, 'Active', 5, 'out_for_delivery'],
      [49.99, 'Active', 5, 'out_for_delivery'],
      [50, 'Exception', 6, 'failure'],
      [1000, 'Exception', 6, 'failure'],
    ],
    SBXRETURNED: [
      [-1, 'Active', 0, null],
      [0, 'Active', 1, 'pre_transit'],
      [44, 'Active', 5, 'out_for_delivery'],
      [50, 'Exception', 6, 'delivery_exception'],
      [73.99, 'Exception', 6, 'delivery_exception'],
      [74, 'Exception', 7, 'return_to_sender'],
      [1000, 'Exception', 7, 'return_to_sender'],
    ],
  };

  for (const [trackingNumber, steps] of Object.entries(progressions)) {
    it.each(steps)(`${trackingNumber} at +%s h is %s with %i scans, latest %s`, async (hours, status, count, subtag) => {
      const report = await fetchAt(trackingNumber, hours);
      expect(report.deliveryStatus).toBe(status);
      expect(report.checkpoints).toHaveLength(count);
      expect(report.checkpoints.at(-1)?.subtag ?? null).toBe(subtag);
      // Only scans that have happened by then are shown.
      for (const checkpoint of report.checkpoints) expect(checkpoint.occurredAt.getTime()).toBeLessThanOrEqual(at(hours).getTime());
    });
  }

  it('ends SBXRETURNED with the return scan at the sorting facility', async () => {
    const last = (await fetchAt('SBXRETURNED', 74)).checkpoints.at(-1);
    expect(last).toEqual({
      status: 'Exception',
      subtag: 'return_to_sender',
      message: 'Returned to sender: undeliverable as addressed',
      location: OAKLAND,
      occurredAt: new Date('2026-03-05T17:00:00.000Z'),
      source: 'sandbox',
    });
  });

  it.each(Object.keys(progressions))('lists %s oldest first', async (trackingNumber) => {
    const times = (await fetchAt(trackingNumber, 1000)).checkpoints.map((checkpoint) => checkpoint.occurredAt.getTime());
    expect(times.length).toBeGreaterThan(1);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
  });

  it('expects delivery three days after registration until the parcel is delivered', async () => {
    expect((await fetchAt('SBXDELIVERED', -1)).expectedDeliveryDate).toBe('2026-03-05');
    expect((await fetchAt('SBXDELIVERED', 49)).expectedDeliveryDate).toBe('2026-03-05');
    expect((await fetchAt('SBXDELIVERED', 50)).expectedDeliveryDate).toBeNull();
    expect((await fetchAt('SBXEXCEPTION', 1000)).expectedDeliveryDate).toBe('2026-03-05');
    expect((await fetchAt('SBXINTRANSIT', 1000)).trackingUrl).toBeNull();
  });

  it('matches a magic number however the merchant spaced or cased it', async () => {
    expect((await fetchAt('sbx-delivered', 50)).deliveryStatus).toBe('Delivered');
  });

  it.each(['1Z999AA10123456784', 'SBXUNKNOWN', 'SBXDELIVERED1'])('keeps %s Active with no scans', async (trackingNumber) => {
    expect(await fetchAt(trackingNumber, 1000)).toEqual({
      deliveryStatus: 'Active',
      checkpoints: [],
      expectedDeliveryDate: null,
      trackingUrl: null,
    });
  });

  it('hands out fresh objects, so one caller cannot change what the next sees', async () => {
    const first = await fetchAt('SBXDELIVERED', 1000);
    first.checkpoints[0]!.location.city = 'Changed';
    expect((await fetchAt('SBXDELIVERED', 1000)).checkpoints[0]!.location.city).toBe('Los Angeles');
  });
});

describe('createTrackingProvider', () => {
  it.each([{}, { EASYPOST_API_KEY: '' }, { EASYPOST_API_KEY: '   ', EASYPOST_BASE_URL: 'http://127.0.0.1:9/v2/' }])(
    'chooses the sandbox without an EasyPost key (%o)',
    (env) => {
      expect(createTrackingProvider(env).name).toBe('sandbox');
    },
  );
});
