// Event deliveries as jobs (README, "Events and outbound webhooks"). Each instance's dispatcher
// looks for endpoints with a delivery due (the outbox rows committed with each change) and queues
// one job per endpoint; the "stately" policy keeps at most one waiting and one running job per
// endpoint across all instances. A job attempts the endpoint's due deliveries in up to
// max_in_flight lanes at once, each taking the oldest delivery whose object has no older one
// pending (takeDueDelivery), under a lease, and records every attempt. Each instance runs several
// jobs at once, so a slow endpoint holds only its own job. Nothing is lost to a crash: the rows
// stay pending until an attempt is recorded, and the next dispatcher tick (on any instance, or
// after a restart) queues them again.
import { setTimeout as sleep } from 'node:timers/promises';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/kernel/index.js';
import {
  type AttemptResult,
  type DueDelivery,
  endpointsWithDueDeliveries,
  hasDueDelivery,
  deliveryEndpoint,
  type EndpointJob,
  type EndpointKey,
  recordAttempt,
  signedHeaders,
  takeDueDelivery,
  type EventDeliverySettings,
} from '../domain/events/index.js';
import type { JobMetrics } from './job-metrics.js';
import { postEvent, type AddressResolver } from '../outbound/send-event.js';

export const EVENT_DELIVERY_QUEUE = 'event-delivery';
/** Deliveries one lane attempts before its job hands the endpoint back to the queue, so other endpoints get a turn. */
const DELIVERIES_PER_LANE = 50;
/** How long a lane with nothing to take waits before looking again, while another lane attempts. */
const LANE_IDLE_POLL_MS = 25;
const LANE_IDLE_POLL_MAX_MS = 400;
/** Endpoint jobs one instance runs at once: a slow endpoint holds one of them, not the others. */
export const ENDPOINT_JOBS_PER_INSTANCE = 8;

export interface EventDeliveryOptions {
  boss: PgBoss;
  db: Database;
  clock: Clock;
  logger: Logger;
  metrics: JobMetrics;
  settings: EventDeliverySettings;
  /** Whether this instance dispatches and works deliveries. */
  work: boolean;
  /** Name resolution for the address check; tests pass a stub (no outside connection). */
  resolve?: AddressResolver;
}

export async function startEventDelivery(options: EventDeliveryOptions): Promise<{ stop(): Promise<void> }> {
  const { boss, db, clock, logger, metrics, settings } = options;
  await boss.createQueue(EVENT_DELIVERY_QUEUE, {
    name: EVENT_DELIVERY_QUEUE,
    policy: 'stately',
    // A job fails only when the database does; its deliveries stay pending and are dispatched again anyway.
    retryLimit: 3,
    retryDelay: 5,
    expireInSeconds: 900,
  });
  if (!options.work) return { stop: async () => {} };

  const workerIds: string[] = [];
  const notifyWorkers = () => {
    for (const workerId of workerIds) boss.notifyWorker(workerId);
  };
  const queueEndpoint = (endpoint: EndpointKey) =>
    boss.send(EVENT_DELIVERY_QUEUE, { endpointId: endpoint.id, storeId: endpoint.storeId } satisfies EndpointJob, { singletonKey: endpoint.id });

  /**
   * One job's lanes: each attempts due deliveries one after another until its share is spent. A lane
   * that finds nothing waits while another is still attempting (whose answer may free the next
   * event of its object, or more may have been committed meanwhile), and stops once all are idle.
   */
  const drain = async (job: EndpointJob) => {
    const found = await deliveryEndpoint(db, job);
    if (found === null) return;
    const { endpoint, lanes } = found;
    const endpointId = endpoint.id;
    // Attempts posted whose outcome is not recorded yet: an idle lane waits for them (one may free
    // the next event of its object), and the job ends only once every one is recorded.
    let unsettled = 0;
    const recordings = new Set<Promise<void>>();
    const settle = (due: DueDelivery, result: AttemptResult, attemptedAt: Date): Promise<void> => {
      const recording = recordAttempt(db, due, result, attemptedAt, settings)
        .then((outcome) => {
          metrics.eventDeliveryAttempted(outcome);
          // Ids and outcomes only: the URL, the body and the answer may hold the store's or shoppers' data.
          logger.info(
            { component: 'events', delivery_id: due.id, event_id: due.eventId, endpoint_id: endpointId, outcome, status_code: result.statusCode, duration_ms: result.durationMs, error: result.error },
            'event delivery attempt',
          );
        })
        .catch((error: unknown) => {
          // Unrecorded, the delivery keeps its lease until it runs out, and is attempted again then.
          logger.warn({ component: 'events', delivery_id: due.id, endpoint_id: endpointId, error_name: error instanceof Error ? error.name : typeof error }, 'event attempt not recorded');
        })
        .finally(() => {
          unsettled -= 1;
          recordings.delete(recording);
        });
      recordings.add(recording);
      return recording;
    };
    const lane = async (): Promise<'idle' | 'spent'> => {
      let idleWaitMs = LANE_IDLE_POLL_MS;
      for (let attempted = 0; attempted < DELIVERIES_PER_LANE; ) {
        const due = await takeDueDelivery(db, endpoint, clock.now());
        if (due === null) {
          if (unsettled === 0) return 'idle';
          // Backing off: a slow attempt elsewhere must not turn the idle lanes into a busy loop.
          await sleep(idleWaitMs);
          idleWaitMs = Math.min(LANE_IDLE_POLL_MAX_MS, idleWaitMs * 2);
          continue;
        }
        idleWaitMs = LANE_IDLE_POLL_MS;
        attempted += 1;
        unsettled += 1;
        const attemptedAt = clock.now();
        const result = await postEvent(due.url, signedHeaders(due, attemptedAt), due.body, {
          allowPrivateNetworks: settings.allowPrivateNetworks,
          ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
        });
        // Recorded while this lane takes its next delivery: the lease keeps this one off every lane,
        // and its object's next event stays held back until the record commits.
        void settle(due, result, attemptedAt);
      }
      return 'spent';
    };
    const ended = await Promise.all(Array.from({ length: lanes }, () => lane()));
    await Promise.all(recordings);
    // Spent, or committed just as the last lane stopped: the endpoint goes back in the queue, and
    // this instance's idle workers hear of it at once rather than at their next poll (half a second
    // of an endpoint's backlog going nowhere, each time its job hands it back).
    if (ended.includes('spent') || (await hasDueDelivery(db, endpoint, clock.now()))) {
      await queueEndpoint(endpoint);
      notifyWorkers();
    }
  };

  for (let worker = 0; worker < ENDPOINT_JOBS_PER_INSTANCE; worker += 1) {
    workerIds.push(
      await boss.work<EndpointJob>(EVENT_DELIVERY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) await drain(job.data);
      }),
    );
  }

  let running: Promise<void> | undefined;
  const dispatch = () => {
    running ??= (async () => {
      try {
        const endpoints = await endpointsWithDueDeliveries(db, clock.now());
        for (const endpoint of endpoints) await queueEndpoint(endpoint);
        if (endpoints.length > 0) notifyWorkers();
      } catch (error) {
        logger.warn({ component: 'events', error_name: error instanceof Error ? error.name : typeof error }, 'event dispatch failed');
      } finally {
        running = undefined;
      }
    })();
  };
  dispatch();
  const timer = setInterval(dispatch, settings.dispatchIntervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
