// The probes through real HTTP: /healthz (alive, no database), /readyz (database answers and every
// migration on disk is applied), and a quick 503 naming the failed check otherwise.
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineVerifier } from '../server/addresses/offline.js';
import { createApp } from '../server/app.js';
import { createDatabase, type Database } from '../server/db/client.js';
import { createCallerCache, createChangeCache, shopperSessions } from '../server/domain/access/index.js';
import { readMigrations } from '../server/db/migrate.js';
import { systemClock } from '../server/domain/kernel/index.js';
import type { PollScheduler } from '../server/domain/shipments/index.js';
import { createMetrics } from '../server/http/metrics.js';
import { createLogger } from '../server/logger.js';
import { postgresPhotoStore } from '../server/domain/claims/index.js';

import { call } from './support/http.js';
import { createTestDatabase, startService, type TestService } from './support/service.js';

/** The app over HTTP on a database we choose, with stand-ins for what the probes never use. */
async function startAppOn(db: Database): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const scheduler: PollScheduler = {
    schedulePoll: () => Promise.reject(new Error('no tracking in this test')),
  };
  const app = createApp({
    db,
    // The probes use no key; the database may be unreachable, so nothing listens for key changes.
    apiKeys: {
      callers: createCallerCache({ trustworthy: () => false }),
      platforms: createChangeCache({ trustworthy: () => false, freeze: (value) => value }),
      connectedStores: createChangeCache({ trustworthy: () => false, freeze: (value) => value }),
      listening: false,
      sync: async () => {},
      stop: async () => {},
    },
    clock: systemClock,
    logger: createLogger('silent'),
    tracking: { providerName: 'sandbox', scheduler },
    events: { allowPrivateNetworks: false },
    addresses: { verifier: createOfflineVerifier(), timeoutMs: 1000 },
    metrics: createMetrics(db),
    // The probes are no key's requests: nothing is ever recorded.
    requestLog: { record: () => {}, flush: async () => {}, stop: async () => {} },
    photos: postgresPhotoStore(db),
    shopperSessions: shopperSessions(db),
    shopperLookupFloorMs: 0,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function timed<T>(action: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await action();
  return { result, ms: Date.now() - started };
}

describe('on a migrated database', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => service.close());

  it('GET /healthz answers 200 {"status":"ok"} without a key', async () => {
    const response = await call(service.baseUrl, 'GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 with both checks ok', async () => {
    const response = await call(service.baseUrl, 'GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  });

  it('answers 405 JSON for another method on a probe', async () => {
    const response = await call(service.baseUrl, 'POST', '/readyz');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('with a migration missing', () => {
  let service: TestService;
  const last = readMigrations().at(-1)?.name ?? '';
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    const db = createDatabase(databaseUrl, { poolSize: 1 });
    try {
      await db.$executeRaw`DELETE FROM "_prisma_migrations" WHERE migration_name = ${last}`;
    } finally {
      await db.$disconnect();
    }
    service = await startService({ databaseUrl });
  });
  afterAll(async () => service.close());

  it('GET /readyz answers 503 naming the pending migration, while /healthz stays 200', async () => {
    expect(last).not.toBe('');
    const response = await call(service.baseUrl, 'GET', '/readyz');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ status: 'not_ready', checks: { database: 'ok', migrations: `pending: ${last}` } });
    expect((await call(service.baseUrl, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('with the database down', () => {
  it('GET /readyz answers 503 "unreachable" quickly when nothing listens on the database port', async () => {
    const db = createDatabase('postgresql://x:y@127.0.0.1:1/none', { poolSize: 1 });
    const app = await startAppOn(db);
    try {
      const { result, ms } = await timed(() => call(app.baseUrl, 'GET', '/readyz'));
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ status: 'not_ready', checks: { database: 'unreachable', migrations: 'unknown' } });
      expect(ms).toBeLessThan(3000);
      expect((await call(app.baseUrl, 'GET', '/healthz')).status).toBe(200);
    } finally {
      await app.close();
      await db.$disconnect().catch(() => undefined);
    }
  });

  it('GET /readyz answers 503 "unreachable" within the deadline when the database accepts but never answers', async () => {
    // A black hole: accepts TCP connections and never says a word.
    const sockets = new Set<Socket>();
    const hole = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    hole.listen(0, '127.0.0.1');
    await once(hole, 'listening');
    const { port } = hole.address() as AddressInfo;
    const db = createDatabase(`postgresql://x:y@127.0.0.1:${port}/none`, { poolSize: 1 });
    const app = await startAppOn(db);
    try {
      const { result, ms } = await timed(() => call(app.baseUrl, 'GET', '/readyz'));
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ status: 'not_ready', checks: { database: 'unreachable', migrations: 'unknown' } });
      expect(ms).toBeLessThan(3000);
    } finally {
      await app.close();
      for (const socket of sockets) socket.destroy();
      hole.close();
      await db.$disconnect().catch(() => undefined);
    }
  });
});
