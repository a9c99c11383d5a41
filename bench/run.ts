// npm run bench: the service's speed against the physical floor of this machine (docs/performance.md).
//
// One embedded PostgreSQL in a temp dir; the real server and the baselines (a bare Express echo, and
// a bare Express handler doing one pg INSERT of an order-shaped row, which also answers one indexed
// SELECT of such a row) each in a child process of its own, started the same way (bench/target.ts),
// and, for reference, the quote, order, shipment and address routes alone on bare ts-rest and
// Express (the route floor).
// autocannon drives them from this process at a fixed concurrency; every scenario runs right after
// its baseline and is compared with that run. Then p99 at half the peak rate, a scale run (order
// create and read with 10k and 1M orders stored, bulk-loaded in SQL) and the EXPLAIN (ANALYZE,
// BUFFERS) plans of the hot queries, as captured on the wire (node-postgres) from the service's own
// code. Results go to bench/results/latest.json and a table to stdout.
//
// This file is the run's outline; the parts are modules of their own:
//   bench/config.ts       the settings (environment variables, listed there)
//   bench/seed.ts         databases, the bench store, key, quote and platform
//   bench/scenarios.ts    what is measured: the server's scenarios and their baselines
//   bench/targets.ts      the target child processes (bench/target.ts)
//   bench/measurement.ts  load generation, the paced runs and their quantiles, CPU sampling
//   bench/retention-sweep.ts  the events' retention sweep at 10M events, DELETE batches against dropped days
//   bench/scale.ts        the scale run (bulk load, then order read and create, and the console's searches)
//   bench/delivery.ts     the delivery run (a burst of events to one endpoint answering in 100 ms)
//   bench/tracking-volume.ts  the tracking run (a million active shipments' poll jobs in the queue)
//   bench/two-instances.ts  two server processes on one database: together, and their shared limits
//   bench/plans.ts        the query plans, from statements captured by bench/statements.ts
//   bench/report.ts       the targets checked, the results file and the printed tables
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase } from '../server/db/client.js';
import { startEmbeddedCluster } from '../server/db/embedded.js';
import { detectCarrier } from '../server/domain/shipments/index.js';
import { actingFor } from '../server/domain/access/index.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { config, log, round } from './config.js';
import { fire, measure, paced, trackPostgres, type Measurement } from './measurement.js';
import { capturePlans, type CapturedPlans } from './plans.js';
import { medianRound, targetChecks, writeReport, type Result } from './report.js';
import { upsTrackingNumber } from './requests.js';
import { deliveryRun } from './delivery.js';
import { trackingVolumeRun } from './tracking-volume.js';
import { retentionSweepRun } from './retention-sweep.js';
import { scaleRun, type ScaleResult } from './scale.js';
import { baselineScenarios, newCounters, serverScenarios } from './scenarios.js';
import { BENCH_INSERTS_DDL, createDatabaseIn, PLATFORM_SECRET, PLATFORM_SLUG, seed, BENCH_OPERATOR } from './seed.js';
import { killTargets, startTarget, type Target } from './targets.js';
import { twoInstancesRun } from './two-instances.js';

/** The scenarios also measured on the route floor (bench/app.ts), right after the server. */
const FLOORED = new Set(['quote_create', 'order_create', 'shipment_create', 'address_verify_offline', 'webhook_order_placed', 'webhook_fulfillment_created', 'webhook_refund_created']);

/** With BENCH_DIAGNOSTICS: what PostgreSQL should report (lock waits past 5 ms, checkpoints, statements over 15 ms). */
function postgresDiagnostics(): Record<string, string> {
  if (config.diagnostics === undefined) return {};
  return {
    log_lock_waits: 'on',
    deadlock_timeout: '5ms',
    log_checkpoints: 'on',
    log_min_duration_statement: '15',
    log_autovacuum_min_duration: '0',
    log_line_prefix: '%m [%p] ',
  };
}

function postgresLog(): ((message: string) => void) | undefined {
  const directory = config.diagnostics;
  if (directory === undefined) return undefined;
  mkdirSync(directory, { recursive: true });
  return (message) => appendFileSync(join(directory, 'postgres.log'), `${message}\n`);
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const loadAtStart = os.loadavg().map((value) => round(value, 2));
  const dataDir = mkdtempSync(join(os.tmpdir(), 'op-bench-pg-'));
  log(`embedded PostgreSQL in ${dataDir}`);
  // A quarter of this machine's memory would be the usual production setting; 1 GB holds the 1M-order
  // scale run's hot indexes, where the embedded default (128 MB) would measure the OS page cache.
  const cluster = await startEmbeddedCluster({ dataDir, settings: { shared_buffers: config.sharedBuffers, ...postgresDiagnostics() }, onLog: postgresLog() });
  trackPostgres(Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]));
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
    await createPlatform(db, BENCH_OPERATOR, PLATFORM_SLUG, PLATFORM_SECRET);
    await connectStore(db, actingFor(BENCH_OPERATOR, seeded.store), PLATFORM_SLUG);
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
    const routeFloor = await startTarget('route-floor', url);
    targets.push(echo, insert, server, routeFloor);
    // The one-SELECT read needs rows to read.
    await fire(insert, baselines.insert, 1);

    const scenarios = serverScenarios(seeded, counters, runId);
    // With --repeat, every scenario and its baseline run again in each round; the report keeps
    // the round with the median ratio and the spread of all of them.
    const rounds = new Map<string, Result[]>();
    for (let round_ = 1; round_ <= config.repeat; round_ += 1) {
      if (config.repeat > 1) log(`round ${round_} of ${config.repeat}`);
      for (const scenario of scenarios) {
        // Reads, shipments and a platform's fulfilments and refunds need what the creates made:
        // those creates always run (briefly when not wanted).
        if (!wants(scenario.name)) {
          const needed =
            (scenario.name === 'order_create') ||
            (scenario.name === 'shipment_create' && wants('shipment_read')) ||
            (scenario.name === 'webhook_order_placed' && (wants('webhook_fulfillment_created') || wants('webhook_refund_created')));
          if (needed && round_ === 1) await fire(server, scenario, 2);
          continue;
        }
        const kind = scenario.baseline ?? 'echo';
        const baseline = await measure(kind === 'echo' ? echo : insert, baselines[kind]);
        const measured = await measure(server, scenario);
        // Reads are also set against a read that asks the database once, and the REST writes and
        // the address verify against their routes with nothing but the framework around them.
        const reference = scenario.name.endsWith('_read')
          ? await measure(insert, baselines.select)
          : FLOORED.has(scenario.name)
            ? await measure(routeFloor, { ...scenario, name: `${scenario.name}@route_floor` })
            : undefined;
        const ratio = round(measured.requestsPerSecond / baseline.requestsPerSecond, 2);
        rounds.set(scenario.name, [
          ...(rounds.get(scenario.name) ?? []),
          {
            ...measured,
            baselineRun: baseline,
            ratio,
            ratios: [ratio],
            referenceRatios: [],
            ...(reference ? { reference: { run: reference, ratio: round(measured.requestsPerSecond / reference.requestsPerSecond, 2) } } : {}),
          },
        ]);
      }
    }
    const results: Result[] = [...rounds.values()].map(medianRound);

    // p99 at half the peak rate: the order endpoints (autocannon's rate and evenly paced), and order
    // and shipment create paced against the INSERT baseline paced at the same rate, then on the route
    // floor. With --repeat the paced runs are repeated too, each pair back to back, and the target
    // takes the median p99 of each side (bench/report.ts): one run's p99 moves as much as the gap.
    const halfRate: Measurement[] = [];
    for (const name of ['order_create', 'order_read', 'shipment_create']) {
      const peak = results.find((r) => r.name === name);
      const scenario = scenarios.find((s) => s.name === name);
      if (!peak || !scenario) continue;
      const rate = Math.max(1, Math.floor(peak.requestsPerSecond / 2));
      if (name !== 'shipment_create') halfRate.push({ ...(await measure(server, scenario, { overallRate: rate, warmup: false })), name: `${name}@half_peak` });
      for (let pacedRound = 1; pacedRound <= (name.endsWith('_create') ? config.repeat : 1); pacedRound += 1) {
        if (name.endsWith('_create')) {
          const baselinePaced = await paced(insert, { ...baselines.insert, name: `baseline_insert_for_${name}` }, rate, config.duration);
          halfRate.push({ ...baselinePaced, target: 'insert' });
        }
        halfRate.push(await paced(server, scenario, rate, config.duration));
        // The same rate on the route floor: how much of the tail the framework and the path's own
        // work make, with none of the service's cross-cutting work.
        if (name.endsWith('_create') && FLOORED.has(name)) halfRate.push(await paced(routeFloor, { ...scenario, name: `${name}@route_floor` }, rate, config.duration));
      }
    }
    // Two server processes on one database: together, and their shared limits.
    const orderCreate = scenarios.find((s) => s.name === 'order_create');
    const quoteCreate = scenarios.find((s) => s.name === 'quote_create');
    const twoInstances = config.twoInstances && orderCreate && quoteCreate ? await twoInstancesRun(url, server, orderCreate, quoteCreate, (target) => targets.push(target)) : null;
    for (const target of [server, echo, insert, routeFloor]) await target.stop();
    // One endpoint receiving a burst of events (bench/delivery.ts).
    const delivery = config.delivery ? await deliveryRun(url, (target) => targets.push(target)) : null;
    // A million active shipments' poll jobs in the queue (bench/tracking-volume.ts).
    const tracking = config.trackingShipments > 0 ? await trackingVolumeRun(cluster) : null;
    // The events' retention sweep with ten million stored, the old way and the new (bench/retention-sweep.ts).
    const retention = config.retentionEvents > 0 ? await retentionSweepRun(cluster) : null;

    // The scale run, and the query plans: with the large scale stored, or else in this database.
    let scale: ScaleResult | null = null;
    let captured: CapturedPlans;
    if (config.scale) {
      const scaled = await scaleRun(cluster, targets);
      scale = scaled.scale;
      captured = await capturePlans(scaled.url, scaled.seeded.liveKey, `bulk-${Math.ceil(config.scaleLarge / 2)}`, scaled.seeded.quoteId);
    } else {
      captured = await capturePlans(url, seeded.liveKey, `bench-${runId}-1`, seeded.quoteId);
    }

    const checks = targetChecks(results, halfRate, scale, twoInstances, delivery);
    writeReport({ startedAt, loadAtStart, pgVersion, sharedBuffers }, { results, halfRate, checks, scale, captured, twoInstances, delivery, tracking, retention });
  } finally {
    for (const target of targets) await target.stop().catch(() => undefined);
    killTargets();
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    killTargets();
    process.exit(1);
  },
);
