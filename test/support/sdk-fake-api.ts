// A local stand-in for the API, for the SDK's retry and request tests (test/sdk-retries*.test.ts):
// it answers each request with the next step of a script (failing on purpose, hanging, or cutting
// the socket) and records every request. The clients here record their waits instead of sleeping.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Client, type ClientOptions, type OrderRequest, type RetryEvent } from '../../sdk/src/index.js';

export type Step =
  /** Answer with this status, JSON body (the API's error format by default) and headers. */
  | { status: number; body?: unknown; text?: string; headers?: Record<string, string> }
  /** Read the request, then destroy the socket without answering. */
  | { destroy: true }
  /** Read the request and never answer. */
  | { hang: true };

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export const KEY = 'ak_live_00000000000000000000000000000000';
export const NOW = Date.parse('2026-11-20T10:00:00Z');
/** Every request the server got in the current test. */
export const requests: Recorded[] = [];
/** What the server answers next, in order; a 200 `{ ok: true }` once it runs out. */
export const script: Step[] = [];
let baseUrl = '';

/** The server's address (once started by useFakeApi). */
export const apiUrl = (): string => baseUrl;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    const step = script.shift() ?? { status: 200, body: { ok: true } };
    if ('hang' in step) return;
    if ('destroy' in step) {
      request.socket.destroy();
      return;
    }
    const headers = { 'x-request-id': `req_fake_${requests.length}`, ...step.headers };
    if (step.text !== undefined) {
      response.writeHead(step.status, { 'content-type': 'text/html', ...headers });
      response.end(step.text);
      return;
    }
    const body = step.body ?? { error: `Failed with ${step.status}.`, error_code: codeFor(step.status), errors: [] };
    response.writeHead(step.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  });
});

export function codeFor(status: number): string {
  const codes: Record<number, string> = {
    400: 'invalid_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    409: 'conflict',
    413: 'payload_too_large',
    422: 'unprocessable',
    429: 'rate_limited',
  };
  return codes[status] ?? 'internal_error';
}

/** Starts the server for the calling test file, and empties the script and the record after each test. */
export function useFakeApi(): void {
  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterEach(() => {
    requests.length = 0;
    script.length = 0;
    // Hung requests were aborted by the client; closing idle keep-alive sockets here would make the
    // next test's first attempt meet a stale socket (which the SDK would rightly retry).
  });
}

/** A client that records every wait instead of sleeping, with mid-range jitter and a fixed clock. */
export function recordingClient(options: Partial<ClientOptions> = {}) {
  const delays: number[] = [];
  const events: RetryEvent[] = [];
  const client = new Client({
    apiKey: KEY,
    baseUrl,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    now: () => NOW,
    onRetry: (event) => events.push(event),
    ...options,
  });
  return { client, delays, events };
}

export const order = (overrides: Partial<OrderRequest> = {}): OrderRequest => ({
  source_order_id: '1001',
  subtotal: 125,
  insurance_selected: true,
  customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
  line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2 }],
  source_created_on: '2026-11-20T10:00:00Z',
  ...overrides,
});
export const storedOrder = { id: 'ord_1', source_order_id: '1001', status: 'created', paid_to_insure: 1.88 };
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const keysSent = () => requests.map((request) => request.headers['idempotency-key']);

export { rejection } from './sdk-rejection.js';
