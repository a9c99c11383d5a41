// EasyPost's webhook events, without a network: the signature check on the raw body and the
// parsing of a tracker event into a report (server/tracking/easypost.ts). The provider's calls to
// EasyPost are tested against a local fake in test/tracking-easypost.test.ts.
import { createHmac } from 'node:crypto';
import EasyPostModule from '@easypost/api';
import { describe, expect, it } from 'vitest';
import { EasyPostPayloadError, parseEasyPostTrackerEvent, verifyEasyPostWebhook } from '../server/tracking/easypost.js';
import { easyPostTracker, easyPostTrackingDetail } from './support/easypost-fake.js';

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
