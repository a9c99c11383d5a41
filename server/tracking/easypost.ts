// The EasyPost tracking provider (docs/tracking.md), through the official SDK @easypost/api v8:
// register() creates a Tracker, fetch() retrieves it and maps it to a TrackingReport. The same
// mapping reads the Tracker inside a webhook Event (parseEasyPostTrackerEvent), once
// verifyEasyPostWebhook has checked its signature.
//
// Two gaps in SDK 8.9.0 are closed here, both through its `requestMiddleware` hook, which receives
// each superagent request before it is sent:
// - The SDK stores its `timeout` option but never applies it, so a silent server would hang the call
//   forever; the middleware sets superagent's own response and deadline timeouts.
// - The SDK's errors carry the HTTP status but not the response headers (Retry-After), and a 5xx
//   whose body is not EasyPost's JSON error surfaces as a TypeError from inside the SDK; the
//   middleware records the status and headers of the response, and errors are classified on those.
// The middleware also turns off redirects, which superagent follows by default.
import { createHmac, timingSafeEqual } from 'node:crypto';
import EasyPostModule from '@easypost/api';
import { isStorableInstant } from '../../contract/common.js';
import {
  TrackingUnavailableError,
  type CarrierDeliveryStatus,
  type CheckpointLocation,
  type ShipmentToTrack,
  type TrackingCheckpoint,
  type TrackingProvider,
  type TrackingReport,
} from '../domain/shipments/tracking.js';

// Both builds of the package (CommonJS and ESM) export the client class itself. Its declarations,
// read as CommonJS under NodeNext, place the class one level down, at `.default`; take the type from
// there and the value from the module.
type EasyPostClientClass = typeof EasyPostModule.default;
type EasyPostClient = InstanceType<EasyPostClientClass>;
const EasyPostClient = EasyPostModule as unknown as EasyPostClientClass;

export const EASYPOST_DEFAULT_BASE_URL = 'https://api.easypost.com/v2/';
export const EASYPOST_DEFAULT_TIMEOUT_MS = 15_000;
/** A Retry-After longer than this is shortened to it: the job queue asks again, it does not park for days. */
const MAX_RETRY_AFTER_SECONDS = 3600;

/** Our carrier slugs (carriers.ts) to EasyPost carrier codes. A slug not listed is left for EasyPost to detect. */
export const EASYPOST_CARRIER_CODES: Readonly<Record<string, string>> = {
  ups: 'UPS',
  usps: 'USPS',
  fedex: 'FedEx',
  dhl: 'DHLExpress',
  ontrac: 'OnTrac',
  lasership: 'LaserShipV2',
  amazon: 'AmazonShipping',
  canada_post: 'CanadaPost',
  purolator: 'Purolator',
};

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

/** EasyPost refused a request for a reason that retrying will not fix (401, 404, 422, ...). */
export class EasyPostRequestError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    /** EasyPost's error code, e.g. "TRACKER.TRACKING_CODE.INVALID", when it sent one. */
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'EasyPostRequestError';
  }
}

export interface EasyPostProviderOptions {
  apiKey: string;
  /** API root including the version, e.g. https://api.easypost.com/v2/ (the default). */
  baseUrl?: string;
  /** Whole-request limit in milliseconds; default 15 000. */
  timeoutMs?: number;
}

export function createEasyPostProvider(options: EasyPostProviderOptions): TrackingProvider {
  const apiKey = options.apiKey.trim();
  if (apiKey === '') throw new Error('EasyPost: the API key is empty');
  const baseUrl = normaliseBaseUrl(options.baseUrl ?? EASYPOST_DEFAULT_BASE_URL);
  const timeoutMs = options.timeoutMs ?? EASYPOST_DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`EasyPost: timeoutMs must be a positive integer, got ${timeoutMs}`);

  /** One SDK call with its own client, so the response it records belongs to this call alone. */
  async function call<T>(operation: string, run: (client: EasyPostClient) => Promise<T>): Promise<T> {
    const exchange: Exchange = { status: null, headers: {} };
    const client = new EasyPostClient(apiKey, {
      baseUrl,
      timeout: timeoutMs, // stored but not applied by SDK 8.9.0; the middleware applies it
      requestMiddleware: (request: SuperagentRequest) => {
        request.timeout({ response: timeoutMs, deadline: timeoutMs });
        // The API does not redirect; following one could replay the API key to another host.
        request.redirects(0);
        request.on('response', (response) => {
          exchange.status = response.status;
          exchange.headers = response.headers;
        });
        return request;
      },
    });
    try {
      return await run(client);
    } catch (error) {
      throw classifyFailure(error, exchange, operation, timeoutMs);
    }
  }

  async function createTracker(shipment: ShipmentToTrack): Promise<unknown> {
    const carrier = shipment.courier === 'unknown' ? undefined : EASYPOST_CARRIER_CODES[shipment.courier];
    const params = carrier ? { tracking_code: shipment.trackingNumber, carrier } : { tracking_code: shipment.trackingNumber };
    return call(`creating a tracker for ${shipment.trackingNumber}`, (client) => client.Tracker.create(params));
  }

  return {
    name: 'easypost',
    async register(shipment) {
      const tracker = await createTracker(shipment);
      if (!isRecord(tracker) || typeof tracker.id !== 'string' || tracker.id === '') {
        throw new EasyPostPayloadError(`EasyPost created a tracker for ${shipment.trackingNumber} but sent no tracker id`);
      }
      return { providerRef: tracker.id };
    },
    async fetch(shipment) {
      const ref = shipment.providerRef;
      const tracker =
        ref === null
          ? await createTracker(shipment)
          : await call(`retrieving tracker ${ref}`, (client) => client.Tracker.retrieve(encodeURIComponent(ref)));
      const parsed = parseTracker(tracker, 'tracker');
      if (normaliseTrackingNumber(parsed.trackingNumber) !== normaliseTrackingNumber(shipment.trackingNumber)) {
        throw new EasyPostPayloadError(
          `EasyPost tracker ${parsed.providerRef} follows ${parsed.trackingNumber}, not ${shipment.trackingNumber}`,
        );
      }
      return parsed.report;
    },
  };
}

// ---- Webhooks --------------------------------------------------------------------------------

const SIGNATURE_HEADER = 'x-hmac-signature';
const SIGNATURE_PREFIX = 'hmac-sha256-hex=';

/**
 * Whether `rawBody` carries EasyPost's signature for `secret`: header
 * `X-Hmac-Signature: hmac-sha256-hex=<hex HMAC-SHA256 of the raw body, keyed with the NFKD-normalised
 * secret in UTF-8>`. Pass the bytes as received, before any JSON parsing. A missing, malformed or
 * wrong header, or an empty secret, is false. The digests are compared in constant time.
 */
/** The header's hex HMAC when it has the shape of one (read before the body), else null. */
export function easyPostSignatureHex(headers: Record<string, string | undefined>): string | null {
  const header = headerValue(headers, SIGNATURE_HEADER)?.trim();
  if (!header || header.slice(0, SIGNATURE_PREFIX.length).toLowerCase() !== SIGNATURE_PREFIX) return null;
  const hex = header.slice(SIGNATURE_PREFIX.length);
  return /^[0-9a-fA-F]{64}$/.test(hex) ? hex : null;
}

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

// ---- Tracker mapping -------------------------------------------------------------------------

function parseTracker(value: unknown, path: string): { providerRef: string; trackingNumber: string; report: TrackingReport } {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- HTTP plumbing ---------------------------------------------------------------------------

/** What the middleware saw of the response, if one arrived. */
interface Exchange {
  status: number | null;
  headers: Record<string, unknown>;
}

/** The part of a superagent request the middleware uses. */
interface SuperagentRequest {
  timeout(options: { response: number; deadline: number }): unknown;
  redirects(count: number): unknown;
  on(event: 'response', listener: (response: { status: number; headers: Record<string, unknown> }) => void): unknown;
}

/** Network failures, timeouts, 408, 429 and 5xx are worth retrying; any other refusal is not. */
function classifyFailure(error: unknown, exchange: Exchange, operation: string, timeoutMs: number): Error {
  const status = exchange.status ?? numberProperty(error, 'statusCode');
  if (status === null) {
    const timedOut = isRecord(error) && error.timeout !== undefined;
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : describe(error);
    return new TrackingUnavailableError(`EasyPost unreachable while ${operation}: ${reason}`);
  }
  // The SDK's ApiError carries EasyPost's message and code; anything else (for instance the SDK
  // failing to read a non-JSON error body) is described by the status alone.
  const code = stringProperty(error, 'code');
  const apiMessage = numberProperty(error, 'statusCode') === status ? stringProperty(error, 'message') : null;
  const detail = `HTTP ${status}${code ? ` ${code}` : ''}${apiMessage ? `: ${apiMessage}` : ''}`;
  if (status === 408 || status === 429 || status >= 500) {
    return new TrackingUnavailableError(
      `EasyPost unavailable while ${operation} (${detail})`,
      retryAfterSeconds(exchange.headers['retry-after']),
    );
  }
  if (status >= 200 && status < 300) {
    return new EasyPostPayloadError(`EasyPost answered ${operation} with HTTP ${status} but the body could not be read: ${describe(error)}`);
  }
  return new EasyPostRequestError(`EasyPost refused ${operation} (${detail})`, status, code);
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: unknown, now: Date = new Date()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const trimmed = value.trim();
  let seconds: number;
  if (/^\d+$/.test(trimmed)) {
    seconds = Number(trimmed);
  } else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    seconds = Math.max(0, Math.ceil((at - now.getTime()) / 1000));
  }
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}

function normaliseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`EasyPost: base URL "${value}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`EasyPost: base URL "${value}" must be http(s)`);
  // The SDK appends "trackers" straight onto the base URL.
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

function normaliseTrackingNumber(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

function numberProperty(value: unknown, key: string): number | null {
  const property = isRecord(value) ? value[key] : undefined;
  return typeof property === 'number' ? property : null;
}

function stringProperty(value: unknown, key: string): string | null {
  const property = isRecord(value) ? value[key] : undefined;
  return typeof property === 'string' && property !== '' ? property : null;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = stringProperty(error, 'code');
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
