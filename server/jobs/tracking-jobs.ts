// Tracking polls as jobs in the job queue (queue.ts). Every instance runs workers; the queue hands
// each job to exactly one of them, so several instances share the work, and a crashed worker's job
// expires and is retried, so a crash loses nothing. The "stately" policy
// keeps at most one waiting poll per shipment, so a chain of polls never doubles.
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/clock.js';
import { pollShipment } from '../domain/shipments.js';
import type { PollScheduler, TrackingProvider } from '../domain/tracking.js';
import { TrackingUnavailableError } from '../domain/tracking.js';
import { queueDb } from './queue.js';

export const TRACKING_POLL_QUEUE = 'tracking-poll';

interface PollJob {
  shipmentId: string;
}

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
}

export interface TrackingJobs {
  scheduler: PollScheduler;
}

export async function startTrackingJobs(options: TrackingJobsOptions): Promise<TrackingJobs> {
  const { boss, db, provider, clock, logger } = options;
  await boss.createQueue(TRACKING_POLL_QUEUE, {
    name: TRACKING_POLL_QUEUE,
    policy: 'stately',
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
  });

  const scheduler: PollScheduler = {
    async schedulePoll(shipmentId, { startAfter, ...writer }) {
      await boss.send(TRACKING_POLL_QUEUE, { shipmentId } satisfies PollJob, { singletonKey: shipmentId, startAfter: startAfter ?? new Date(0), db: queueDb(writer) });
    },
  };

  if (options.work) {
    await boss.work<PollJob>(
      TRACKING_POLL_QUEUE,
      // One job per fetch: a failure retries only its own shipment, never a neighbour already polled.
      { batchSize: 1, pollingIntervalSeconds: options.workerPollingSeconds ?? 2 },
      async (jobs) => {
        for (const job of jobs) {
          const now = clock.now();
          const nextPollAt = new Date(now.getTime() + options.pollIntervalSeconds * 1000);
          try {
            const outcome = await pollShipment(db, provider, scheduler, job.data.shipmentId, now, nextPollAt);
            logger.debug({ component: 'jobs', shipment_id: job.data.shipmentId, outcome }, 'tracking poll');
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

  return { scheduler };
}
