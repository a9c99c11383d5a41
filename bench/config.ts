// The benchmark's settings (npm run bench, bench/run.ts), read once from the environment:
//
//   BENCH_DURATION=10        seconds per measured run        BENCH_CONNECTIONS=16   concurrent connections
//   BENCH_WARMUP=2           seconds of warm-up before each  BENCH_POOL_SIZE=10     DB connections per target
//   BENCH_SCALE_SMALL=10000  BENCH_SCALE_LARGE=1000000       orders stored in the two scale runs
//   BENCH_SCALE=0            skip the scale run              BENCH_ONLY=a,b         only these scenarios (bench/scenarios.ts)
//   BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=bench/results/prof"   extra node flags for the server child
//   BENCH_ALLOCATION_PROFILE=bench/results/prof   a sampling profile of every allocation the server
//                            makes, freed ones included (bench/allocation-profile.ts); with
//                            BENCH_ALLOCATION_SURVIVORS=1, only what outlived the young generation
//   BENCH_DIAGNOSTICS=bench/results/diagnostics   the server's event-loop delay and GC pauses each
//                            second, PostgreSQL's lock waits, checkpoints and slow statements, and
//                            timestamps on the bench's lines, to line a slow tail up with its cause;
//                            the paced runs add paced-<scenario>.log, each request over 20 ms by when it was due
//   BENCH_OUTPUT=bench/results/latest.json   BENCH_SHARED_BUFFERS=1GB (PostgreSQL's shared_buffers)
//   BENCH_TWO_INSTANCES=0    skip the run with two server processes on one database
//   BENCH_RETENTION_EVENTS=10000000   events stored for the retention sweep run (0 skips it)
//   BENCH_REPEAT=3 (or `npm run bench -- --repeat 3`)   every scenario and its baseline N times: the
//                            median ratio and the spread are reported
//
// A quick check that the harness still starts, measures and prints (about half a minute):
//   BENCH_SCALE=0 BENCH_DURATION=1 BENCH_WARMUP=0 BENCH_ONLY=quote_create BENCH_OUTPUT=/tmp/bench.json npm run bench
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This directory (bench/) and the repository root. */
export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..');

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

/** `--repeat N` on the command line, else BENCH_REPEAT, else 1. */
function repeatCount(): number {
  const flag = process.argv.indexOf('--repeat');
  const raw = flag >= 0 ? process.argv[flag + 1] : process.env.BENCH_REPEAT;
  if (raw === undefined || raw === '') return 1;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1) throw new Error('--repeat (BENCH_REPEAT) must be a whole number of runs, 1 or more');
  return count;
}

export const config = {
  repeat: repeatCount(),
  duration: numberFromEnv('BENCH_DURATION', 10),
  connections: numberFromEnv('BENCH_CONNECTIONS', 16),
  warmup: numberFromEnv('BENCH_WARMUP', 2),
  poolSize: numberFromEnv('BENCH_POOL_SIZE', 10),
  scaleSmall: numberFromEnv('BENCH_SCALE_SMALL', 10_000),
  scaleLarge: numberFromEnv('BENCH_SCALE_LARGE', 1_000_000),
  scale: process.env.BENCH_SCALE !== '0',
  twoInstances: process.env.BENCH_TWO_INSTANCES !== '0',
  delivery: process.env.BENCH_DELIVERY !== '0',
  /** Events stored for the retention run, over 31 days (0: no retention run). */
  retentionEvents: numberFromEnv('BENCH_RETENTION_EVENTS', 10_000_000),
  /** Active shipments whose poll jobs the tracking run queues (0: no tracking run). */
  trackingShipments: numberFromEnv('BENCH_TRACKING_SHIPMENTS', 1_000_000),
  only: (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  serverNodeOptions: (process.env.BENCH_SERVER_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
  allocationProfile: process.env.BENCH_ALLOCATION_PROFILE ? resolve(root, process.env.BENCH_ALLOCATION_PROFILE) : undefined,
  diagnostics: process.env.BENCH_DIAGNOSTICS ? resolve(root, process.env.BENCH_DIAGNOSTICS) : undefined,
  output: resolve(root, process.env.BENCH_OUTPUT ?? 'bench/results/latest.json'),
  sharedBuffers: process.env.BENCH_SHARED_BUFFERS ?? '1GB',
};

export const log = (message: string) =>
  process.stderr.write(`[bench]${config.diagnostics === undefined ? '' : ` ${new Date().toISOString()}`} ${message}\n`);

export const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
