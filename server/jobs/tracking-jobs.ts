// Tracking polls as jobs in the job queue (queue.ts). Every instance runs workers; the queue hands
// each job to exactly one of them, so several instances share the work, and a crashed worker's job
// expires and is retried, so a crash loses nothing. The "stately" policy
// keeps at most one waiting poll per shipment, so a chain of polls never doubles.
//
// A new shipment's first poll waits in tracking_poll_outbox, written in the shipment's own
// statement (one round trip for a registration). Every instance moves the waiting rows into the
// queue about once a second, in batches: the rows are deleted and their jobs inserted in one
// transaction, rows locked by another instance's move are skipped, and the stately policy would
// refuse a second waiting poll anyway. A first poll is therefore queued within about a second.
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { inConnectionTransaction, type Database, type HotStatement } from '../db/client.js';
import type { Clock } from '../domain/kernel/index.js';
import { nextPollAt, pollShipment, TrackingUnavailableError } from '../domain/shipments/index.js';
import { claimRulesAfterTracking } from './claim-rules.js';
import type { PollScheduler, PollTarget, ShipmentKey, TrackingProvider } from '../domain/shipments/index.js';

import { inTransaction, onConnection } from './queue.js';

export const TRACKING_POLL_QUEUE = 'tracking-poll';

/** A shipment's poll job: its data (the shipment with its store), and its singleton key, by which "stately" keeps one waiting per shipment. */
const pollJob = (shipment: ShipmentKey) => ({ data: { shipmentId: shipment.id, storeId: shipment.storeId } satisfies PollTarget, singletonKey: shipment.id });

export interface TrackingJobsOptions {
  boss: PgBoss;
  db: Database;
  provider: TrackingProvider;
  clock: Clock;
  logger: Logger;
  /** Time between two polls of a shipment that is not delivered yet. */
  pollIntervalSeconds: number;
  /** Whether this instance works the queue (the API can run without workers, e.g. in tests). */
  work: boolean;
  /** How often an idle worker looks for due jobs. */
  workerPollingSeconds?: number;
  /** How often this instance moves waiting first polls into the queue (default 1 s). */
  firstPollIntervalMs?: number;
}

export interface TrackingJobs {
  scheduler: PollScheduler;
  /** Stops moving first polls; the queue itself is stopped by its owner. */
  stop(): Promise<void>;
}

/** First polls moved per transaction. */
const FIRST_POLL_BATCH = 500;

const TAKE_FIRST_POLLS: HotStatement = {
  name: 'op_take_first_polls',
  text: `DELETE FROM tracking_poll_outbox
          WHERE shipment_id IN (SELECT shipment_id FROM tracking_poll_outbox ORDER BY created_at LIMIT ${FIRST_POLL_BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING shipment_id, store_id`,
};

/**
 * Moves waiting first polls into the queue, oldest first, until none is left; how many it moved.
 * Each batch's rows leave the outbox in the transaction that queues their jobs.
 */
export async function queueFirstPolls(db: Database, boss: PgBoss): Promise<number> {
  let moved = 0;
  for (;;) {
    const batch = await inConnectionTransaction(db, async (client) => {
      const taken = await client.query<{ shipment_id: string; store_id: string }>({ name: TAKE_FIRST_POLLS.name, text: TAKE_FIRST_POLLS.text });
      if (taken.rows.length > 0) {
        const jobs = taken.rows.map((row) => ({ name: TRACKING_POLL_QUEUE, ...pollJob({ id: row.shipment_id, storeId: row.store_id }) }));
        await boss.insert(jobs, { db: onConnection(client) });
      }
      return taken.rows.length;
    });
    moved += batch;
    if (batch < FIRST_POLL_BATCH) return moved;
  }
}

export async function startTrackingJobs(options: TrackingJobsOptions): Promise<TrackingJobs> {
  const { boss, db, provider, clock, logger } = options;
  const rerunRulesAfterTracking = claimRulesAfterTracking({ db, clock, logger });
  await boss.createQueue(TRACKING_POLL_QUEUE, {
    name: TRACKING_POLL_QUEUE,
    policy: 'stately',
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  });

  const scheduler: PollScheduler = {
    async schedulePoll(shipment, { startAfter, tx }) {
      const { data, singletonKey } = pollJob(shipment);
      await boss.send(TRACKING_POLL_QUEUE, data, { singletonKey, startAfter: startAfter ?? new Date(0), db: inTransaction(tx) });
    },
  };

  if (options.work) {
    await boss.work<PollTarget>(
      TRACKING_POLL_QUEUE,
      // One job per fetch: a failure retries only its own shipment, never a neighbour already polled.
      { batchSize: 1, pollingIntervalSeconds: options.workerPollingSeconds ?? 2 },
      async (jobs) => {
        for (const job of jobs) {
          const now = clock.now();
          try {
            const outcome = await pollShipment(db, provider, scheduler, job.data, now, (registeredAt) => nextPollAt(registeredAt, now, options.pollIntervalSeconds));
            logger.debug({ component: 'jobs', shipment_id: job.data.shipmentId, outcome }, 'tracking poll');
            await rerunRulesAfterTracking(job.data);
          } catch (error) {
            // Thrown errors make pg-boss retry the job with backoff; the provider being down is expected.
            const level = error instanceof TrackingUnavailableError ? 'warn' : 'error';
            logger[level]({ component: 'jobs', shipment_id: job.data.shipmentId, error_name: (error as Error).name }, 'tracking poll failed');
            throw error;
          }
        }
      },
    );
  }

  // One move at a time per instance: a tick that finds one running (a slow or absent database)
  // is skipped. A move that fails leaves its rows for the next.
  let moving: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (moving !== null) return;
    moving = queueFirstPolls(db, boss)
      .then(
        () => undefined,
        (error: unknown) => {
          logger.warn({ component: 'jobs', error_name: error instanceof Error ? error.name : typeof error }, 'queueing first tracking polls failed');
        },
      )
      .finally(() => {
        moving = null;
      });
  }, options.firstPollIntervalMs ?? 1000);
  timer.unref();

  return {
    scheduler,
    stop: async () => {
      clearInterval(timer);
      await moving;
    },
  };
}
