// Slow clients are cut off (README, Reliability): headers must arrive within the headers timeout
// and a whole request within the request timeout, on routes that need no key as on any other, and
// one address cannot hold more than its share of open connections. Bounded slow clients on raw
// sockets, against a server with short limits; the defaults are checked in the configuration.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, loadConfig } from '../server/config.js';
import { startService, type TestService } from './support/service.js';

const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;
const CAP = 3;

let service: TestService;
let port: number;
beforeAll(async () => {
  service = await startService({ http: { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, maxConnectionsPerAddress: CAP } });
  port = Number(new URL(service.baseUrl).port);
});
afterAll(async () => service.close());

interface Dripped {
  /** What the server sent before it closed the connection. */
  text: string;
  /** Milliseconds from the connection to its close. */
  closedAfterMs: number;
  /** Bytes of the drip that were written before the close. */
  dripped: number;
}

/**
 * Writes `head` at once, then `drip` one byte every `everyMs`, for at most `maxMs`: a bounded slow
 * client. Resolves when the server closes the connection (or rejects when it never does).
 */
function slowClient(head: string, drip: string, everyMs: number, maxMs: number): Promise<Dripped> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    let dripped = 0;
    const timer = setInterval(() => {
      if (dripped < drip.length && !socket.destroyed) socket.write(drip[dripped++] ?? '');
    }, everyMs);
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`still open after ${maxMs} ms; got ${JSON.stringify(text)}`));
    }, maxMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined); // a reset after the server's answer is the close we wait for
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ text, closedAfterMs: performance.now() - started, dripped });
    });
    socket.write(head);
  });
}

describe('slow clients', () => {
  it('headers that trickle in are cut off after the headers timeout with a 408', async () => {
    const result = await slowClient('POST /console/api/session HTTP/1.1\r\nHost: x\r\n', 'X-Slow: '.padEnd(200, 'a'), 100, 10_000);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.text).toContain('"error_code":"invalid_request"');
    // Node checks once a second: the cut comes within the timeout plus that interval.
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(result.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 1600);
  });

  it('a body that trickles in on a route that needs no key (console login) is cut off after the request timeout', async () => {
    const head = 'POST /console/api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n';
    const result = await slowClient(head, '{"email":"'.padEnd(500, 'a'), 100, 10_000);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(result.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1600);
    expect(result.dripped).toBeLessThan(500);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('the same on the claim page lookup and the WooCommerce path', async () => {
    for (const path of ['/shopper/api/stores/some-store/lookup', `/webhooks/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`]) {
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n`;
      const result = await slowClient(head, '{'.padEnd(400, ' '), 100, 10_000);
      expect(result.closedAfterMs, path).toBeLessThan(REQUEST_TIMEOUT_MS + 1600);
      expect(result.dripped, path).toBeLessThan(400);
    }
  });

  it('a client that keeps up is not cut off (the positive control of the drip)', async () => {
    const body = '{"email":"a@example.com","password":"wrong password here"}';
    const head = `POST /console/api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    // The whole body within the request timeout, a byte every 20 ms.
    const result = await slowClient(head, body, 20, 10_000);
    expect(result.dripped).toBe(body.length);
    expect(result.text).toMatch(/^HTTP\/1\.1 401 /);
  });
});

describe('open connections per address', () => {
  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
      socket.on('error', reject);
    });
  const firstAnswer = (socket: Socket, request: string): Promise<string> =>
    new Promise((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('close', () => resolve(text));
      socket.write(request);
    });

  it('one address holds at most the cap; the next connection gets 429 with Retry-After, and a slot frees when one closes', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => open()));
    const over = await open();
    const refused = await firstAnswer(over, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(refused).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused).toMatch(/\r\nRetry-After: 1\r\n/);
    over.destroy();
    held[0]?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await open();
    expect(await firstAnswer(again, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    for (const socket of [...held, again]) socket.destroy();
  });
});

describe('the limits as configured', () => {
  it('default to 15 s for headers, 30 s for a request and 128 connections per address, with no cap behind a proxy', () => {
    expect(loadConfig({}).http).toEqual({ headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, maxConnectionsPerAddress: 128 });
    expect(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS).toBe(128);
    expect(loadConfig({ TRUSTED_PROXIES: '1' }).http.maxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUSTED_PROXIES: '1', MAX_CONNECTIONS_PER_ADDRESS: '50' }).http.maxConnectionsPerAddress).toBe(50);
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '20000' }).http).toMatchObject({ headersTimeoutMs: 5000, requestTimeoutMs: 20_000 });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(ConfigError);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '10' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });

  it('take the embedded database port from EMBEDDED_DATABASE_PORT', () => {
    expect(loadConfig({}).embeddedDatabasePort).toBeUndefined();
    expect(loadConfig({ EMBEDDED_DATABASE_PORT: '54329' }).embeddedDatabasePort).toBe(54329);
    expect(() => loadConfig({ EMBEDDED_DATABASE_PORT: '70000' })).toThrow(/EMBEDDED_DATABASE_PORT/);
  });
});
