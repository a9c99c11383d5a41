// Requests Node's HTTP parser refuses before the app runs: answered in the error format with the
// headers every answer carries, over a raw socket (fetch cannot send broken framing). Before, each
// got Node's bare "400 Bad Request" or "431" with no body at all.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let shop: SeededStore;
beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
});
afterAll(async () => service.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: { error?: string; error_code?: string; errors?: unknown[] };
}

/** Writes bytes on a fresh connection (optionally closing our side), reads until the server closes. */
function rawExchange(request: string, options: { halfClose?: boolean } = {}): Promise<RawResponse> {
  const { port } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer; got ${JSON.stringify(text)}`)));
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      try {
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as RawResponse['body'] });
      } catch {
        reject(new Error(`not JSON: ${JSON.stringify(text)}`));
      }
    });
    socket.write(request);
    if (options.halfClose) socket.end();
  });
}

function expectErrorFormat(response: RawResponse, status: number, message: RegExp): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['x-service-mode']).toBe('live');
  expect(response.headers['x-legacy-mode']).toBe('live');
  expect(response.headers['x-request-id']).toMatch(/^req_/);
  expect(response.body).toEqual({ error: expect.stringMatching(message), error_code: 'invalid_request', errors: [] });
}

describe('broken HTTP framing', () => {
  it('a body shorter than its Content-Length (the client closes first): 400', async () => {
    const request = `POST /v2/orders HTTP/1.1\r\nHost: x\r\ntoken: ${shop.liveKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1}`;
    expectErrorFormat(await rawExchange(request, { halfClose: true }), 400, /shorter than its Content-Length/);
  });

  it('Content-Length together with chunked: 400', async () => {
    const request = `POST /v2/orders HTTP/1.1\r\nHost: x\r\ntoken: ${shop.liveKey}\r\nContent-Type: application/json\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n`;
    expectErrorFormat(await rawExchange(request), 400, /both Content-Length and Transfer-Encoding/);
  });

  it('a chunk size that is not hexadecimal: 400', async () => {
    const request = `POST /v2/orders HTTP/1.1\r\nHost: x\r\ntoken: ${shop.liveKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{"a":1}\r\n0\r\n\r\n`;
    expectErrorFormat(await rawExchange(request), 400, /chunk size/);
  });

  it('headers over 16 KiB: 431', async () => {
    const request = `GET /v2/orders/1001 HTTP/1.1\r\nHost: x\r\ntoken: ${shop.liveKey}\r\nX-Padding: ${'a'.repeat(17_000)}\r\n\r\n`;
    expectErrorFormat(await rawExchange(request), 431, /16 KiB/);
  });

  it('something that is not HTTP at all: 400, and the service still answers', async () => {
    expectErrorFormat(await rawExchange('HELLO THERE\r\n\r\n'), 400, /not well-formed HTTP/);
    const health = await fetch(`${service.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
