// The EasyPost tracking provider (docs/tracking.md), through the official SDK @easypost/api v8:
// register() creates a Tracker, fetch() retrieves it and maps it to a TrackingReport. The same
// mapping reads the Tracker inside a webhook Event (parseEasyPostTrackerEvent), once
// verifyEasyPostWebhook has checked its signature; those three live in ./easypost-events.ts and are
// re-exported here. This file is the API client.
//
// Two gaps in SDK 8.9.0 are closed here, both through its `requestMiddleware` hook, which receives
// each superagent request before it is sent:
// - The SDK stores its `timeout` option but never applies it, so a silent server would hang the call
//   forever; the middleware sets superagent's own response and deadline timeouts.
// - The SDK's errors carry the HTTP status but not the response headers (Retry-After), and a 5xx
//   whose body is not EasyPost's JSON error surfaces as a TypeError from inside the SDK; the
//   middleware records the status and headers of the response, and errors are classified on those.
// The middleware also turns off redirects, which superagent follows by default.
import EasyPostModule from '@easypost/api';
import {
  TrackingUnavailableError,
  type ShipmentToTrack,
  type TrackingProvider,
} from '../domain/shipments/index.js';
import { EasyPostPayloadError, isRecord, parseTracker } from './easypost-events.js';

export {
  EasyPostPayloadError,
  easyPostSignatureHex,
  mapEasyPostStatus,
  parseEasyPostTrackerEvent,
  verifyEasyPostWebhook,
} from './easypost-events.js';

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
