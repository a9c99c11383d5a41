// Nothing unauthenticated costs more than its identity check: a body is neither parsed nor buffered
// before the sender is known. The server runs as `npm start` runs it, in a child process, so that
// its CPU and memory are its own and not the test's.
//   - Unsigned bodies on the signed callbacks (WooCommerce's form ping path, platform messages)
//     are refused from the headers, or after reading at most a ping's bytes.
//   - Uploads (a shopper's photo, the console's logo) check the session and CSRF token before a
//     byte of the image is read: a request with its headers and no body at all gets its 401 at once.
//   - Four senders of unsigned 1 MiB bodies, each sending 10 a second (40 MiB/s offered, where
//     each body used to cost 205 ms of CPU: 8 s of CPU a second), leave ordinary requests' p50
//     within 2x of idle, and each refused body costs the server a few milliseconds of CPU at most;
//     thirty unauthenticated 9.5 MiB uploads leave the server's memory within 20 MiB.
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { sendBody, type BodySend } from './support/body-sender.js';
import { connect } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '../contract/webhook-signature.js';
import { createDatabase, type Database } from '../server/db/client.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { actingFor, createMerchantUser } from '../server/domain/access/index.js';
import { CSRF_HEADER } from '../contract/console/index.js';
import { freePort, spawnServer, type ServerProcess } from './support/server-process.js';
import { createTestDatabase, seedStore, TEST_OPERATOR, type SeededStore } from './support/service.js';


const PLATFORM = 'costplat';
const SECRET = 'unauthenticated-cost-shared-secret-0123';
const MiB = 1024 * 1024;

let server: ServerProcess;
let port: number;
let db: Database;
let shop: SeededStore;
let orderPath: string;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  db = createDatabase(databaseUrl);
  shop = await seedStore(db);
  await createPlatform(db, TEST_OPERATOR, PLATFORM, SECRET);
  await connectStore(db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
  port = await freePort();
  server = spawnServer({ DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'info', RATE_LIMITS_ENABLED: 'false' });
  await server.waitFor('listening on', 60_000);
  const created = await fetch(`http://127.0.0.1:${port}/v2/orders`, {
    method: 'POST',
    headers: { token: shop.liveKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      source_order_id: 'cost-1',
      source_order_number: '#1',
      source_created_on: '2026-01-01T00:00:00Z',
      subtotal: 10,
      currency: 'USD',
      insurance_selected: true,
      customer_details: { first_name: 'A', last_name: 'B', email: 'a@example.com' },
      line_items: [{ source_id: 'l1', name: 'Thing', quantity: 1, price: 10 }],
      shipping_details: { first_name: 'A', last_name: 'B', street_address1: '1 Main St', city: 'Austin', province: 'TX', zip: '78701', country_code: 'US' },
    }),
  });
  expect(created.status).toBe(201);
  orderPath = '/v2/orders/cost-1';
}, 90_000);

afterAll(async () => {
  server?.kill();
  await server?.exited;
  await db?.$disconnect();
});

/** sendBody, to this test's server. */
const send = (path: string, options: Omit<BodySend, 'port' | 'path'>) => sendBody({ port, path, ...options });

/** A GET on a keep-alive agent (the p50 probe): its time to the end of a 200. */
async function get(path: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function orderReadP50(samples: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i += 1) times.push(await get(orderPath, { token: shop.liveKey }, agent));
  } finally {
    agent.destroy();
  }
  return median(times);
}

/** The server's CPU time so far (user and system), in milliseconds, from /proc (100 ticks a second). */
function cpuMs(): number {
  const fields = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After the command: state is field 3, utime field 14 and stime field 15 of the whole line.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A field of the server's /proc status (the child process's), in bytes. */
function memoryField(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  if (kb === undefined) throw new Error(`no ${field}`);
  return Number(kb) * 1024;
}

/** Resets the kernel's peak (VmHWM) to the present resident size, so the next peak is this run's. */
const resetPeak = () => writeFileSync(`/proc/${server.process.pid}/clear_refs`, '5');

const wooPath = () => `/webhooks/${shop.store.id}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('unsigned bodies on the signed callbacks', () => {
  it('a form body longer than a ping is refused from its headers, before any of it is sent', async () => {
    const answer = await send(wooPath(), { headers: FORM, bodyBytes: MiB, withholdBody: true });
    expect(answer.status).toBe(401);
    expect(answer.ms).toBeLessThan(2000);
  });

  it('a chunked form body is read up to the ping limit and refused', async () => {
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: wooPath(), method: 'POST', agent: false, headers: FORM }, (res) => {
        let text = '';
        res.on('data', (piece: Buffer) => (text += piece.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      // No Content-Length: Node sends it chunked. The server must stop after 256 bytes.
      req.write(`webhook_id=1&padding=${'x'.repeat(400)}`);
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toMatchObject({ error_code: 'unauthorized', error: expect.stringMatching(/ping/) });
  });

  it('the real ping still answers 200 unsigned', async () => {
    const response = await fetch(`http://127.0.0.1:${port}${wooPath()}`, { method: 'POST', headers: FORM, body: 'webhook_id=42' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, topic: 'ping', action: 'pong' });
  });

  it('a JSON delivery without a signature header, and a platform message without one, are refused before their bodies', async () => {
    const woo = await send(wooPath(), { headers: { 'content-type': 'application/json' }, bodyBytes: MiB - 1, withholdBody: true });
    expect(woo.status).toBe(401);
    const platform = await send(`/api/webhooks/${PLATFORM}`, { headers: { 'content-type': 'application/json' }, bodyBytes: MiB - 1, withholdBody: true });
    expect(platform.status).toBe(401);
    const expired = await send(`/api/webhooks/${PLATFORM}`, {
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(SECRET, '{}', Math.floor(Date.now() / 1000) - 3600) },
      bodyBytes: MiB - 1,
      withholdBody: true,
    });
    expect(expired.status).toBe(401);
    for (const answer of [woo, platform, expired]) expect(answer.ms).toBeLessThan(2000);
  });

  it("four senders of unsigned 1 MiB bodies leave an ordinary request's p50 within 2x of idle", async () => {
    // The senders run on a thread of their own, so that their writing does not delay the probe's
    // event loop: what is measured is the server.
    const senders = new Worker(new URL('./support/body-senders-worker.mjs', import.meta.url), {
      workerData: {
        port,
        bodyBytes: MiB,
        everyMs: 100,
        senders: [
          // A form of a quarter of a million fields, as the attack sent.
          { path: wooPath(), headers: FORM, fill: 'a=1&' },
          { path: wooPath(), headers: FORM, fill: 'a=1&' },
          { path: `/api/webhooks/${PLATFORM}`, headers: { 'content-type': 'application/json' } },
          { path: wooPath(), headers: { 'content-type': 'application/json', 'x-wc-webhook-signature': `${'A'.repeat(43)}=` } },
        ],
      },
    });
    /** Runs or pauses the senders; resolves with how many bodies went so far. */
    const tell = (message: 'pause' | 'run') =>
      new Promise<number>((resolve) => {
        senders.once('message', (answer: { sent: number }) => resolve(answer.sent));
        senders.postMessage(message);
      });
    try {
      await orderReadP50(50); // warm
      // Idle and loaded, interleaved, so that whatever else the machine does weighs on both alike.
      const idle: number[] = [];
      const loaded: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        idle.push(await orderReadP50(51));
        await tell('run');
        await new Promise((resolve) => setTimeout(resolve, 100));
        loaded.push(await orderReadP50(51));
        await tell('pause');
      }
      // What one refused body costs the server: its CPU time over a stretch of the senders alone.
      const sentBefore = await tell('run');
      const cpuBefore = cpuMs();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const cpuSpent = cpuMs() - cpuBefore;
      const bodies = (await tell('pause')) - sentBefore;
      const stopped = new Promise<{ sent: number; statuses: number[] }>((resolve) => senders.once('message', resolve));
      senders.postMessage('stop');
      const { sent, statuses } = await stopped;
      expect(sent).toBeGreaterThan(8);
      const [idleP50, loadedP50] = [median(idle), median(loaded)];
      // Parsing a 1 MiB form body unauthenticated cost 205 ms of CPU; refused now, it costs a few.
      expect(bodies).toBeGreaterThan(40);
      expect(cpuSpent / bodies, `${cpuSpent} ms of server CPU for ${bodies} bodies`).toBeLessThan(10);
      // Generous: twice idle, plus two milliseconds for the scheduler of a shared 2-core machine that
      // also runs another test file (a 1 MiB body parsed unauthenticated cost 205 ms).
      expect(loadedP50, `idle p50 ${idleP50.toFixed(2)} ms, loaded ${loadedP50.toFixed(2)} ms, ${sent} bodies sent`).toBeLessThanOrEqual(idleP50 * 2 + 2);
      expect(statuses).toEqual([401]);
    } finally {
      await senders.terminate();
    }
  }, 60_000);
});

describe('uploads check the session before reading the image', () => {
  const photoPath = () => `/shopper/api/stores/${shop.store.slug}/photos`;
  const logoPath = '/console/api/settings/logo';
  const IMAGE = () => ({ 'content-type': 'image/jpeg', origin: `http://127.0.0.1:${port}` });

  it('an upload with its headers and no body gets its 401 at once', async () => {
    for (const [path, method] of [
      [photoPath(), 'POST'],
      [logoPath, 'PUT'],
    ] as const) {
      const answer = await send(path, { method, headers: { ...IMAGE(), host: `127.0.0.1:${port}` }, bodyBytes: 9.5 * MiB, withholdBody: true });
      expect(answer.status, path).toBe(401);
      expect(answer.ms, path).toBeLessThan(2000);
    }
  });

  it('over a raw socket too: the answer comes with nothing of the body sent', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port });
      let received = '';
      socket.on('data', (piece: Buffer) => {
        received += piece.toString();
        if (received.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.setTimeout(3000, () => socket.destroy(new Error('no answer within 3 s')));
      socket.write(`PUT ${logoPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: image/png\r\nContent-Length: ${9 * MiB}\r\n\r\n`);
    });
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('thirty concurrent unauthenticated 9.5 MiB uploads grow the server by less than 20 MiB', async () => {
    const upload = (index: number) =>
      send(index % 2 === 0 ? photoPath() : logoPath, { method: index % 2 === 0 ? 'POST' : 'PUT', headers: { ...IMAGE(), host: `127.0.0.1:${port}` }, bodyBytes: 9.5 * MiB });
    // Warm the paths with small bodies first, so the measure is of the uploads and not of code
    // loaded for them (a warm-up with the large bodies would lift the baseline it is measured from).
    for (const path of [photoPath(), logoPath]) {
      await send(path, { method: path === logoPath ? 'PUT' : 'POST', headers: { ...IMAGE(), host: `127.0.0.1:${port}` }, bodyBytes: 1024 });
    }
    const before = memoryField('VmRSS');
    resetPeak();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => upload(index)));
    const peak = memoryField('VmHWM');
    expect(answers.filter((answer) => answer.cut === undefined).map((answer) => answer.status)).toEqual(expect.arrayContaining([401]));
    expect(answers.every((answer) => answer.cut !== undefined || answer.status === 401)).toBe(true);
    expect((peak - before) / MiB, `grew from ${(before / MiB).toFixed(1)} MiB to ${(peak / MiB).toFixed(1)} MiB`).toBeLessThan(20);
  }, 60_000);

  it('a logged-in upload over the limit is refused from its declared length (413), before a byte of it is read', async () => {
    const { setupPath } = await createMerchantUser(db, actingFor(TEST_OPERATOR, shop.store), { email: `owner@${shop.store.slug}.example`, role: 'owner' }, new Date());
    const token = new URL(setupPath, 'http://x').searchParams.get('token');
    const setup = await fetch(`http://127.0.0.1:${port}/console/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ token, password: 'correct horse battery' }),
    });
    expect(setup.status).toBe(200);
    const cookie = (setup.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const { csrf_token: csrf } = (await setup.json()) as { csrf_token: string };
    const headers = { ...IMAGE(), host: `127.0.0.1:${port}`, cookie, [CSRF_HEADER]: csrf };
    const over = await send(logoPath, { method: 'PUT', headers, bodyBytes: 11 * MiB, withholdBody: true });
    expect(over.status).toBe(413);
    expect(over.ms).toBeLessThan(2000);
    // The same session without its CSRF token: 403, again before the body.
    const { [CSRF_HEADER]: _dropped, ...withoutCsrf } = headers;
    const forged = await send(logoPath, { method: 'PUT', headers: withoutCsrf, bodyBytes: 5 * MiB, withholdBody: true });
    expect(forged.status).toBe(403);
  });
});
