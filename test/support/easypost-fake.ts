// A local stand-in for the two EasyPost endpoints the tracking provider uses, POST /v2/trackers and
// GET /v2/trackers/:id, on 127.0.0.1 and a free port. Objects follow EasyPost's documented shapes
// (Tracker, TrackingDetail, TrackingLocation; errors as {"error": {code, message, errors}}). It records
// every request, can be told to answer the next request with a failure or not at all, and stores
// trackers the way EasyPost does: creating one for a tracking code it already follows returns the
// existing tracker.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './fake-body.js';

export interface EasyPostTrackingLocation {
  object: 'TrackingLocation';
  city: string | null;
  state: string | null;
  country: string | null;
  zip: string | null;
}

export interface EasyPostTrackingDetail {
  object: 'TrackingDetail';
  message: string | null;
  description: string | null;
  status: string;
  status_detail: string | null;
  datetime: string;
  source: string;
  carrier_code: string | null;
  tracking_location: EasyPostTrackingLocation;
}

export interface EasyPostTracker {
  id: string;
  object: 'Tracker';
  mode: 'test' | 'production';
  tracking_code: string;
  status: string;
  status_detail: string | null;
  created_at: string;
  updated_at: string;
  signed_by: string | null;
  weight: number | null;
  est_delivery_date: string | null;
  shipment_id: string | null;
  carrier: string | null;
  tracking_details: EasyPostTrackingDetail[];
  carrier_detail: null;
  finalized: boolean;
  is_return: boolean;
  public_url: string | null;
  fees: unknown[];
}

/** A Tracker with EasyPost's defaults for whatever `fields` leaves out. */
export function easyPostTracker(fields: Partial<EasyPostTracker> & { tracking_code: string }): EasyPostTracker {
  const now = easyPostTime(new Date());
  const id = fields.id ?? `trk_${randomBytes(16).toString('hex')}`;
  return {
    id,
    object: 'Tracker',
    mode: 'test',
    status: 'pre_transit',
    status_detail: 'status_update',
    created_at: now,
    updated_at: now,
    signed_by: null,
    weight: null,
    est_delivery_date: null,
    shipment_id: null,
    carrier: 'USPS',
    tracking_details: [],
    carrier_detail: null,
    finalized: false,
    is_return: false,
    public_url: `https://track.easypost.com/${Buffer.from(id).toString('base64url')}`,
    fees: [],
    ...fields,
  };
}

/** A TrackingDetail; `location` fills the TrackingLocation, whose fields default to null. */
export function easyPostTrackingDetail(
  fields: Partial<Omit<EasyPostTrackingDetail, 'tracking_location'>> & {
    status: string;
    datetime: string;
    location?: Partial<Omit<EasyPostTrackingLocation, 'object'>>;
  },
): EasyPostTrackingDetail {
  const { location, ...rest } = fields;
  return {
    object: 'TrackingDetail',
    message: null,
    description: null,
    status_detail: null,
    source: 'USPS',
    carrier_code: null,
    ...rest,
    tracking_location: { object: 'TrackingLocation', city: null, state: null, country: null, zip: null, ...location },
  };
}

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/v2/trackers/trk_123". */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
}

export type InjectedFailure =
  /** Answer with this status; the body defaults to an EasyPost JSON error. */
  | { status: number; headers?: Record<string, string>; body?: string; contentType?: string }
  /** Accept the request and never answer it. */
  | { hang: true };

export interface EasyPostFake {
  /** The API root to give the SDK, e.g. "http://127.0.0.1:43117/v2/". */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[];
  /** Stores a tracker (replacing one with the same id or tracking code) and returns it. */
  putTracker(tracker: EasyPostTracker): EasyPostTracker;
  /** Answers the next request with `failure` instead of normally; several calls queue in order. */
  failNext(failure: InjectedFailure): void;
  close(): Promise<void>;
}

export async function startEasyPostFake(options: { apiKey?: string } = {}): Promise<EasyPostFake> {
  const apiKey = options.apiKey ?? 'EZTK_fake_test_key';
  const expectedAuthorization = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  const requests: RecordedRequest[] = [];
  const failures: InjectedFailure[] = [];
  const trackers = new Map<string, EasyPostTracker>();

  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = request.url ?? '/';
      const method = request.method ?? 'GET';
      requests.push({ method, path, headers: request.headers, body });

      const failure = failures.shift();
      if (failure && 'hang' in failure) return; // the socket stays open until the client gives up or close()
      if (failure) {
        const content = failure.body ?? JSON.stringify(apiError(failure.status));
        response.writeHead(failure.status, {
          'content-type': failure.contentType ?? 'application/json; charset=utf-8',
          ...failure.headers,
        });
        response.end(content);
        return;
      }

      if (request.headers.authorization !== expectedAuthorization) {
        return sendError(response, 401, 'APIKEY.INVALID', 'The API key is missing or not valid.');
      }
      const route = new URL(path, 'http://fake').pathname;
      if (method === 'POST' && route === '/v2/trackers') return createTracker(body, response);
      const retrieve = /^\/v2\/trackers\/([^/]+)$/.exec(route);
      if (method === 'GET' && retrieve) {
        const tracker = trackers.get(decodeURIComponent(retrieve[1]!));
        if (!tracker) return sendError(response, 404, 'NOT_FOUND', 'The requested resource could not be found.');
        return sendJson(response, 200, tracker);
      }
      return sendError(response, 404, 'NOT_FOUND', 'The requested resource could not be found.');
    });
  });

  function createTracker(body: unknown, response: ServerResponse): void {
    const params = isRecord(body) && isRecord(body.tracker) ? body.tracker : null;
    const trackingCode = params?.tracking_code;
    if (typeof trackingCode !== 'string' || trackingCode === '') {
      return sendError(response, 422, 'TRACKER.TRACKING_CODE.INVALID', 'Tracking code is required.');
    }
    const existing = [...trackers.values()].find((tracker) => tracker.tracking_code === trackingCode);
    if (existing) return sendJson(response, 200, existing);
    const carrier = typeof params?.carrier === 'string' ? params.carrier : 'USPS'; // stands in for EasyPost's carrier detection
    const tracker = easyPostTracker({
      tracking_code: trackingCode,
      carrier,
      tracking_details: [
        easyPostTrackingDetail({
          status: 'pre_transit',
          status_detail: 'status_update',
          message: `Pre-Shipment Info Sent to ${carrier}`,
          datetime: easyPostTime(new Date()),
          source: carrier,
        }),
      ],
    });
    trackers.set(tracker.id, tracker);
    return sendJson(response, 201, tracker);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v2/`,
    apiKey,
    requests,
    putTracker(tracker) {
      for (const [id, stored] of trackers) {
        if (id === tracker.id || stored.tracking_code === tracker.tracking_code) trackers.delete(id);
      }
      trackers.set(tracker.id, tracker);
      return tracker;
    },
    failNext(failure) {
      failures.push(failure);
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** EasyPost writes times as ISO 8601 in UTC without milliseconds. */
export function easyPostTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function apiError(status: number): { error: { code: string; message: string; errors: unknown[] } } {
  if (status === 429) return { error: { code: 'RATE_LIMITED', message: 'Too many requests, slow down.', errors: [] } };
  if (status >= 500) return { error: { code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side.', errors: [] } };
  return { error: { code: 'ERROR', message: `Request failed with status ${status}.`, errors: [] } };
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  sendJson(response, status, { error: { code, message, errors: [] } });
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
