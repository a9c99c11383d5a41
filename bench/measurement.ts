// Measurement for the benchmark (bench/run.ts): load generation with autocannon at a fixed
// concurrency (or autocannon's overallRate), an evenly paced open-loop run of our own with its
// quantiles, and CPU sampling from Linux /proc, per request, for the target process, every
// PostgreSQL backend and the load generator. What is measured is in bench/scenarios.ts.
import http from 'node:http';
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { config, log, round } from './config.js';
import type { Target, TargetKind } from './targets.js';

export type AutocannonRequest = autocannon.Request;
type AutocannonResult = autocannon.Result;

// ---------------------------------------------------------------------------------------------
// CPU accounting (Linux /proc): where a request's CPU goes, per process group
// ---------------------------------------------------------------------------------------------

const CLOCK_TICKS_PER_SECOND = 100;
/** The postmaster of the bench's cluster, set once it runs (trackPostgres); its children are the backends. */
let postmasterPid: number | null = null;

/** From now on, CPU per request includes the postmaster `pid` and all its backends. */
export function trackPostgres(pid: number): void {
  postmasterPid = pid;
}

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

// ---------------------------------------------------------------------------------------------
// Load generation
// ---------------------------------------------------------------------------------------------

/** One kind of request to drive: a fixed request, or one set up afresh for every send. */
export interface Scenario {
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

export interface Measurement {
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

/** Drives `scenario` at the configured concurrency for `seconds`, measuring nothing (warm-ups, fill-ups). */
export async function fire(target: Target, scenario: Scenario, seconds: number, overallRate?: number, connections = config.connections): Promise<AutocannonResult> {
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
    connections,
    duration: seconds,
    timeout: 30,
    ...(overallRate === undefined ? {} : { overallRate }),
    requests: [request],
  });
}

/**
 * One measured run of `scenario` against `target`: a warm-up (unless `warmup: false`), then
 * config.duration seconds at the configured concurrency, with the CPU each part spent per request.
 */
export async function measure(target: Target, scenario: Scenario, options: { overallRate?: number; warmup?: boolean; connections?: number } = {}): Promise<Measurement> {
  const connections = options.connections ?? config.connections;
  if (options.warmup !== false && config.warmup > 0) await fire(target, scenario, config.warmup, undefined, connections);
  const cpuBefore = cpuSnapshot(target);
  const result = await fire(target, scenario, config.duration, options.overallRate, connections);
  const cpuAfter = cpuSnapshot(target);
  const measurement: Measurement = {
    name: scenario.name,
    target: target.kind,
    baseline: scenario.baseline,
    connections,
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

/** The q-quantile of ascending `sorted` values, to 0.1 (q = 1 is the largest value; 0 when empty). */
export function quantile(sorted: readonly number[], q: number): number {
  return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0, 1);
}

/**
 * Evenly paced, open-loop load at `rate` per second over up to `connections` keep-alive sockets:
 * request i is due at start + i / rate, and its latency counts from when it was due, so a request
 * that waited for a free socket or a late timer is not hidden. autocannon's overallRate is not
 * paced: each connection sends back to back until its quota for the current second is used, so half
 * the peak rate there is full load for about half of every second. This shows both. The measured
 * seconds follow a warm-up at the same rate over the same sockets.
 */
export async function paced(target: Target, scenario: Scenario, rate: number, seconds: number): Promise<Measurement> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: config.connections });
  const url = new URL(target.baseUrl);
  const latencies: number[] = [];
  // With BENCH_DIAGNOSTICS: every request slower than 20 ms, by when it was due, to line up with the server's seconds.
  const slow: string[] = [];
  const wallOffset = Date.now() - performance.now();
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
            const latency = performance.now() - due;
            latencies.push(latency);
            if (config.diagnostics !== undefined && latency > 20) slow.push(`${new Date(wallOffset + due).toISOString()} ${latency.toFixed(1)} ms`);
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
  const pace = async (secondsToRun: number) => {
    const start = performance.now();
    const total = Math.floor(rate * secondsToRun);
    for (let i = 0; i < total; i += 1) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolveWait) => setTimeout(resolveWait, wait));
      send(due);
    }
    await Promise.all(inFlight);
    return (performance.now() - start) / 1000;
  };
  // A warm-up at the same rate, as before every autocannon run: the target sat idle through the run
  // before, long enough for its pool to close idle connections, and the first half second of a cold
  // start (new connections, statements prepared again) would otherwise be the p99.
  if (config.warmup > 0) {
    await pace(config.warmup);
    latencies.length = 0;
    sendDelays.length = 0;
    slow.length = 0;
    failed = 0;
    errors = 0;
  }
  const cpuBefore = cpuSnapshot(target);
  const elapsed = await pace(seconds);
  const cpuAfter = cpuSnapshot(target);
  agent.destroy();
  if (config.diagnostics !== undefined) {
    mkdirSync(config.diagnostics, { recursive: true });
    appendFileSync(join(config.diagnostics, `paced-${scenario.name}.log`), `${slow.sort().join('\n')}\n`);
  }
  latencies.sort((a, b) => a - b);
  sendDelays.sort((a, b) => a - b);
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
