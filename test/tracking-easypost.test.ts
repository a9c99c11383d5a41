// The EasyPost tracking provider through the real SDK against a local fake of the EasyPost API
// (test/support/easypost-fake.ts); its webhook events are tested in tracking-easypost-events.test.ts.
// Nothing here leaves 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrackingUnavailableError, type ShipmentToTrack } from '../server/domain/shipments/index.js';
import {
  createEasyPostProvider,
  EasyPostPayloadError,
  EasyPostRequestError,
  retryAfterSeconds,
} from '../server/tracking/easypost.js';
import { createTrackingProvider } from '../server/tracking/index.js';
import {
  easyPostTracker,
  easyPostTrackingDetail,
  startEasyPostFake,
  type EasyPostFake,
  type EasyPostTracker,
} from './support/easypost-fake.js';

let fake: EasyPostFake;
beforeEach(async () => {
  fake = await startEasyPostFake();
});
afterEach(async () => {
  await fake.close();
});

const provider = (timeoutMs?: number) => createEasyPostProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, timeoutMs });
const shipment = (fields: Partial<ShipmentToTrack> = {}): ShipmentToTrack => ({
  trackingNumber: '9400100000000000000001',
  courier: 'usps',
  providerRef: null,
  registeredAt: new Date('2026-03-02T15:00:00Z'),
  ...fields,
});
const now = new Date('2026-03-10T00:00:00Z');

/** Stores a tracker for the default shipment's number and returns it. */
const seed = (fields: Partial<EasyPostTracker> = {}) =>
  fake.putTracker(easyPostTracker({ tracking_code: '9400100000000000000001', ...fields }));

describe('register', () => {
  it('creates a tracker with the tracking code, the mapped carrier and the API key as Basic auth', async () => {
    const { providerRef } = await provider().register(shipment({ courier: 'ups', trackingNumber: '1Z999AA10123456784' }));

    expect(providerRef).toMatch(/^trk_[0-9a-f]{32}$/);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v2/trackers');
    expect(request!.body).toEqual({ tracker: { tracking_code: '1Z999AA10123456784', carrier: 'UPS' } });
    // The SDK authenticates with HTTP Basic: the key as user name, empty password.
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.apiKey}:`).toString('base64')}`);
    expect(request!.headers['content-type']).toMatch(/^application\/json/);
    expect(request!.headers['user-agent']).toMatch(/^EasyPost\/v2 NodejsClient\/8\.9\.0 /);
  });

  it.each([
    ['ups', 'UPS'],
    ['usps', 'USPS'],
    ['fedex', 'FedEx'],
    ['dhl', 'DHLExpress'],
    ['ontrac', 'OnTrac'],
    ['lasership', 'LaserShipV2'],
    ['amazon', 'AmazonShipping'],
    ['canada_post', 'CanadaPost'],
    ['purolator', 'Purolator'],
  ])('sends courier %s as EasyPost carrier %s', async (courier, carrier) => {
    await provider().register(shipment({ courier }));
    expect(fake.requests[0]!.body).toEqual({ tracker: { tracking_code: '9400100000000000000001', carrier } });
  });

  it.each(['unknown', 'dpd'])('leaves the carrier for EasyPost to detect when the courier is %s', async (courier) => {
    await provider().register(shipment({ courier }));
    expect(fake.requests[0]!.body).toEqual({ tracker: { tracking_code: '9400100000000000000001' } });
  });

  it('returns the existing tracker id when EasyPost already follows the number', async () => {
    const existing = seed();
    await expect(provider().register(shipment())).resolves.toEqual({ providerRef: existing.id });
  });
});

describe('fetch', () => {
  it('retrieves the tracker by its reference', async () => {
    const tracker = seed({ status: 'in_transit' });
    const report = await provider().fetch(shipment({ providerRef: tracker.id }), now);

    expect(report.deliveryStatus).toBe('Active');
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v2/trackers/${tracker.id}`]);
  });

  it('creates the tracker when the shipment has no reference yet', async () => {
    seed({ status: 'delivered' });
    const report = await provider().fetch(shipment(), now);

    expect(report.deliveryStatus).toBe('Delivered');
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v2/trackers']);
  });

  it.each([
    ['pre_transit', 'Active'],
    ['in_transit', 'Active'],
    ['out_for_delivery', 'Active'],
    ['available_for_pickup', 'Active'],
    ['unknown', 'Active'],
    ['delivered', 'Delivered'],
    ['return_to_sender', 'Exception'],
    ['failure', 'Exception'],
    ['error', 'Exception'],
    ['cancelled', 'Exception'],
    ['a_status_added_later', 'Active'],
  ])('maps tracker status %s to %s, on the tracker and on its scans', async (status, deliveryStatus) => {
    const tracker = seed({
      status,
      tracking_details: [easyPostTrackingDetail({ status, status_detail: null, datetime: '2026-03-03T10:00:00Z', message: 'Scan' })],
    });
    const report = await provider().fetch(shipment({ providerRef: tracker.id }), now);

    expect(report.deliveryStatus).toBe(deliveryStatus);
    expect(report.checkpoints).toMatchObject([{ status: deliveryStatus, subtag: status }]);
  });

  it('maps scans to checkpoints, oldest first', async () => {
    const tracker = seed({
      status: 'delivered',
      carrier: 'USPS',
      tracking_details: [
        easyPostTrackingDetail({
          status: 'delivered',
          status_detail: 'arrived_at_destination',
          message: 'Delivered, In/At Mailbox',
          datetime: '2026-03-04T17:00:00Z',
          location: { city: 'SAN FRANCISCO', state: 'CA', zip: '94107', country: 'US' },
        }),
        easyPostTrackingDetail({
          status: 'pre_transit',
          status_detail: 'status_update',
          message: 'Pre-Shipment Info Sent to USPS',
          datetime: '2026-03-02T15:00:00Z',
        }),
        easyPostTrackingDetail({
          status: 'in_transit',
          status_detail: 'arrived_at_facility',
          message: 'Arrived at USPS Regional Facility',
          datetime: '2026-03-03T11:00:00-08:00', // a local time with its offset: 19:00 UTC
          location: { city: 'OAKLAND', state: 'CA', zip: '94621', country: null },
        }),
        {
          ...easyPostTrackingDetail({
            status: 'out_for_delivery',
            datetime: '2026-03-04T11:00:00Z',
            description: 'Out for Delivery, Expected Delivery by 8:00pm',
          }),
          tracking_location: null as never, // some carriers send no location at all
        },
      ],
    });
    const { checkpoints } = await provider().fetch(shipment({ providerRef: tracker.id }), now);

    expect(checkpoints).toEqual([
      {
        status: 'Active',
        subtag: 'pre_transit', // status_detail "status_update" says nothing more than the status
        message: 'Pre-Shipment Info Sent to USPS',
        location: { city: null, state: null, zip: null, country: null },
        occurredAt: new Date('2026-03-02T15:00:00Z'),
        source: 'easypost:USPS',
      },
      {
        status: 'Active',
        subtag: 'arrived_at_facility',
        message: 'Arrived at USPS Regional Facility',
        location: { city: 'OAKLAND', state: 'CA', zip: '94621', country: null },
        occurredAt: new Date('2026-03-03T19:00:00Z'),
        source: 'easypost:USPS',
      },
      {
        status: 'Active',
        subtag: 'out_for_delivery',
        message: 'Out for Delivery, Expected Delivery by 8:00pm', // no message: the description stands in
        location: { city: null, state: null, zip: null, country: null },
        occurredAt: new Date('2026-03-04T11:00:00Z'),
        source: 'easypost:USPS',
      },
      {
        status: 'Delivered',
        subtag: 'arrived_at_destination',
        message: 'Delivered, In/At Mailbox',
        location: { city: 'SAN FRANCISCO', state: 'CA', zip: '94107', country: 'US' },
        occurredAt: new Date('2026-03-04T17:00:00Z'),
        source: 'easypost:USPS',
      },
    ]);
  });

  it('gives the estimated delivery day and the public tracking page', async () => {
    const tracker = seed({
      est_delivery_date: '2026-03-05T00:00:00Z',
      public_url: 'https://track.easypost.com/djE6dHJrXzUyYWY4YjI1ZWMxYTRjYTY4N2E5NjkxZTBkYzIxOThi',
    });
    const report = await provider().fetch(shipment({ providerRef: tracker.id }), now);

    expect(report.expectedDeliveryDate).toBe('2026-03-05');
    expect(report.trackingUrl).toBe('https://track.easypost.com/djE6dHJrXzUyYWY4YjI1ZWMxYTRjYTY4N2E5NjkxZTBkYzIxOThi');
  });

  it('gives null for a missing estimate and page', async () => {
    const tracker = seed({ est_delivery_date: null, public_url: null, tracking_details: [] });
    expect(await provider().fetch(shipment({ providerRef: tracker.id }), now)).toEqual({
      deliveryStatus: 'Active',
      checkpoints: [],
      expectedDeliveryDate: null,
      trackingUrl: null,
    });
  });

  it('refuses a tracker that follows another number', async () => {
    const other = fake.putTracker(easyPostTracker({ tracking_code: 'EZ4000000004' }));
    await expect(provider().fetch(shipment({ providerRef: other.id }), now)).rejects.toThrow(
      new EasyPostPayloadError(`EasyPost tracker ${other.id} follows EZ4000000004, not 9400100000000000000001`),
    );
  });

  it('refuses a tracker it cannot read in full rather than report part of it', async () => {
    const tracker = seed({
      tracking_details: [
        easyPostTrackingDetail({ status: 'in_transit', datetime: '2026-03-03T10:00:00Z' }),
        easyPostTrackingDetail({ status: 'delivered', datetime: 'yesterday' }),
      ],
    });
    await expect(provider().fetch(shipment({ providerRef: tracker.id }), now)).rejects.toThrow(
      'EasyPost payload is malformed: tracker.tracking_details[1].datetime must be an ISO 8601 date-time',
    );
  });
});

describe('failures', () => {
  it('turns 429 into TrackingUnavailableError with Retry-After in seconds', async () => {
    fake.failNext({ status: 429, headers: { 'Retry-After': '30' } });
    const error = await provider().register(shipment()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TrackingUnavailableError);
    expect(error).toMatchObject({ retryAfterSeconds: 30 });
    expect((error as Error).message).toBe(
      'EasyPost unavailable while creating a tracker for 9400100000000000000001 (HTTP 429 RATE_LIMITED: Too many requests, slow down.)',
    );
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    fake.failNext({ status: 429, headers: { 'Retry-After': new Date(Date.now() + 120_000).toUTCString() } });
    const error = await provider().register(shipment()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TrackingUnavailableError);
    const seconds = (error as TrackingUnavailableError).retryAfterSeconds!;
    expect(seconds).toBeGreaterThanOrEqual(115);
    expect(seconds).toBeLessThanOrEqual(121);
  });

  it.each([500, 502, 503, 504])('turns %i into TrackingUnavailableError', async (status) => {
    fake.failNext({ status });
    const error = await provider().fetch(shipment(), now).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TrackingUnavailableError);
    expect(error).toMatchObject({ retryAfterSeconds: null });
    expect((error as Error).message).toContain(`(HTTP ${status}`);
  });

  it('turns a 503 with a non-JSON body (a proxy page) into TrackingUnavailableError', async () => {
    fake.failNext({ status: 503, body: '<html><body>upstream unavailable</body></html>', contentType: 'text/html', headers: { 'Retry-After': '5' } });
    const error = await provider().fetch(shipment(), now).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TrackingUnavailableError);
    expect(error).toMatchObject({
      message: 'EasyPost unavailable while creating a tracker for 9400100000000000000001 (HTTP 503)',
      retryAfterSeconds: 5,
    });
  });

  it('gives up on a server that does not answer, as TrackingUnavailableError', async () => {
    fake.failNext({ hang: true });
    const started = Date.now();
    const error = await provider(250).fetch(shipment(), now).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TrackingUnavailableError);
    expect((error as Error).message).toBe(
      'EasyPost unreachable while creating a tracker for 9400100000000000000001: no answer within 250 ms',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('turns a refused connection into TrackingUnavailableError', async () => {
    const closed = await startEasyPostFake();
    await closed.close();
    const error = await createEasyPostProvider({ apiKey: 'k', baseUrl: closed.baseUrl })
      .register(shipment())
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(TrackingUnavailableError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('raises a plain error for a bad API key, which retrying will not fix', async () => {
    const error = await createEasyPostProvider({ apiKey: 'EZTK_wrong', baseUrl: fake.baseUrl })
      .register(shipment())
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(EasyPostRequestError);
    expect(error).not.toBeInstanceOf(TrackingUnavailableError);
    expect(error).toMatchObject({
      statusCode: 401,
      code: 'APIKEY.INVALID',
      message:
        'EasyPost refused creating a tracker for 9400100000000000000001 (HTTP 401 APIKEY.INVALID: The API key is missing or not valid.)',
    });
  });

  it('raises a plain error for an unknown tracker', async () => {
    const error = await provider()
      .fetch(shipment({ providerRef: 'trk_0000' }), now)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(EasyPostRequestError);
    expect(error).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((error as Error).message).toMatch(/^EasyPost refused retrieving tracker trk_0000 \(HTTP 404 NOT_FOUND/);
  });

  it('raises a plain error for a 422', async () => {
    fake.failNext({ status: 422, body: JSON.stringify({ error: { code: 'TRACKER.TRACKING_CODE.INVALID', message: 'Invalid tracking code.', errors: [] } }) });
    const error = await provider().register(shipment()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(EasyPostRequestError);
    expect(error).toMatchObject({ statusCode: 422, code: 'TRACKER.TRACKING_CODE.INVALID' });
  });

  it('does not follow a redirect, so the API key never goes elsewhere', async () => {
    const elsewhere = await startEasyPostFake();
    try {
      fake.failNext({ status: 307, headers: { Location: `${elsewhere.baseUrl}trackers` } });
      const error = await provider().register(shipment()).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(EasyPostRequestError);
      expect(error).toMatchObject({ statusCode: 307 });
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('reads Retry-After as seconds or an HTTP date, capped at an hour', () => {
    const at = new Date('2026-03-02T15:00:00Z');
    expect(retryAfterSeconds('120', at)).toBe(120);
    expect(retryAfterSeconds('Mon, 02 Mar 2026 15:01:30 GMT', at)).toBe(90);
    expect(retryAfterSeconds('Mon, 02 Mar 2026 14:00:00 GMT', at)).toBe(0);
    expect(retryAfterSeconds('999999', at)).toBe(3600);
    expect(retryAfterSeconds('soon', at)).toBeNull();
    expect(retryAfterSeconds(undefined, at)).toBeNull();
  });
});

describe('configuration', () => {
  it('uses EasyPost when EASYPOST_API_KEY is set, at EASYPOST_BASE_URL', async () => {
    const tracking = createTrackingProvider({ EASYPOST_API_KEY: fake.apiKey, EASYPOST_BASE_URL: fake.baseUrl.replace(/\/$/, '') });

    expect(tracking.name).toBe('easypost');
    await tracking.register(shipment());
    expect(fake.requests.map((request) => request.path)).toEqual(['/v2/trackers']);
  });

  it('rejects an empty key, a base URL that is not http(s) and a bad timeout at start-up', () => {
    expect(() => createEasyPostProvider({ apiKey: ' ' })).toThrow('EasyPost: the API key is empty');
    expect(() => createEasyPostProvider({ apiKey: 'k', baseUrl: 'api.easypost.com' })).toThrow('is not a URL');
    expect(() => createEasyPostProvider({ apiKey: 'k', baseUrl: 'ftp://api.easypost.com/v2/' })).toThrow('must be http(s)');
    expect(() => createEasyPostProvider({ apiKey: 'k', timeoutMs: 0 })).toThrow('timeoutMs must be a positive integer');
  });
});

// ---- Webhooks --------------------------------------------------------------------------------
