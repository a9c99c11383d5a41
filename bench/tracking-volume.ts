// The tracking run (bench/run.ts): what a million active shipments cost the job queue. Each active
// shipment has one waiting poll job (the stately policy), due when the schedule says
// (server/domain/shipments/poll-schedule.ts); the run queues that many through pg-boss's own insert,
// their registrations spread evenly over the 60-day window, then measures the queue's table, the
// polls due an hour by the schedule, and what a worker's fetch of a due poll costs with them all
// waiting.
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import pg from 'pg';
import { nextPollAt, POLLING_GIVES_UP_AFTER_MS } from '../server/domain/shipments/index.js';
import type { EmbeddedCluster } from '../server/db/embedded.js';
import { TRACKING_POLL_QUEUE } from '../server/jobs/tracking-jobs.js';
import { config, log, round } from './config.js';
import { createDatabaseIn } from './seed.js';

export interface TrackingVolumeResult {
  activeShipments: number;
  /** Polls the schedule makes due in an hour, for these shipments' ages. */
  pollsPerHour: number;
  /** The queue's partition (rows and indexes) with one waiting job per shipment. */
  queueTableSize: string;
  queueTableBytes: number;
  loadSeconds: number;
  /** A worker's fetch of one due job, with every other job waiting: mean and p99, in ms. */
  fetchMs: { mean: number; p99: number };
}

const BATCH = 10_000;
const FETCHES = 500;

export async function trackingVolumeRun(cluster: EmbeddedCluster): Promise<TrackingVolumeResult> {
  const shipments = config.trackingShipments;
  log(`tracking run: ${shipments} active shipments' poll jobs in the queue`);
  const url = await createDatabaseIn(cluster, 'bench_tracking');
  const boss = new PgBoss({ connectionString: url, schedule: false, supervise: false, max: 4 });
  await boss.start();
  try {
    await boss.createQueue(TRACKING_POLL_QUEUE, { name: TRACKING_POLL_QUEUE, policy: 'stately', retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 });
    const now = new Date();
    const started = Date.now();
    let pollsPerHour = 0;
    for (let from = 0; from < shipments; from += BATCH) {
      const jobs = [];
      for (let index = from; index < Math.min(shipments, from + BATCH); index += 1) {
        // Registered evenly over the window; its next poll as the schedule sets it. The same number
        // is due now at every size (the fetches' own), so the fetch measures the waiting, not a backlog.
        const registeredAt = new Date(now.getTime() - (index / shipments) * POLLING_GIVES_UP_AFTER_MS);
        const next = nextPollAt(registeredAt, now, 3600);
        pollsPerHour += 3_600_000 / (next.getTime() - now.getTime());
        const startAfter = index % Math.max(1, Math.floor(shipments / FETCHES)) === 0 ? now : new Date(now.getTime() + 60_000 + Math.random() * (next.getTime() - now.getTime()));
        const shipmentId = randomUUID();
        jobs.push({ name: TRACKING_POLL_QUEUE, data: { shipmentId }, singletonKey: shipmentId, startAfter });
      }
      await boss.insert(jobs);
    }
    const loadSeconds = round((Date.now() - started) / 1000, 1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('VACUUM ANALYZE pgboss.job');
    const size = await client.query<{ bytes: string; pretty: string }>(
      `SELECT pg_total_relation_size(c.oid)::bigint AS bytes, pg_size_pretty(pg_total_relation_size(c.oid)) AS pretty
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'pgboss' AND c.relname = (SELECT partition_name FROM pgboss.queue WHERE name = $1)`,
      [TRACKING_POLL_QUEUE],
    );
    await client.end();
    // A worker's fetch, as pg-boss runs it, while the million wait; each one completes its job.
    const times: number[] = [];
    for (let index = 0; index < FETCHES; index += 1) {
      const began = performance.now();
      const [job] = await boss.fetch<{ shipmentId: string }>(TRACKING_POLL_QUEUE, { batchSize: 1 });
      times.push(performance.now() - began);
      if (job === undefined) break;
      await boss.complete(TRACKING_POLL_QUEUE, job.id);
    }
    times.sort((a, b) => a - b);
    const result: TrackingVolumeResult = {
      activeShipments: shipments,
      pollsPerHour: Math.round(pollsPerHour),
      queueTableSize: size.rows[0]?.pretty ?? '?',
      queueTableBytes: Number(size.rows[0]?.bytes ?? 0),
      loadSeconds,
      fetchMs: { mean: round(times.reduce((sum, t) => sum + t, 0) / Math.max(1, times.length), 2), p99: round(times[Math.floor(times.length * 0.99)] ?? 0, 2) },
    };
    log(`  ${shipments} waiting polls: ${result.queueTableSize} (queued in ${loadSeconds} s); ${result.pollsPerHour} polls an hour by the schedule; a fetch ${result.fetchMs.mean} ms mean, ${result.fetchMs.p99} ms p99`);
    return result;
  } finally {
    await boss.stop({ graceful: false });
  }
}
