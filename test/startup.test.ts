// `npm start` end to end: the embedded database, the demo store whose keys are printed once, the
// README quickstart run verbatim, persistence across restarts, DATABASE_URL, and bad configuration.
// Also keeps the README's endpoint table true to the contract.
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { afterAll, describe, expect, it } from 'vitest';
import { contract } from '../contract/index.js';
import { freePort, spawnServer } from './support/server-process.js';
import { createTestDatabase } from './support/service.js';

const run = promisify(execFile);
const TSX = 'node_modules/.bin/tsx';
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  process: ChildProcess;
  output: () => string;
  baseUrl: string;
  stop: () => Promise<number | null>;
}

async function startServer(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const server = spawnServer({ DATABASE_URL: '', LOG_LEVEL: 'info', ...env, PORT: String(port) });
  await server.waitFor('listening on', 120_000);
  return {
    process: server.process,
    output: server.output,
    baseUrl: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.signal('SIGTERM');
      return server.exited;
    },
  };
}

function printedKey(output: string, mode: 'live' | 'test'): string {
  const match = new RegExp(`${mode} key: (ak_${mode}_[A-Za-z0-9]+)`).exec(output);
  if (!match?.[1]) throw new Error(`no ${mode} key printed in: ${output}`);
  return match[1];
}

function readmeBlock(marker: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const block = new RegExp(`<!-- ${marker}:start -->\\n([\\s\\S]*?)<!-- ${marker}:end -->`).exec(readme)?.[1];
  if (!block) throw new Error(`README has no ${marker} block`);
  return block;
}

describe('npm start on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'op-start-'));
  dataDirs.push(dataDir);

  it('prints the demo keys once, serves the README quickstart verbatim, and keeps data across restarts', async () => {
    const first = await startServer({ DATA_DIR: dataDir });
    let liveKey: string;
    try {
      liveKey = printedKey(first.output(), 'live');
      expect(printedKey(first.output(), 'test')).toMatch(/^ak_test_[A-Za-z0-9]{40}$/);
      expect(liveKey).toMatch(/^ak_live_[A-Za-z0-9]{40}$/);

      // The quickstart block as written, minus the line the reader edits (we set API_KEY instead).
      const script = readmeBlock('quickstart')
        .replace(/^```sh\n/, '')
        .replace(/```\s*$/, '')
        .split('\n')
        .filter((line) => !line.startsWith('export API_KEY='))
        .join('\n');
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
        env: { ...process.env, API_KEY: liveKey, BASE_URL: first.baseUrl },
      });
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^quote: [0-9a-f-]{36}$/);
      const [created, read, cancelled] = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(created).toMatchObject({ source_order_id: '1001', status: 'created', paid_to_insure: 1.88, subtotal: 125 });
      expect(read).toMatchObject({ id: created?.id, status: 'created' });
      expect(cancelled).toMatchObject({ id: created?.id, status: 'cancelled', paid_to_insure: 1.88 });
      // The key is shown once in the start-up banner; no log line (JSON) ever carries it. Logs are
      // written asynchronously, so wait for the four quickstart requests to be logged first.
      const requestLines = () => first.output().split('\n').filter((line) => line.includes('"msg":"request"')).length;
      for (let waited = 0; requestLines() < 4 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(requestLines()).toBeGreaterThanOrEqual(4);
      // The demo owner's console login, printed once, logs in.
      const login = /\/console \(email (\S+), password (\S+), shown this once\)/.exec(first.output());
      expect(login).not.toBeNull();
      const session = await fetch(`${first.baseUrl}/console/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: first.baseUrl },
        body: JSON.stringify({ email: login?.[1], password: login?.[2] }),
      });
      expect(session.status).toBe(200);
      expect(await session.json()).toMatchObject({ user: { email: 'owner@demo-store.example', role: 'owner' }, store: { slug: 'demo-store' } });
      // The claim page the banner names serves the demo store, and finds the quickstart's order.
      const claimPage = /The shoppers' claim page: (\S+) /.exec(first.output());
      expect(claimPage?.[1]).toBe(`${first.baseUrl}/claims/demo-store`);
      expect((await fetch(claimPage?.[1] ?? '')).status).toBe(200);
      const found = await fetch(`${first.baseUrl}/shopper/api/stores/demo-store/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: first.baseUrl },
        body: JSON.stringify({ order_number: '#1001', email: 'ada@example.com' }),
      });
      expect(found.status).toBe(200);
      const logLines = first.output().split('\n').filter((line) => line.startsWith('{'));
      for (const line of logLines) {
        expect(line).not.toContain(liveKey);
        expect(line).not.toContain(login?.[2]);
      }
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startServer({ DATA_DIR: dataDir });
    try {
      expect(second.output()).not.toMatch(/live key:/);
      const response = await fetch(`${second.baseUrl}/v2/orders/1001`, { headers: { token: liveKey } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { status: string }).status).toBe('cancelled');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 120_000);
});

describe('npm start on the embedded database, in a terminal and after a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'op-group-'));
  dataDirs.push(dataDir);
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');

  async function startInOwnGroup() {
    const port = await freePort();
    const server = spawnServer({ DATABASE_URL: '', LOG_LEVEL: 'info', DATA_DIR: dataDir, PORT: String(port) }, { detached: true });
    await server.waitFor('listening on', 120_000);
    return { server, baseUrl: `http://127.0.0.1:${port}` };
  }

  it('exits 0 when SIGTERM or SIGINT reaches the whole process group, PostgreSQL included', async () => {
    let liveKey: string | undefined;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { server, baseUrl } = await startInOwnGroup();
      try {
        liveKey ??= printedKey(server.output(), 'live');
        expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
        // Connections open in every pool (rate limits included): PostgreSQL's shutdown closes them.
        for (let i = 0; i < 3; i += 1) {
          const quote = await fetch(`${baseUrl}/v2/quotes`, {
            method: 'POST',
            headers: { token: liveKey, 'content-type': 'application/json' },
            body: JSON.stringify({ cart: { covered: { amount: '10.00' } } }),
          });
          expect(quote.status).toBe(201);
        }
        const postmasterPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        server.signalGroup(signal);
        expect(await server.exited, `${signal}: ${server.output()}`).toBe(0);
        expect(existsSync(pidFile), signal).toBe(false);
        expect(() => process.kill(postmasterPid, 0), signal).toThrow();
      } finally {
        server.kill();
      }
    }
  }, 180_000);

  it('starts after a crash left postmaster.pid naming a PID that another live process now has', async () => {
    const { server } = await startInOwnGroup();
    server.process.kill('SIGKILL');
    await server.exited;
    // PostgreSQL itself stops once its parent is gone; the lock file it leaves then names a PID
    // that the system can hand to any other process: here, this test's own.
    const postmasterPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    try {
      process.kill(postmasterPid, 'SIGKILL');
    } catch {
      // already gone
    }
    for (let waited = 0; waited < 10_000; waited += 50) {
      try {
        process.kill(postmasterPid, 0);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } catch {
        break;
      }
    }
    const lines = readFileSync(pidFile, 'utf8').split('\n');
    lines[0] = String(process.pid);
    writeFileSync(pidFile, lines.join('\n'));

    const restarted = await startInOwnGroup();
    try {
      expect((await fetch(`${restarted.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      restarted.server.signal('SIGTERM');
      expect(await restarted.server.exited, restarted.server.output()).toBe(0);
    }
  }, 180_000);
});

describe('npm start on the embedded database at a chosen port', () => {
  it('starts PostgreSQL on EMBEDDED_DATABASE_PORT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'op-port-'));
    dataDirs.push(dataDir);
    const databasePort = await freePort();
    expect(await accepting(databasePort)).toBe(false);
    const server = await startServer({ DATA_DIR: dataDir, EMBEDDED_DATABASE_PORT: String(databasePort) });
    try {
      expect(await accepting(databasePort)).toBe(true);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(await accepting(databasePort)).toBe(false);
  }, 180_000);
});

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start with DATABASE_URL', () => {
  it('uses that database, migrates it, and creates no demo store', async () => {
    const databaseUrl = await createTestDatabase();
    const server = await startServer({ DATABASE_URL: databaseUrl, DATA_DIR: '/nonexistent-should-not-be-used' });
    try {
      expect(server.output()).not.toMatch(/key:/);
      expect(server.output()).toMatch(/"database":"DATABASE_URL"/);
      const response = await fetch(`${server.baseUrl}/v2/quotes`, { method: 'POST' });
      expect(response.status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

describe('configuration', () => {
  it('stops with one clear line on a bad value', async () => {
    const failure = await run(TSX, ['server/main.ts'], { env: { ...process.env, PORT: 'eighty', DATABASE_URL: 'mysql://x' } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in failure && failure.code).toBe(1);
    const stderr = (failure as { stderr: string }).stderr.trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Invalid configuration: PORT .*; DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/);
  });
});

describe('the README endpoint table', () => {
  function flatten(router: AppRouter | AppRoute): AppRoute[] {
    return isAppRoute(router) ? [router] : Object.values(router).flatMap((child) => flatten(child as AppRouter | AppRoute));
  }

  it('lists every route of the contract with its success and error statuses', () => {
    const rows = readmeBlock('endpoints')
      .split('\n')
      .filter((line) => /^\| (GET|POST|PATCH|PUT|DELETE) /.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const documented = rows.map(([, method, path, , success, errors]) => `${method} ${path?.replaceAll('`', '')} ${success} ${errors}`).sort();
    const actual = flatten(contract)
      .map((route) => {
        const statuses = Object.keys(route.responses).map(Number);
        const success = statuses.filter((s) => s < 400).join(' ');
        const errors = statuses.filter((s) => s >= 400).sort((a, b) => a - b).join(' ');
        return `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')} ${success} ${errors}`;
      })
      .sort();
    expect(documented).toEqual(actual);
  });
});
