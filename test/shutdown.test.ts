// Graceful shutdown of the real server (`server/main.ts` as a child process) under load: SIGTERM
// while order creates are in flight over keep-alive connections. Every request the server accepted
// gets its complete answer and is in the database with its ledger booking; new connections are
// refused; the process logs "stopped" and exits 0. And a request still running at the drain
// deadline is cut, counted in the log, and the exit code is 1.
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../server/db/client.js';
import { orderBody } from './support/http.js';
import { freePort, spawnServer } from './support/server-process.js';
import { createTestDatabase, seedStore } from './support/service.js';


type Outcome =
  | { kind: 'answered'; status: number; connection: string | undefined; body: string; settledAt: number }
  | { kind: 'failed'; code: string; message: string; settledAt: number };

/** One POST of a JSON body; never rejects: a transport failure is an outcome too. */
function post(agent: Agent, port: number, key: string, path: string, body: unknown): Promise<Outcome> {
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const failed = (error: NodeJS.ErrnoException) =>
      resolve({ kind: 'failed', code: error.code ?? 'ERR', message: error.message, settledAt: Date.now() });
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { token: key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ kind: 'answered', status: res.statusCode ?? 0, connection: res.headers.connection, body: text, settledAt: Date.now() }),
        );
        // A response cut short after its headers is a failure, not an answer.
        res.on('error', failed);
      },
    );
    req.on('error', failed);
    req.end(payload);
  });
}

type OrderOutcome = Outcome & { sourceOrderId: string };

async function createOrder(agent: Agent, port: number, key: string): Promise<OrderOutcome> {
  const body = orderBody();
  return { ...(await post(agent, port, key, '/v2/orders', body)), sourceOrderId: body.source_order_id as string };
}

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('graceful shutdown', () => {
  it('finishes every accepted request, refuses new connections, and exits 0 after "stopped"', async () => {
    const databaseUrl = await createTestDatabase();
    const db: Database = createDatabase(databaseUrl, { poolSize: 2 });
    cleanups.push(() => db.$disconnect());
    const shop = await seedStore(db);

    const port = await freePort();
    const server = spawnServer({
      DATABASE_URL: databaseUrl,
      DATA_DIR: '/nonexistent-should-not-be-used',
      PORT: String(port),
      LOG_LEVEL: 'info',
      // The stream below is far above the default per-key limit; this test is about draining.
      RATE_LIMITS_ENABLED: 'false',
    });
    cleanups.push(() => server.kill());
    await server.waitFor('listening on', 30_000);

    // A steady stream: 40 requests outstanding at all times, over 4 keep-alive connections (the
    // agent queues the rest), so every connection always has a request in flight or about to be.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    cleanups.push(() => agent.destroy());
    const outcomes: Array<Promise<OrderOutcome>> = [];
    let feeding = true;
    let answeredBeforeSignal = 0;
    const feed = () => {
      const outcome = createOrder(agent, port, shop.liveKey);
      outcomes.push(outcome);
      void outcome.then((settled) => {
        if (settled.kind === 'answered') answeredBeforeSignal += feeding ? 1 : 0;
        if (feeding) feed();
      });
    };
    for (let i = 0; i < 40; i += 1) feed();

    // Warm up (connections open, code paths compiled), then signal mid-stream.
    for (let waited = 0; answeredBeforeSignal < 30 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(answeredBeforeSignal, server.output()).toBeGreaterThanOrEqual(30);
    feeding = false;
    const signalledAt = Date.now();
    server.signal('SIGTERM');

    // Once the server has acted on the signal, a few more: the listener is gone, so they are refused.
    await server.waitFor('shutting down', 10_000);
    for (let i = 0; i < 5; i += 1) outcomes.push(createOrder(agent, port, shop.liveKey));

    const settled = await Promise.all(outcomes);
    const exitCode = await server.exited;
    const output = server.output();

    const answered = settled.filter((o) => o.kind === 'answered');
    const refused = settled.filter((o) => o.kind === 'failed' && o.code === 'ECONNREFUSED');
    const broken = settled.filter((o) => o.kind === 'failed' && o.code !== 'ECONNREFUSED');
    const summary = JSON.stringify({
      answered: answered.length,
      refused: refused.length,
      broken: broken.map((o) => (o.kind === 'failed' ? `${o.code}: ${o.message}` : '')),
    });

    // No accepted request was cut: no ECONNRESET, no "socket hang up", every answer a 201.
    expect(broken, `${summary}\n${output}`).toEqual([]);
    expect(answered.map((o) => o.status).filter((status) => status !== 201), summary).toEqual([]);
    expect(answered.length + refused.length).toBe(settled.length);
    // The stream went on past the signal: requests were answered during the drain, each telling
    // the client to close its connection, and the rest were refused at connect.
    const duringDrain = answered.filter((o) => o.settledAt >= signalledAt && o.connection === 'close');
    expect(duringDrain.length, summary).toBeGreaterThanOrEqual(1);
    expect(refused.length, summary).toBeGreaterThanOrEqual(5);

    expect(exitCode, output).toBe(0);
    const logLines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; level: number; signal?: string });
    expect(logLines.find((line) => line.msg === 'shutting down')?.signal).toBe('SIGTERM');
    expect(logLines.filter((line) => line.msg === 'stopped')).toHaveLength(1);
    expect(logLines.at(-1)?.msg).toBe('stopped');
    const password = decodeURIComponent(new URL(databaseUrl).password);
    for (const line of output.split('\n')) {
      expect(line).not.toContain(shop.liveKey);
      if (password) expect(line).not.toContain(password);
    }

    // Every 201 is in the database with its premium booked (125.00 x 1.5 % = 1.88).
    const ids = answered.map((o) => o.sourceOrderId);
    const orders = await db.order.findMany({
      where: { storeId: shop.store.id, sourceOrderId: { in: ids } },
      select: { sourceOrderId: true, ledgerEntries: { select: { amountCents: true, reason: true } } },
    });
    expect(orders.map((o) => o.sourceOrderId).sort()).toEqual([...ids].sort());
    for (const order of orders) {
      expect(order.ledgerEntries.map((e) => ({ reason: e.reason, amountCents: Number(e.amountCents) }))).toEqual([
        { reason: 'booking', amountCents: 188 },
      ]);
    }
    // And nothing refused was written.
    expect(await db.order.count({ where: { storeId: shop.store.id } })).toBe(ids.length);
  }, 60_000);

  it('cuts what still runs at SHUTDOWN_TIMEOUT_MS, logs how many, and exits 1', async () => {
    // The address verifier's USPS endpoint is a black hole: a verification waits for it (up to its
    // own 60 s deadline), far past the 500 ms drain deadline.
    const connected: Socket[] = [];
    const hole = createServer((socket) => {
      connected.push(socket);
      socket.on('error', () => undefined);
    });
    hole.listen(0, '127.0.0.1');
    await once(hole, 'listening');
    cleanups.push(() => {
      for (const socket of connected) socket.destroy();
      hole.close();
    });
    const holePort = (hole.address() as AddressInfo).port;

    const databaseUrl = await createTestDatabase();
    const db: Database = createDatabase(databaseUrl, { poolSize: 1 });
    cleanups.push(() => db.$disconnect());
    const shop = await seedStore(db);
    const port = await freePort();
    const uspsSecret = 'usps-secret-that-must-not-be-logged';
    const server = spawnServer({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMITS_ENABLED: 'false',
      SHUTDOWN_TIMEOUT_MS: '500',
      ADDRESS_VERIFIER: 'usps',
      USPS_CLIENT_ID: 'usps-client',
      USPS_CLIENT_SECRET: uspsSecret,
      USPS_BASE_URL: `http://127.0.0.1:${holePort}`,
      ADDRESS_VERIFIER_TIMEOUT_MS: '60000',
    });
    cleanups.push(() => server.kill());
    await server.waitFor('listening on', 30_000);

    const agent = new Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    const stuck = post(agent, port, shop.liveKey, '/v2/addresses/verify', {
      address: { street_address1: '1600 Amphitheatre Parkway', city: 'Mountain View', province: 'CA', zip: '94043' },
    });
    // The request is in flight once the verifier has reached the black hole.
    for (let waited = 0; connected.length === 0 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(connected.length, server.output()).toBeGreaterThan(0);

    const signalledAt = Date.now();
    server.signal('SIGTERM');
    const outcome = await stuck;
    const exitCode = await server.exited;
    const output = server.output();

    expect(outcome.kind, output).toBe('failed');
    expect(Date.now() - signalledAt).toBeLessThan(15_000);
    expect(exitCode, output).toBe(1);
    const logLines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; cut?: number; exit_code?: number });
    expect(logLines.find((line) => line.cut !== undefined)).toMatchObject({ cut: 1 });
    expect(logLines.at(-1)).toMatchObject({ msg: 'stopped', exit_code: 1 });
    expect(output).not.toContain(uspsSecret);
    expect(output).not.toContain(shop.liveKey);
  }, 60_000);
});
