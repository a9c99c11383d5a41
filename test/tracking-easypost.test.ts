// The EasyPost tracking provider through the real SDK against a local fake of the EasyPost API
// (test/support/easypost-fake.ts), plus webhook verification and Event parsing. Nothing here leaves
// 127.0.0.1.
import { createHmac } from 'node:crypto';
import EasyPostModule from '@easypost/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrackingUnavailableError, type ShipmentToTrack } from '../server/domain/tracking.js';
import {
  createEasyPostProvider,
  EasyPostPayloadError,
  EasyPostRequestError,
  parseEasyPostTrackerEvent,
  retryAfterSeconds,
  verifyEasyPostWebhook,
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

const SECRET = 'sécret-key'; // "é" as one code point; EasyPost keys the HMAC with the NFKD form

/** EasyPost's signature: hex HMAC-SHA256 of the raw body, keyed with the NFKD-normalised secret. */
const signature = (body: string | Buffer, secret = SECRET) =>
  `hmac-sha256-hex=${createHmac('sha256', Buffer.from(secret.normalize('NFKD'), 'utf8')).update(body).digest('hex')}`;

const trackerResult = easyPostTracker({
  id: 'trk_52af8b25ec1a4ca687a9691e0dc2198b',
  tracking_code: 'EZ1000000001',
  status: 'out_for_delivery',
  status_detail: 'out_for_delivery',
  carrier: 'USPS',
  weight: 136.5,
  est_delivery_date: '2026-03-05T00:00:00Z',
  public_url: 'https://track.easypost.com/djE6dHJrXzUyYWY4YjI1ZWMxYTRjYTY4N2E5NjkxZTBkYzIxOThi',
  tracking_details: [
    easyPostTrackingDetail({
      status: 'out_for_delivery',
      status_detail: 'out_for_delivery',
      message: 'Out for Delivery',
      datetime: '2026-03-04T11:00:00Z',
      location: { city: 'CHARLESTON', state: 'SC', zip: '29401', country: 'US' },
    }),
    easyPostTrackingDetail({
      status: 'pre_transit',
      status_detail: 'status_update',
      message: 'Pre-Shipment Info Sent to USPS',
      datetime: '2026-03-02T15:00:00Z',
    }),
  ],
});

/** An Event as EasyPost posts it (docs.easypost.com/docs/events). */
const trackerEvent = (fields: Record<string, unknown> = {}) => ({
  id: 'evt_55a53eb2556b11ed8945059f515d2b6d',
  object: 'Event',
  mode: 'test',
  description: 'tracker.updated',
  previous_attributes: { status: 'in_transit' },
  result: trackerResult,
  status: 'pending',
  pending_urls: ['https://shop.example/v1/tracking/easypost/webhook'],
  completed_urls: [],
  user_id: 'user_060ab38db3c04ffaa60f262e5781a9be',
  created_at: '2026-03-04T11:00:05Z',
  updated_at: '2026-03-04T11:00:05Z',
  ...fields,
});

describe('verifyEasyPostWebhook', () => {
  const body = Buffer.from(JSON.stringify(trackerEvent()));

  it('accepts the signature that EasyPost sends', () => {
    expect(verifyEasyPostWebhook(body, { 'x-hmac-signature': signature(body) }, SECRET)).toBe(true);
  });

  it('agrees with the official SDK on what a valid signature is', () => {
    const headers = { 'X-Hmac-Signature': signature(body) };
    const sdk = new (EasyPostModule as unknown as typeof EasyPostModule.default)('unused');
    // The SDK's check throws on a mismatch and returns the parsed event on a match.
    expect(sdk.Utils.validateWebhook(body, headers, SECRET)).toMatchObject({ id: 'evt_55a53eb2556b11ed8945059f515d2b6d' });
    expect(verifyEasyPostWebhook(body, headers, SECRET)).toBe(true);
  });

  it('keys the HMAC with the NFKD form of the secret', () => {
    const decomposed = 'se\u0301cret-key';
    expect(verifyEasyPostWebhook(body, { 'x-hmac-signature': signature(body, decomposed) }, SECRET)).toBe(true);
    expect(verifyEasyPostWebhook(body, { 'x-hmac-signature': signature(body) }, decomposed)).toBe(true);
  });

  it('verifies the bytes as received, before any re-serialisation', () => {
    // EasyPost writes "weight": 136.0; JSON.parse then JSON.stringify would write 136 and break the HMAC.
    const raw = Buffer.from('{"object":"Event","description":"tracker.updated","result":{"object":"Tracker","weight": 136.0}}');
    const headers = { 'x-hmac-signature': signature(raw) };
    expect(verifyEasyPostWebhook(raw, headers, SECRET)).toBe(true);
    expect(verifyEasyPostWebhook(Buffer.from(JSON.stringify(JSON.parse(raw.toString()))), headers, SECRET)).toBe(false);
  });

  it('finds the header whatever its case', () => {
    expect(verifyEasyPostWebhook(body, { 'X-HMAC-Signature': signature(body) }, SECRET)).toBe(true);
  });

  it.each([
    ['a missing header', {}],
    ['an empty header', { 'x-hmac-signature': '' }],
    ['another secret', { 'x-hmac-signature': signature(Buffer.from(JSON.stringify(trackerEvent())), 'other') }],
    ['a tampered body', { 'x-hmac-signature': signature(JSON.stringify(trackerEvent({ description: 'tracker.created' }))) }],
    ['no scheme prefix', { 'x-hmac-signature': signature(Buffer.from(JSON.stringify(trackerEvent()))).slice('hmac-sha256-hex='.length) }],
    ['another scheme', { 'x-hmac-signature': signature(Buffer.from(JSON.stringify(trackerEvent()))).replace('hmac-sha256-hex=', 'sha256=') }],
    ['a truncated digest', { 'x-hmac-signature': signature(Buffer.from(JSON.stringify(trackerEvent()))).slice(0, -2) }],
    ['a digest that is not hex', { 'x-hmac-signature': `hmac-sha256-hex=${'z'.repeat(64)}` }],
  ])('rejects %s', (_case, headers: Record<string, string | undefined>) => {
    expect(verifyEasyPostWebhook(body, headers, SECRET)).toBe(false);
  });

  it('rejects everything when no secret is configured', () => {
    expect(verifyEasyPostWebhook(body, { 'x-hmac-signature': signature(body, '') }, '')).toBe(false);
  });
});

describe('parseEasyPostTrackerEvent', () => {
  it('reads the tracker of a tracker.updated Event', () => {
    expect(parseEasyPostTrackerEvent(trackerEvent())).toEqual({
      providerRef: 'trk_52af8b25ec1a4ca687a9691e0dc2198b',
      trackingNumber: 'EZ1000000001',
      report: {
        deliveryStatus: 'Active',
        expectedDeliveryDate: '2026-03-05',
        trackingUrl: 'https://track.easypost.com/djE6dHJrXzUyYWY4YjI1ZWMxYTRjYTY4N2E5NjkxZTBkYzIxOThi',
        checkpoints: [
          {
            status: 'Active',
            subtag: 'pre_transit',
            message: 'Pre-Shipment Info Sent to USPS',
            location: { city: null, state: null, zip: null, country: null },
            occurredAt: new Date('2026-03-02T15:00:00Z'),
            source: 'easypost:USPS',
          },
          {
            status: 'Active',
            subtag: 'out_for_delivery',
            message: 'Out for Delivery',
            location: { city: 'CHARLESTON', state: 'SC', zip: '29401', country: 'US' },
            occurredAt: new Date('2026-03-04T11:00:00Z'),
            source: 'easypost:USPS',
          },
        ],
      },
    });
  });

  it('reads a tracker.created Event and a body parsed from the raw JSON', () => {
    const parsed = parseEasyPostTrackerEvent(JSON.parse(JSON.stringify(trackerEvent({ description: 'tracker.created' }))));
    expect(parsed?.providerRef).toBe('trk_52af8b25ec1a4ca687a9691e0dc2198b');
  });

  it.each([
    ['null', null],
    ['a string', 'tracker.updated'],
    ['an array', [trackerEvent()]],
    ['an object that is not an Event', { ...trackerEvent(), object: 'Tracker' }],
    ['another kind of event', trackerEvent({ description: 'batch.updated', result: { object: 'Batch', id: 'batch_1' } })],
    ['an event without a result', (({ result: _result, ...rest }) => rest)(trackerEvent())],
    ['a null result', trackerEvent({ result: null })],
    ['a result that is not a Tracker', trackerEvent({ result: { ...trackerResult, object: 'Shipment' } })],
  ])('ignores %s (null)', (_case, body) => {
    expect(parseEasyPostTrackerEvent(body)).toBeNull();
  });

  it.each([
    ['result.id', { id: undefined }, 'result.id must be a non-empty string'],
    ['result.tracking_code', { tracking_code: 42 }, 'result.tracking_code must be a non-empty string'],
    ['result.status', { status: 5 }, 'result.status must be a non-empty string'],
    ['result.tracking_details', { tracking_details: 'none' }, 'result.tracking_details must be an array'],
    ['a scan', { tracking_details: [42] }, 'result.tracking_details[0] must be an object'],
    ['a scan date', { tracking_details: [{ ...trackerResult.tracking_details[0], datetime: 'yesterday' }] }, 'result.tracking_details[0].datetime must be an ISO 8601 date-time'],
    ['a scan location', { tracking_details: [{ ...trackerResult.tracking_details[0], tracking_location: 'Oakland' }] }, 'result.tracking_details[0].tracking_location must be an object'],
    ['a scan city', { tracking_details: [{ ...trackerResult.tracking_details[0], tracking_location: { city: 7 } }] }, 'result.tracking_details[0].tracking_location.city must be a string or null'],
    ['result.est_delivery_date', { est_delivery_date: 'soon' }, 'result.est_delivery_date must be a date'],
    ['an impossible est_delivery_date', { est_delivery_date: '2026-02-30T00:00:00Z' }, 'result.est_delivery_date must be a date'],
    // Years PostgreSQL cannot store: year 0 does not exist there, and 10000 has no ISO 8601 text.
    ['a scan date in year 0', { tracking_details: [{ ...trackerResult.tracking_details[0], datetime: '0000-06-01T00:00:00Z' }] }, 'result.tracking_details[0].datetime must be an ISO 8601 date-time between the years 0001 and 9999'],
    ['a scan date past 9999 in UTC', { tracking_details: [{ ...trackerResult.tracking_details[0], datetime: '9999-12-31T23:00:00-05:00' }] }, 'result.tracking_details[0].datetime must be an ISO 8601 date-time between the years 0001 and 9999'],
    ['an est_delivery_date in year 0', { est_delivery_date: '0000-03-05T00:00:00Z' }, 'result.est_delivery_date must be a date'],
    ['result.public_url', { public_url: 42 }, 'result.public_url must be a string or null'],
  ])('throws a clear error for a malformed %s, never a partial report', (_case, override, message) => {
    const body = trackerEvent({ result: { ...trackerResult, ...override } });
    expect(() => parseEasyPostTrackerEvent(body)).toThrow(EasyPostPayloadError);
    expect(() => parseEasyPostTrackerEvent(body)).toThrow(`EasyPost payload is malformed: ${message}`);
  });
});
