// The EasyPost side of tracking that needs no API call (docs/tracking.md): the webhook signature
// check, the reading of a tracker webhook Event, and the mapping of an EasyPost Tracker (from a
// webhook or from the API client in ./easypost.ts) to a TrackingReport. Apart from the client so the
// webhook route and the payload rules stand without the SDK.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isStorableInstant } from '../../contract/common.js';
import type { CarrierDeliveryStatus, CheckpointLocation, TrackingCheckpoint, TrackingReport } from '../domain/shipments/index.js';

/** EasyPost Tracker and TrackingDetail statuses to our delivery statuses (docs/tracking.md). */
const STATUS_MAP: Readonly<Record<string, CarrierDeliveryStatus>> = {
  pre_transit: 'Active',
  in_transit: 'Active',
  out_for_delivery: 'Active',
  available_for_pickup: 'Active',
  unknown: 'Active',
  delivered: 'Delivered',
  return_to_sender: 'Exception',
  failure: 'Exception',
  error: 'Exception',
  cancelled: 'Exception',
};

/**
 * Our delivery status for an EasyPost status. A status EasyPost adds after this was written is
 * Active: it concludes nothing, and the raw value is kept as the checkpoint subtag.
 */
export function mapEasyPostStatus(status: string): CarrierDeliveryStatus {
  return Object.hasOwn(STATUS_MAP, status) ? STATUS_MAP[status]! : 'Active';
}

/** EasyPost answered, but with something that is not a Tracker or Event we can read in full. */
export class EasyPostPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EasyPostPayloadError';
  }
}

// ---- Webhooks --------------------------------------------------------------------------------

const SIGNATURE_HEADER = 'x-hmac-signature';
const SIGNATURE_PREFIX = 'hmac-sha256-hex=';

/** The header's hex HMAC when it has the shape of one (read before the body), else null. */
export function easyPostSignatureHex(headers: Record<string, string | undefined>): string | null {
  const header = headerValue(headers, SIGNATURE_HEADER)?.trim();
  if (!header || header.slice(0, SIGNATURE_PREFIX.length).toLowerCase() !== SIGNATURE_PREFIX) return null;
  const hex = header.slice(SIGNATURE_PREFIX.length);
  return /^[0-9a-fA-F]{64}$/.test(hex) ? hex : null;
}

/**
 * Whether `rawBody` carries EasyPost's signature for `secret`: header
 * `X-Hmac-Signature: hmac-sha256-hex=<hex HMAC-SHA256 of the raw body, keyed with the NFKD-normalised
 * secret in UTF-8>`. Pass the bytes as received, before any JSON parsing. A missing, malformed or
 * wrong header, or an empty secret, is false. The digests are compared in constant time.
 */
export function verifyEasyPostWebhook(rawBody: Buffer, headers: Record<string, string | undefined>, secret: string): boolean {
  if (secret === '') return false;
  const hex = easyPostSignatureHex(headers);
  if (hex === null) return false;
  const expected = createHmac('sha256', Buffer.from(secret.normalize('NFKD'), 'utf8')).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}

/**
 * The tracker inside a webhook Event. Null when the body is not an Event, is not tracker.created or
 * tracker.updated, or carries no Tracker as its result: such events are acknowledged and ignored.
 * Throws EasyPostPayloadError when it is a tracker event whose Tracker cannot be read in full.
 */
export function parseEasyPostTrackerEvent(
  body: unknown,
): { providerRef: string; trackingNumber: string; report: TrackingReport } | null {
  if (!isRecord(body) || body.object !== 'Event') return null;
  if (body.description !== 'tracker.created' && body.description !== 'tracker.updated') return null;
  if (!isRecord(body.result) || body.result.object !== 'Tracker') return null;
  return parseTracker(body.result, 'result');
}

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

// ---- Tracker mapping -------------------------------------------------------------------------

/** A Tracker, from the API client ("tracker") or a webhook Event ("result"); throws EasyPostPayloadError when it cannot be read in full. */
export function parseTracker(value: unknown, path: string): { providerRef: string; trackingNumber: string; report: TrackingReport } {
  const tracker = record(value, path);
  const providerRef = text(tracker, 'id', path);
  const trackingNumber = text(tracker, 'tracking_code', path);
  const status = text(tracker, 'status', path);
  const carrier = optionalText(tracker, 'carrier', path);
  const source = `easypost:${carrier ?? 'unknown'}`;

  const details = tracker.tracking_details ?? [];
  if (!Array.isArray(details)) throw malformed(`${path}.tracking_details`, 'an array');
  const checkpoints = details
    .map((detail, index) => parseTrackingDetail(detail, `${path}.tracking_details[${index}]`, source))
    .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());

  return {
    providerRef,
    trackingNumber,
    report: {
      deliveryStatus: mapEasyPostStatus(status),
      checkpoints,
      expectedDeliveryDate: calendarDate(tracker, 'est_delivery_date', path),
      trackingUrl: optionalText(tracker, 'public_url', path),
    },
  };
}

function parseTrackingDetail(value: unknown, path: string, source: string): TrackingCheckpoint {
  const detail = record(value, path);
  const status = text(detail, 'status', path);
  const statusDetail = optionalText(detail, 'status_detail', path);
  const datetime = text(detail, 'datetime', path);
  const occurredAt = new Date(datetime);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(datetime) || !isStorableInstant(occurredAt)) {
    throw malformed(`${path}.datetime`, 'an ISO 8601 date-time between the years 0001 and 9999 in UTC');
  }
  const message = optionalText(detail, 'message', path) ?? optionalText(detail, 'description', path) ?? '';
  return {
    status: mapEasyPostStatus(status),
    // status_detail is the finer of the two, unless it says nothing beyond the status.
    subtag: statusDetail !== null && statusDetail !== 'unknown' && statusDetail !== 'status_update' ? statusDetail : status,
    message,
    location: parseLocation(detail.tracking_location, `${path}.tracking_location`),
    occurredAt,
    source,
  };
}

function parseLocation(value: unknown, path: string): CheckpointLocation {
  if (value === null || value === undefined) return { city: null, state: null, zip: null, country: null };
  const location = record(value, path);
  return {
    city: optionalText(location, 'city', path),
    state: optionalText(location, 'state', path),
    zip: optionalText(location, 'zip', path),
    country: optionalText(location, 'country', path),
  };
}

/** est_delivery_date arrives as a date-time ("2024-08-13T00:00:00Z") meaning a calendar day: keep the day as written. */
function calendarDate(object: Record<string, unknown>, key: string, path: string): string | null {
  const value = optionalText(object, key, path);
  if (value === null) return null;
  const day = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(value)?.[1];
  const midnight = new Date(`${day}T00:00:00Z`);
  if (day === undefined || !isStorableInstant(midnight) || midnight.toISOString().slice(0, 10) !== day) {
    throw malformed(`${path}.${key}`, 'a date (YYYY-MM-DD, optionally followed by a time)');
  }
  return day;
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw malformed(path, 'an object');
  return value;
}

function text(object: Record<string, unknown>, key: string, path: string): string {
  const value = object[key];
  if (typeof value !== 'string' || value === '') throw malformed(`${path}.${key}`, 'a non-empty string');
  return value;
}

/** A string, or null when absent, null or empty. */
function optionalText(object: Record<string, unknown>, key: string, path: string): string | null {
  const value = object[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw malformed(`${path}.${key}`, 'a string or null');
  return value;
}

function malformed(path: string, expected: string): EasyPostPayloadError {
  return new EasyPostPayloadError(`EasyPost payload is malformed: ${path} must be ${expected}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
