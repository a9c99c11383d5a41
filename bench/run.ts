// npm run bench: the service's speed against the physical floor of this machine.
//
// One embedded PostgreSQL in a temp dir; the real server and the baselines (a bare Express echo, and
// a bare Express handler doing one pg INSERT of an order-shaped row, which also answers one indexed
// SELECT of such a row) each in a child process of its own, started the same way (bench/target.ts),
// and, for reference, the address verify route alone on bare ts-rest and Express (the address floor).
// autocannon drives them from this process at a fixed concurrency; every scenario runs right after
// its baseline and is compared with that run. Then p99 at half the peak rate, a scale run (order
// create and read with 10k and 1M orders stored, bulk-loaded in SQL) and the EXPLAIN (ANALYZE,
// BUFFERS) plans of the hot queries, as captured on the wire (node-postgres) from the service's own
// code. Results go to bench/results/latest.json and a table to stdout.
//
// Settings (environment):
//   BENCH_DURATION=10        seconds per measured run        BENCH_CONNECTIONS=16   concurrent connections
//   BENCH_WARMUP=2           seconds of warm-up before each  BENCH_POOL_SIZE=10     DB connections per target
//   BENCH_SCALE_SMALL=10000  BENCH_SCALE_LARGE=1000000       orders stored in the two scale runs
//   BENCH_SCALE=0            skip the scale run              BENCH_ONLY=a,b         only these scenarios (names below)
//   BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=bench/results/prof"   extra node flags for the server child
//   BENCH_OUTPUT=bench/results/latest.json   BENCH_SHARED_BUFFERS=1GB (PostgreSQL's shared_buffers)
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

type AutocannonRequest = autocannon.Request;
type AutocannonResult = autocannon.Result;
import pg from 'pg';
import { signWebhook } from '../contract/webhook-signature.js';
import { createDatabase, type Database } from '../server/db/client.js';
import { ensureDatabase, startEmbeddedCluster, type EmbeddedCluster } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import { authenticateApiKey, issueApiKey, type Caller } from '../server/domain/api-keys.js';
import { detectCarrier } from '../server/domain/carriers.js';
import { getOrder } from '../server/domain/orders.js';
import { connectStore, createPlatform } from '../server/domain/platforms.js';
import { createQuote, resolveQuote } from '../server/domain/quotes.js';
import { createStore, type StoreContext } from '../server/domain/stores.js';
import { orderPlacedMessage, orderRequest, SHIPPING_DETAILS, upsTrackingNumber } from './requests.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

const config = {
  duration: numberFromEnv('BENCH_DURATION', 10),
  connections: numberFromEnv('BENCH_CONNECTIONS', 16),
  warmup: numberFromEnv('BENCH_WARMUP', 2),
  poolSize: numberFromEnv('BENCH_POOL_SIZE', 10),
  scaleSmall: numberFromEnv('BENCH_SCALE_SMALL', 10_000),
  scaleLarge: numberFromEnv('BENCH_SCALE_LARGE', 1_000_000),
  scale: process.env.BENCH_SCALE !== '0',
  only: (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  serverNodeOptions: (process.env.BENCH_SERVER_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
  output: resolve(root, process.env.BENCH_OUTPUT ?? 'bench/results/latest.json'),
  sharedBuffers: process.env.BENCH_SHARED_BUFFERS ?? '1GB',
};

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

// ---------------------------------------------------------------------------------------------
// Targets: child processes, all started the same way
// ---------------------------------------------------------------------------------------------

type TargetKind = 'server' | 'echo' | 'insert' | 'address-floor';

interface Target {
  kind: TargetKind;
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// CPU accounting (Linux /proc): where a request's CPU goes, per process group
// ---------------------------------------------------------------------------------------------

const CLOCK_TICKS_PER_SECOND = 100;
/** The postmaster of the bench's cluster, set once it runs; its children are the backends. */
let postmasterPid: number | null = null;

function processTicks(pid: number): { ppid: number; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** Ticks of the postmaster and each backend, by pid (backends come and go: see cpuPerRequest). */
function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  if (postmasterPid === null) return ticks;
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return ticks;
  }
  for (const name of entries) {
    const pid = Number(name);
    const info = processTicks(pid);
    if (info && (pid === postmasterPid || info.ppid === postmasterPid)) ticks.set(pid, info.ticks);
  }
  return ticks;
}

interface CpuSnapshot {
  target: number;
  postgres: Map<number, number>;
  generator: number;
}

function cpuSnapshot(target: Target): CpuSnapshot {
  const usage = process.cpuUsage();
  return {
    target: processTicks(target.pid)?.ticks ?? 0,
    postgres: postgresTicks(),
    generator: ((usage.user + usage.system) / 1e6) * CLOCK_TICKS_PER_SECOND,
  };
}

/** CPU milliseconds per request: the target process, PostgreSQL (all backends), and autocannon. */
function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): { target: number; postgres: number; generator: number } {
  const ms = (ticks: number) => round(((ticks / CLOCK_TICKS_PER_SECOND) * 1000) / Math.max(1, requests), 3);
  // Per backend alive at the end (one that started meanwhile counts whole); one that ended
  // meanwhile is lost, which only idle pool connections closing do in practice.
  let postgres = 0;
  for (const [pid, ticks] of after.postgres) postgres += ticks - (before.postgres.get(pid) ?? 0);
  return { target: ms(after.target - before.target), postgres: ms(postgres), generator: ms(after.generator - before.generator) };
}

const children = new Set<ChildProcess>();

async function startTarget(kind: TargetKind, databaseUrl: string): Promise<Target> {
  const execArgv = ['--import', 'tsx', ...(kind === 'server' ? config.serverNodeOptions : [])];
  const child = fork(join(here, 'target.ts'), [kind], {
    cwd: root,
    execArgv,
    env: { ...process.env, DATABASE_URL: databaseUrl, BENCH_POOL_SIZE: String(config.poolSize), NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  const port = await new Promise<number>((resolvePort, reject) => {
    child.once('message', (message) => resolvePort((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`target ${kind} exited with ${code} before listening`)));
  });
  return {
    kind,
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
      children.delete(child);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Load generation
// ---------------------------------------------------------------------------------------------

interface Scenario {
  name: string;
  /** What the ratio is taken against. */
  baseline: 'echo' | 'insert' | null;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per request: another id, another body, another signature. */
  setup?: (request: AutocannonRequest) => AutocannonRequest;
  /** Per response, e.g. to remember what was created (a request set up but never sent created nothing). */
  onResponse?: (status: number, body: string) => void;
}

interface Result extends Measurement {
  /** The baseline run just before this one, and the ratio to it. */
  baselineRun: Measurement;
  ratio: number;
  /**
   * For information, not a target: reads against one indexed SELECT, the offline address verify
   * against its own route on bare ts-rest and Express (the address floor); each measured right after.
   */
  reference?: { run: Measurement; ratio: number };
}

interface Measurement {
  name: string;
  target: TargetKind;
  baseline: 'echo' | 'insert' | null;
  connections: number;
  durationSeconds: number;
  overallRate?: number;
  requestsPerSecond: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU per request (Linux only; 0 elsewhere): the target process, every PostgreSQL backend, autocannon. */
  cpuMsPerRequest: { target: number; postgres: number; generator: number };
  /**
   * Paced runs only: how long after its due time each request left this process. Near zero means
   * the latencies are the server's and the database's, not a stall of the load generator itself.
   */
  sendDelayMs?: { p99: number; max: number };
}

async function fire(target: Target, scenario: Scenario, seconds: number, overallRate?: number): Promise<AutocannonResult> {
  const request: AutocannonRequest = {
    method: scenario.method,
    path: scenario.path,
    headers: scenario.headers ?? {},
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    ...(scenario.setup ? { setupRequest: (req: AutocannonRequest) => (scenario.setup as (r: AutocannonRequest) => AutocannonRequest)(req) } : {}),
    ...(scenario.onResponse ? { onResponse: (status: number, body: string) => (scenario.onResponse as (s: number, b: string) => void)(status, body) } : {}),
  };
  return autocannon({
    url: target.baseUrl,
    connections: config.connections,
    duration: seconds,
    timeout: 30,
    ...(overallRate === undefined ? {} : { overallRate }),
    requests: [request],
  });
}

async function measure(target: Target, scenario: Scenario, options: { overallRate?: number; warmup?: boolean } = {}): Promise<Measurement> {
  if (options.warmup !== false && config.warmup > 0) await fire(target, scenario, config.warmup);
  const cpuBefore = cpuSnapshot(target);
  const result = await fire(target, scenario, config.duration, options.overallRate);
  const cpuAfter = cpuSnapshot(target);
  const measurement: Measurement = {
    name: scenario.name,
    target: target.kind,
    baseline: scenario.baseline,
    connections: config.connections,
    durationSeconds: config.duration,
    ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
    requestsPerSecond: round(result.requests.average, 1),
    latencyMs: {
      mean: round(result.latency.mean, 2),
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpuMsPerRequest: cpuPerRequest(cpuBefore, cpuAfter, result.requests.total),
  };
  const bad = measurement.non2xx + measurement.errors + measurement.timeouts;
  log(
    `${scenario.name.padEnd(26)} ${String(measurement.requestsPerSecond).padStart(8)} req/s  p50 ${measurement.latencyMs.p50} ms  p99 ${measurement.latencyMs.p99} ms` +
      `  cpu/req: target ${measurement.cpuMsPerRequest.target} ms, postgres ${measurement.cpuMsPerRequest.postgres} ms, autocannon ${measurement.cpuMsPerRequest.generator} ms` +
      (options.overallRate ? `  (rate ${options.overallRate}/s)` : '') +
      (bad > 0 ? `  !! ${measurement.non2xx} non-2xx, ${measurement.errors} errors, ${measurement.timeouts} timeouts ${JSON.stringify(result.statusCodeStats)}` : ''),
  );
  return measurement;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Evenly paced, open-loop load at `rate` per second over up to `connections` keep-alive sockets:
 * request i is due at start + i / rate, and its latency counts from when it was due, so a request
 * that waited for a free socket or a late timer is not hidden. autocannon's overallRate is not
 * paced: each connection sends back to back until its quota for the current second is used, so half
 * the peak rate there is full load for about half of every second. This shows both.
 */
async function paced(target: Target, scenario: Scenario, rate: number, seconds: number): Promise<Measurement> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: config.connections });
  const url = new URL(target.baseUrl);
  const latencies: number[] = [];
  let failed = 0;
  let errors = 0;
  const inFlight = new Set<Promise<void>>();
  const sendDelays: number[] = [];
  const send = (due: number) => {
    sendDelays.push(performance.now() - due);
    let request: AutocannonRequest = {
      method: scenario.method,
      path: scenario.path,
      headers: scenario.headers ?? {},
      ...(scenario.body === undefined ? {} : { body: scenario.body }),
    };
    if (scenario.setup) request = scenario.setup(request);
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const done = new Promise<void>((resolveDone) => {
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: request.path,
          headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            latencies.push(performance.now() - due);
            if (status < 200 || status >= 300) failed += 1;
            scenario.onResponse?.(status, Buffer.concat(chunks).toString('utf8'));
            resolveDone();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolveDone();
      });
      req.end(body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  const cpuBefore = cpuSnapshot(target);
  const start = performance.now();
  const total = Math.floor(rate * seconds);
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolveWait) => setTimeout(resolveWait, wait));
    send(due);
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  const cpuAfter = cpuSnapshot(target);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  sendDelays.sort((a, b) => a - b);
  // q = 1 is the largest value.
  const quantile = (sorted: number[], q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0, 1);
  const measurement: Measurement = {
    name: `${scenario.name}@half_peak_paced`,
    target: target.kind,
    baseline: null,
    connections: config.connections,
    durationSeconds: seconds,
    overallRate: rate,
    requestsPerSecond: round(latencies.length / elapsed, 1),
    latencyMs: {
      mean: round(latencies.reduce((sum, v) => sum + v, 0) / Math.max(1, latencies.length), 2),
      p50: quantile(latencies, 0.5),
      p90: quantile(latencies, 0.9),
      p99: quantile(latencies, 0.99),
      max: quantile(latencies, 1),
    },
    total: latencies.length,
    non2xx: failed,
    errors,
    timeouts: 0,
    cpuMsPerRequest: cpuPerRequest(cpuBefore, cpuAfter, latencies.length),
    sendDelayMs: { p99: quantile(sendDelays, 0.99), max: quantile(sendDelays, 1) },
  };
  log(
    `${measurement.name.padEnd(26)} ${String(measurement.requestsPerSecond).padStart(8)} req/s  p50 ${measurement.latencyMs.p50} ms  p99 ${measurement.latencyMs.p99} ms  (paced ${rate}/s; sent late by p99 ${measurement.sendDelayMs?.p99} ms, max ${measurement.sendDelayMs?.max} ms)`,
  );
  return measurement;
}

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

const randomIndex = (count: number) => 1 + Math.floor(Math.random() * count);

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

interface Seeded {
  store: StoreContext;
  liveKey: string;
  quoteId: string;
  caller: Caller;
}

async function seed(db: Database, slug: string): Promise<Seeded> {
  const store = await createStore(db, {
    slug,
    name: `Bench ${slug}`,
    pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null },
    protectionSkus: [],
    quoteOrigin: 'backend',
  });
  const live = await issueApiKey(db, { storeSlug: slug, mode: 'live', scope: 'store' });
  const caller = await authenticateApiKey(db, live.key);
  // The quote every benchmarked order names: a year's lifetime is not possible, so quotes are
  // re-issued per run (24 h is plenty for one run).
  const quote = await createQuote(db, caller, { cart: { covered: { amount: 12500, currency: 'USD' }, cart_ref: 'bench' } }, new Date());
  return { store, liveKey: live.key, quoteId: quote.id, caller };
}

async function createDatabaseIn(cluster: EmbeddedCluster, name: string): Promise<string> {
  await ensureDatabase(cluster.urlFor('postgres'), name);
  const url = cluster.urlFor(name);
  await migrate(url);
  return url;
}

const BENCH_INSERTS_DDL = `
  CREATE TABLE IF NOT EXISTS bench_inserts (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id             uuid NOT NULL,
    order_number         text NOT NULL DEFAULT ('B-' || nextval('order_number_seq')),
    source_order_id      text NOT NULL,
    source_order_number  text NOT NULL,
    status               text NOT NULL DEFAULT 'created',
    insurance_selected   boolean NOT NULL,
    subtotal_cents       bigint NOT NULL,
    order_total_cents    bigint,
    shipping_total_cents bigint,
    taxes_cents          bigint,
    customer_first_name  text,
    customer_last_name   text,
    customer_email       text,
    shipping_address     jsonb,
    line_items           jsonb NOT NULL,
    source_created_on    timestamptz(3) NOT NULL,
    created_on           timestamptz(3) NOT NULL DEFAULT now(),
    UNIQUE (store_id, source_order_id)
  )`;

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

interface Counters {
  orders: number;
  shipments: number;
  addresses: number;
  webhooks: number;
  inserts: number;
  /** What the server confirmed it created (201), for the reads and the shipments. */
  createdOrders: string[];
  createdShipments: string[];
  createdInserts: string[];
}

const newCounters = (): Counters => ({ orders: 0, shipments: 0, addresses: 0, webhooks: 0, inserts: 0, createdOrders: [], createdShipments: [], createdInserts: [] });

const pick = (values: readonly string[]): string => {
  if (values.length === 0) throw new Error('nothing created to read');
  return values[Math.floor(Math.random() * values.length)] as string;
};

/** The value of a top-level string field of a JSON answer, without parsing all of it. */
function fieldOf(body: string, field: string): string | undefined {
  const match = new RegExp(`"${field}":"([^"]+)"`).exec(body);
  return match?.[1];
}

const PLATFORM_SLUG = 'benchplatform';
const PLATFORM_SECRET = 'bench-platform-shared-secret-0123456789';

function serverScenarios(seeded: Seeded, counters: Counters, runId: string): Scenario[] {
  const auth = { token: seeded.liveKey };
  const json = { 'content-type': 'application/json' };
  const orderId = (n: number) => `bench-${runId}-${n}`;
  const shipmentPrefix = runId.slice(0, 6).toUpperCase().replace(/[^A-Z0-9]/g, '0');
  return [
    {
      name: 'quote_create',
      baseline: 'insert',
      method: 'POST',
      path: '/v2/quotes',
      headers: { ...auth, ...json },
      body: JSON.stringify({ cart: { covered: { amount: '125.00', currency: 'USD' }, cart_ref: 'cart-1001' } }),
    },
    {
      name: 'order_create',
      baseline: 'insert',
      method: 'POST',
      path: '/v2/orders',
      headers: { ...auth, ...json },
      setup: (req) => {
        counters.orders += 1;
        return { ...req, body: JSON.stringify(orderRequest(orderId(counters.orders), seeded.quoteId)) };
      },
      onResponse: (status, body) => {
        const id = status === 201 ? fieldOf(body, 'source_order_id') : undefined;
        if (id !== undefined) counters.createdOrders.push(id);
      },
    },
    {
      name: 'order_read',
      baseline: 'insert',
      method: 'GET',
      path: '/v2/orders/x',
      headers: auth,
      setup: (req) => ({ ...req, path: `/v2/orders/${pick(counters.createdOrders)}` }),
    },
    {
      name: 'shipment_create',
      baseline: 'insert',
      method: 'POST',
      path: '/v1/shipments',
      headers: { ...auth, ...json },
      setup: (req) => {
        counters.shipments += 1;
        const n = counters.shipments;
        // Spread over the orders created above, several shipments each.
        const orders = counters.createdOrders;
        const body = { tracking_number: upsTrackingNumber(shipmentPrefix, n), source_order_id: orders[n % orders.length] };
        return { ...req, body: JSON.stringify(body) };
      },
      onResponse: (status, body) => {
        const trackingNumber = status === 201 ? fieldOf(body, 'tracking_number') : undefined;
        if (trackingNumber !== undefined) counters.createdShipments.push(trackingNumber);
      },
    },
    {
      name: 'shipment_read',
      baseline: 'insert',
      method: 'GET',
      path: '/v1/shipments/x',
      headers: auth,
      setup: (req) => ({ ...req, path: `/v1/shipments/${pick(counters.createdShipments)}` }),
    },
    {
      name: 'address_verify_offline',
      baseline: 'echo',
      method: 'POST',
      path: '/v2/addresses/verify',
      headers: { ...auth, ...json },
      setup: (req) => {
        counters.addresses += 1;
        // Another house number each time, as a stream of shoppers would send.
        const address = { street_address1: `${counters.addresses} Amphitheatre Pkwy`, city: 'Mountain View', province: 'CA', zip: '94043' };
        return { ...req, body: JSON.stringify({ address }) };
      },
    },
    {
      name: 'webhook_order_placed',
      baseline: 'insert',
      method: 'POST',
      path: `/api/webhooks/${PLATFORM_SLUG}`,
      headers: json,
      setup: (req) => {
        counters.webhooks += 1;
        const raw = JSON.stringify(orderPlacedMessage(seeded.store.slug, `push-${runId}-${counters.webhooks}`, counters.webhooks));
        return { ...req, body: raw, headers: { ...json, 'x-webhook-signature': signWebhook(PLATFORM_SECRET, raw) } };
      },
    },
  ];
}

function baselineScenarios(storeId: string, counters: Counters, runId: string): { echo: Scenario; insert: Scenario; select: Scenario } {
  const json = { 'content-type': 'application/json' };
  return {
    echo: {
      name: 'baseline_echo',
      baseline: null,
      method: 'POST',
      path: '/echo',
      headers: json,
      body: JSON.stringify(orderRequest('echo-1', undefined)),
    },
    insert: {
      name: 'baseline_insert',
      baseline: null,
      method: 'POST',
      path: '/insert',
      headers: json,
      setup: (req) => {
        counters.inserts += 1;
        return { ...req, body: JSON.stringify({ store_id: storeId, ...orderRequest(`ins-${runId}-${counters.inserts}`, undefined) }) };
      },
      onResponse: (status, body) => {
        const id = status === 201 ? fieldOf(body, 'source_order_id') : undefined;
        if (id !== undefined) counters.createdInserts.push(id);
      },
    },
    select: {
      name: 'baseline_select',
      baseline: null,
      method: 'GET',
      path: '/select/x',
      setup: (req) => ({ ...req, path: `/select/${storeId}/${pick(counters.createdInserts)}` }),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Scale run: bulk load in SQL, then order create and read against 10k and 1M stored orders
// ---------------------------------------------------------------------------------------------

/** Orders from..to (inclusive) of the store, each with two line items and a booking in the ledger. */
async function loadOrderRange(client: pg.Client, storeId: string, from: number, to: number): Promise<void> {
  await client.query(
    `WITH o AS (
       INSERT INTO orders (id, store_id, source_order_id, source_order_number, insurance_selected, pricing_source,
         subtotal_cents, amount_covered_cents, order_total_cents, shipping_total_cents, taxes_cents, rate_bps,
         min_premium_cents, customer_first_name, customer_last_name, customer_email, customer_phone,
         shipping_address, platform_id, source_created_on, created_on, updated_on)
       SELECT gen_random_uuid(), $1::uuid, 'bulk-' || g, '#' || g, true, 'rate',
         12500, 12500, 14123, 995, 628, 150, 98, 'Ada', 'Lovelace', 'ada' || g || '@example.com', '+1 555 0100',
         $4::jsonb, 'api', ts, ts, ts
       FROM (SELECT g, timestamptz '2025-01-01' + g * interval '37 seconds' AS ts FROM generate_series($2::int, $3::int) g) s
       RETURNING id, store_id, source_created_on
     ), li AS (
       INSERT INTO order_line_items (id, order_id, position, source_id, name, price_cents, quantity, source_product_id, sku)
       SELECT gen_random_uuid(), o.id, p, 'li_' || (p + 1), 'Walnut desk organiser', 5000 + p * 1000, 2 - p, 'p_' || (p + 1), 'SKU-' || p
       FROM o CROSS JOIN generate_series(0, 1) p
     )
     INSERT INTO premium_ledger_entries (store_id, order_id, amount_cents, reason, effective_at)
     SELECT o.store_id, o.id, 188, 'booking', o.source_created_on FROM o`,
    [storeId, from, to, JSON.stringify(SHIPPING_DETAILS)],
  );
}

/**
 * Loads orders from..to in batches of 50k over two connections (two cores). The loading sessions
 * skip foreign-key checks (session_replication_role = replica: the rows are consistent by
 * construction) and the cluster checkpoints less often meanwhile; every index is maintained as
 * usual, so the indexes are those the service would have built itself.
 */
async function bulkLoadOrders(url: string, storeId: string, from: number, to: number): Promise<void> {
  const BATCH = 50_000;
  const batches: Array<[number, number]> = [];
  for (let start = from; start <= to; start += BATCH) batches.push([start, Math.min(to, start + BATCH - 1)]);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("ALTER SYSTEM SET max_wal_size = '16GB'");
  await admin.query("ALTER SYSTEM SET checkpoint_timeout = '1h'");
  await admin.query('SELECT pg_reload_conf()');
  const started = Date.now();
  let done = 0;
  const worker = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("SET session_replication_role = 'replica'");
    await client.query('SET synchronous_commit = off');
    try {
      for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) {
        await loadOrderRange(client, storeId, batch[0], batch[1]);
        done += batch[1] - batch[0] + 1;
        if (done % 200_000 < BATCH) log(`  loaded ${done} of ${to - from + 1} orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    } finally {
      await client.end();
    }
  };
  try {
    await Promise.all([worker(), worker()]);
  } finally {
    await admin.query('ALTER SYSTEM RESET max_wal_size');
    await admin.query('ALTER SYSTEM RESET checkpoint_timeout');
    await admin.query('SELECT pg_reload_conf()');
    await admin.end();
  }
  log(`  loaded orders ${from}..${to} (+${2 * (to - from + 1)} line items, +${to - from + 1} ledger entries) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function tableSizes(client: pg.Client): Promise<Record<string, string>> {
  const { rows } = await client.query<{ relname: string; size: string }>(
    `SELECT relname, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class
      WHERE relname IN ('orders', 'order_line_items', 'premium_ledger_entries') ORDER BY relname`,
  );
  return Object.fromEntries(rows.map((row) => [row.relname, row.size]));
}

// ---------------------------------------------------------------------------------------------
// Query plans: the exact SQL Prisma issues, from its query log, then EXPLAIN (ANALYZE, BUFFERS)
// ---------------------------------------------------------------------------------------------

interface CapturedQuery {
  query: string;
  params: unknown[];
}

interface Plan {
  name: string;
  sql: string;
  plan: string[];
  indexes: string[];
}

/**
 * Every statement this process sends through node-postgres while `capturing` is set: what goes on
 * the wire, whether Prisma built it or the service's own hot statements (which bypass Prisma's log).
 */
let capturing: CapturedQuery[] | null = null;
const originalQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function capture(this: pg.Client, ...args: unknown[]) {
  const [first, second] = args;
  if (capturing) {
    const config = typeof first === 'string' ? { text: first, values: second } : (first as { text?: string; values?: unknown } | null);
    if (config?.text !== undefined) capturing.push({ query: config.text, params: Array.isArray(config.values) ? config.values : [] });
  }
  return originalQuery.apply(this, args);
};

async function capturePlans(url: string, liveKey: string, sourceOrderId: string, quoteId: string): Promise<{ plans: Plan[]; perRequest: Record<string, string[]> }> {
  const db = createDatabase(url, { poolSize: 2 });
  const perRequest: Record<string, string[]> = {};
  const take = async <T>(label: string, action: () => Promise<T>): Promise<{ value: T; queries: CapturedQuery[] }> => {
    await action(); // the first call also connects
    capturing = [];
    const value = await action();
    const queries = capturing;
    capturing = null;
    perRequest[label] = queries.map((q) => q.query.replace(/\s+/g, ' ').trim());
    return { value, queries };
  };
  try {
    const auth = await take('api_key_lookup', () => authenticateApiKey(db, liveKey));
    const read = await take('order_read', () => getOrder(db, auth.value, sourceOrderId));
    const quote = await take('quote_lookup', () => resolveQuote(db, auth.value.store.id, quoteId, 12500, new Date()));
    const isSelect = (q: CapturedQuery) => /^\s*(WITH|SELECT)/i.test(q.query);
    const readSelects = read.queries.filter(isSelect);
    const wanted: Array<[string, CapturedQuery | undefined]> = [
      ['API-key lookup by hash', auth.queries.find(isSelect)],
      [
        readSelects.length === 1
          ? "order read by (store_id, source_order_id), with the order's line items and ledger entries as SubPlans"
          : 'order read by (store_id, source_order_id)',
        readSelects[0],
      ],
      ...read.queries
        .filter(isSelect)
        .slice(1)
        .map((q): [string, CapturedQuery] => [/order_line_items/.test(q.query) ? "the order's line items" : /premium_ledger_entries/.test(q.query) ? "the order's ledger entries" : 'order read, further query', q]),
      ['quote lookup', quote.queries.find(isSelect)],
    ];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const plans: Plan[] = [];
    try {
      for (const [name, query] of wanted) {
        if (!query) continue;
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query.query}`, query.params);
        const plan = rows.map((row) => row['QUERY PLAN']);
        const indexes = [...new Set(plan.flatMap((line) => [...line.matchAll(/(?:using|Bitmap Index Scan on) (\S+)/gi)].map((m) => m[1] as string)))];
        plans.push({ name, sql: query.query.replace(/\s+/g, ' ').trim(), plan, indexes });
      }
    } finally {
      await client.end();
    }
    return { plans, perRequest };
  } finally {
    await db.$disconnect();
  }
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean;
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const loadAtStart = os.loadavg().map((value) => round(value, 2));
  const dataDir = mkdtempSync(join(os.tmpdir(), 'op-bench-pg-'));
  log(`embedded PostgreSQL in ${dataDir}`);
  // A quarter of this machine's memory would be the usual production setting; 1 GB holds the 1M-order
  // scale run's hot indexes, where the embedded default (128 MB) would measure the OS page cache.
  const cluster = await startEmbeddedCluster({ dataDir, settings: { shared_buffers: config.sharedBuffers } });
  postmasterPid = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const targets: Target[] = [];
  try {
    const url = await createDatabaseIn(cluster, 'bench');
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    const pgVersion = (await setup.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? '?';
    const sharedBuffers = (await setup.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers ?? '?';
    await setup.query(BENCH_INSERTS_DDL);
    await setup.end();

    const db = createDatabase(url, { poolSize: 2 });
    const seeded = await seed(db, 'bench-store');
    await createPlatform(db, PLATFORM_SLUG, PLATFORM_SECRET);
    await connectStore(db, seeded.store.slug, PLATFORM_SLUG);
    await db.$disconnect();
    const runId = randomUUID().slice(0, 8);
    if (detectCarrier(upsTrackingNumber('ABCDEF', 1)) !== 'ups') throw new Error('the generated tracking numbers are not detected as UPS');

    const counters = newCounters();
    const wants = (name: string) => config.only.length === 0 || config.only.includes(name);

    // All four targets stay up (idle when not driven). Each scenario is measured right after its
    // baseline, and its ratio is taken against that adjacent run: other work on the machine moves
    // both alike, while a baseline measured minutes apart would not.
    const baselines = baselineScenarios(seeded.store.id, counters, runId);
    const echo = await startTarget('echo', url);
    const insert = await startTarget('insert', url);
    const server = await startTarget('server', url);
    const addressFloor = await startTarget('address-floor', url);
    targets.push(echo, insert, server, addressFloor);
    // The one-SELECT read needs rows to read.
    await fire(insert, baselines.insert, 1);

    const scenarios = serverScenarios(seeded, counters, runId);
    const results: Result[] = [];
    for (const scenario of scenarios) {
      // Reads and shipments need orders: order_create always runs (briefly when not wanted).
      if (!wants(scenario.name)) {
        if (scenario.name === 'order_create' || (scenario.name === 'shipment_create' && wants('shipment_read'))) {
          await fire(server, scenario, 2);
        }
        continue;
      }
      const kind = scenario.baseline ?? 'echo';
      const baseline = await measure(kind === 'echo' ? echo : insert, baselines[kind]);
      const measured = await measure(server, scenario);
      // Reads are also set against a read that asks the database once, and the address verify
      // against its route with nothing but the framework around it (information, not targets).
      const reference = scenario.name.endsWith('_read')
        ? await measure(insert, baselines.select)
        : scenario.name === 'address_verify_offline'
          ? await measure(addressFloor, { ...scenario, name: 'address_floor' })
          : undefined;
      results.push({
        ...measured,
        baselineRun: baseline,
        ratio: round(measured.requestsPerSecond / baseline.requestsPerSecond, 2),
        ...(reference ? { reference: { run: reference, ratio: round(measured.requestsPerSecond / reference.requestsPerSecond, 2) } } : {}),
      });
    }

    // p99 at half the peak rate, for the order endpoints (the write class and the read class).
    const halfRate: Measurement[] = [];
    for (const name of ['order_create', 'order_read']) {
      const peak = results.find((r) => r.name === name);
      const scenario = scenarios.find((s) => s.name === name);
      if (!peak || !scenario) continue;
      const rate = Math.max(1, Math.floor(peak.requestsPerSecond / 2));
      halfRate.push({ ...(await measure(server, scenario, { overallRate: rate, warmup: false })), name: `${name}@half_peak` });
      halfRate.push(await paced(server, scenario, rate, config.duration));
    }
    for (const target of [server, echo, insert, addressFloor]) await target.stop();

    // ---- the scale run ----
    let scale: Record<string, unknown> | null = null;
    let plans: Plan[] = [];
    let queriesPerRequest: Record<string, string[]> = {};
    if (config.scale) {
      log(`scale run: ${config.scaleSmall} then ${config.scaleLarge} orders stored`);
      const scaleUrl = await createDatabaseIn(cluster, 'bench_scale');
      const scaleDb = createDatabase(scaleUrl, { poolSize: 2 });
      const scaleSeed = await seed(scaleDb, 'scale-store');
      await scaleDb.$disconnect();
      const loader = new pg.Client({ connectionString: scaleUrl });
      await loader.connect();
      const scaleCounters = newCounters();
      const scaleRunId = `s${randomUUID().slice(0, 6)}`;
      let stored = 0;
      const bulkRead = (count: () => number): Scenario => ({
        name: 'order_read',
        baseline: null,
        method: 'GET',
        path: '/v2/orders/x',
        headers: { token: scaleSeed.liveKey },
        // Any of the bulk-loaded orders, uniformly: the whole index is in play.
        setup: (req) => ({ ...req, path: `/v2/orders/bulk-${randomIndex(count())}` }),
      });
      const create = serverScenarios(scaleSeed, scaleCounters, scaleRunId).find((s) => s.name === 'order_create') as Scenario;
      const runAt = async (size: number) => {
        const loadStarted = Date.now();
        await bulkLoadOrders(scaleUrl, scaleSeed.store.id, stored + 1, size);
        stored = size;
        await loader.query('VACUUM ANALYZE orders');
        await loader.query('VACUUM ANALYZE order_line_items');
        await loader.query('VACUUM ANALYZE premium_ledger_entries');
        await loader.query('CHECKPOINT');
        const loadSeconds = round((Date.now() - loadStarted) / 1000, 1);
        log(`  ${size} orders stored (load + vacuum ${loadSeconds} s): ${JSON.stringify(await tableSizes(loader))}`);
        const target = await startTarget('server', scaleUrl);
        targets.push(target);
        const read = await measure(target, bulkRead(() => stored));
        const created = await measure(target, create);
        await target.stop();
        return { ordersStored: size, loadSeconds, sizes: await tableSizes(loader), order_read: read, order_create: created };
      };
      const small = await runAt(config.scaleSmall);
      const large = await runAt(config.scaleLarge);
      await loader.end();
      const latencyRatio = (name: 'order_read' | 'order_create', key: 'mean' | 'p50' | 'p99') =>
        round(large[name].latencyMs[key] / Math.max(0.01, small[name].latencyMs[key]), 2);
      scale = {
        small,
        large,
        ratios: {
          order_read: { mean: latencyRatio('order_read', 'mean'), p50: latencyRatio('order_read', 'p50'), p99: latencyRatio('order_read', 'p99') },
          order_create: { mean: latencyRatio('order_create', 'mean'), p50: latencyRatio('order_create', 'p50'), p99: latencyRatio('order_create', 'p99') },
        },
      };
      const captured = await capturePlans(scaleUrl, scaleSeed.liveKey, `bulk-${Math.ceil(config.scaleLarge / 2)}`, scaleSeed.quoteId);
      plans = captured.plans;
      queriesPerRequest = captured.perRequest;
    } else {
      const captured = await capturePlans(url, seeded.liveKey, `bench-${runId}-1`, seeded.quoteId);
      plans = captured.plans;
      queriesPerRequest = captured.perRequest;
    }

    // ---- targets ----
    const find = (name: string) => results.find((r) => r.name === name);
    const checks: TargetCheck[] = [];
    const ratioCheck = (name: string, minimum: number, label: string) => {
      const m = find(name);
      if (!m) return;
      const ratio = m.ratio;
      const clean = m.non2xx + m.errors + m.timeouts === 0;
      checks.push({ target: `${label} >= ${minimum}x ${m.baseline} baseline`, measured: `${ratio}x${clean ? '' : ' (with failed requests)'}`, pass: clean && ratio >= minimum });
    };
    ratioCheck('order_create', 0.5, 'order create');
    ratioCheck('quote_create', 0.7, 'quote create');
    ratioCheck('order_read', 0.7, 'order read');
    ratioCheck('shipment_read', 0.7, 'shipment read');
    ratioCheck('address_verify_offline', 0.8, 'offline address verify');
    for (const m of halfRate) {
      const paced = m.name.endsWith('_paced');
      const name = m.name.replace(/@half_peak(_paced)?$/, '');
      checks.push({
        target: `${name} p99 <= 25 ms at half peak (${m.overallRate}/s, ${paced ? 'evenly paced' : 'autocannon overallRate'})`,
        measured: `${m.latencyMs.p99} ms`,
        pass: m.latencyMs.p99 <= 25 && m.non2xx + m.errors === 0,
      });
    }
    if (scale) {
      const ratios = scale.ratios as Record<string, { mean: number; p50: number; p99: number }>;
      for (const name of ['order_create', 'order_read']) {
        const r = ratios[name] as { mean: number; p50: number; p99: number };
        checks.push({ target: `${name} mean latency at ${config.scaleLarge} <= 1.2x at ${config.scaleSmall}`, measured: `${r.mean}x (p50 ${r.p50}x, p99 ${r.p99}x)`, pass: r.mean <= 1.2 });
      }
    }

    // ---- output ----
    const cpus = os.cpus();
    const report = {
      generatedAt: new Date().toISOString(),
      elapsedSeconds: round((Date.now() - startedAt) / 1000, 1),
      machine: {
        cpus: cpus.length,
        cpuModel: cpus[0]?.model ?? '?',
        memoryGiB: round(os.totalmem() / 2 ** 30, 1),
        node: process.version,
        postgres: pgVersion,
        sharedBuffers,
        // Other work on the machine skews every figure; the ratios within one run are what to compare.
        loadAverage: { atStart: loadAtStart, atEnd: os.loadavg().map((value) => round(value, 2)) },
      },
      config: { ...config, output: undefined },
      results,
      halfRate,
      targets: checks,
      scale,
      queriesPerRequest,
      plans,
    };
    mkdirSync(dirname(config.output), { recursive: true });
    writeFileSync(config.output, `${JSON.stringify(report, null, 2)}\n`);

    const failed = (m: Measurement) => String(m.non2xx + m.errors + m.timeouts);
    const rows = [['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'baseline', 'baseline req/s', 'ratio', 'reference', 'reference req/s', 'ratio to reference', 'failed', 'node cpu ms/req', 'pg cpu ms/req']];
    for (const m of results) {
      rows.push([
        m.name,
        m.requestsPerSecond.toFixed(0),
        String(m.latencyMs.p50),
        String(m.latencyMs.p99),
        m.baseline ?? '',
        m.baselineRun.requestsPerSecond.toFixed(0),
        m.ratio.toFixed(2),
        m.reference?.run.name.replace(/^baseline_/, '') ?? '',
        m.reference ? m.reference.run.requestsPerSecond.toFixed(0) : '',
        m.reference ? m.reference.ratio.toFixed(2) : '',
        failed(m),
        m.cpuMsPerRequest.target.toFixed(2),
        m.cpuMsPerRequest.postgres.toFixed(2),
      ]);
    }
    for (const m of halfRate) {
      rows.push([m.name, m.requestsPerSecond.toFixed(0), String(m.latencyMs.p50), String(m.latencyMs.p99), `rate ${m.overallRate}/s`, '', '', '', '', '', failed(m), m.cpuMsPerRequest.target.toFixed(2), m.cpuMsPerRequest.postgres.toFixed(2)]);
    }
    let out = `\nMachine: ${report.machine.cpus} x ${report.machine.cpuModel}, ${report.machine.memoryGiB} GiB, Node ${report.machine.node}, PostgreSQL ${pgVersion}; load average ${loadAtStart[0]} at start, ${report.machine.loadAverage.atEnd[0]} at end\n`;
    out += `Load: ${config.connections} connections, ${config.duration} s per run (+${config.warmup} s warm-up); each ratio is to the baseline run just before it\n\n`;
    out += `${table(rows)}\n`;
    if (scale) {
      const s = scale as { small: Record<string, Measurement>; large: Record<string, Measurement> };
      const scaleRows = [['scale', 'orders', 'req/s', 'mean ms', 'p50 ms', 'p99 ms']];
      for (const size of [s.small, s.large]) {
        for (const name of ['order_read', 'order_create']) {
          const m = size[name] as Measurement;
          scaleRows.push([name, String((size as unknown as { ordersStored: number }).ordersStored), m.requestsPerSecond.toFixed(0), String(m.latencyMs.mean), String(m.latencyMs.p50), String(m.latencyMs.p99)]);
        }
      }
      out += `\n${table(scaleRows)}\n`;
    }
    out += `\n${table([['target', 'measured', ''], ...checks.map((c) => [c.target, c.measured, c.pass ? 'PASS' : 'FAIL'])])}\n`;
    out += '\nQuery plans (EXPLAIN ANALYZE, BUFFERS):\n';
    for (const plan of plans) out += `\n-- ${plan.name} [${plan.indexes.join(', ') || 'no index'}]\n${plan.sql}\n${plan.plan.map((l) => `   ${l}`).join('\n')}\n`;
    out += `\nQueries per request: ${Object.entries(queriesPerRequest).map(([k, v]) => `${k} ${v.length}`).join(', ')}\n`;
    out += `Written to ${config.output} in ${report.elapsedSeconds} s.\n`;
    process.stdout.write(out);
  } finally {
    for (const target of targets) await target.stop().catch(() => undefined);
    for (const child of children) child.kill('SIGKILL');
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  },
);
