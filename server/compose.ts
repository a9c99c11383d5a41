// The composition root: the one place where the service's parts are built and wired, for the
// server (main.ts), the tests (test/support/service.ts), the benchmark (bench/app.ts), the contract
// test (scripts/contract-test.ts) and the admin CLI (server/cli/admin.ts). Every
// part with state (pools, caches, queues, counters) is made here, per service: nothing is kept in
// module state, so two services in one process never share anything by accident.
import type express from 'express';
import type { Logger } from 'pino';
import { createOfflineVerifier } from './addresses/offline.js';
import { createApp } from './app.js';
import { createDatabase, type Database } from './db/client.js';
import type { AppDeps } from './deps.js';
import type { VerificationSettings } from './domain/addresses/index.js';
import { type ApiKeyCache, createRequestLog, shopperSessions, startApiKeyCache } from './domain/access/index.js';
import { systemClock, type Clock } from './domain/kernel/index.js';
import type { TrackingProvider } from './domain/shipments/index.js';
import { createMetrics, type Metrics } from './http/metrics.js';
import { createRateLimiting, type RateLimiting, type RateLimitSettings } from './http/rate-limit.js';
import { startPersonalDataRetention } from './jobs/personal-data-retention.js';
import { startPrivacyRequests } from './jobs/privacy-requests.js';
import { startClaimRules } from './jobs/claim-rules.js';
import { startRetentionSweep } from './jobs/retention-sweep.js';

import { startEventDelivery } from './jobs/event-delivery.js';
import { startJobQueue } from './jobs/queue.js';
import { startTrackingJobs, type TrackingJobs } from './jobs/tracking-jobs.js';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, type EventDeliverySettings } from './domain/events/index.js';
import type { AddressResolver } from './outbound/send-event.js';
import { createLogger } from './logger.js';
import { createSandboxProvider } from './tracking/sandbox.js';
import { postgresPhotoStore } from './domain/claims/index.js';


/** What an order lookup takes at least: well above the variance of finding an order or not. */
const DEFAULT_LOOKUP_FLOOR_MS = 250;

export interface ServiceOptions {
  databaseUrl: string;
  /** Connections this instance may hold in its main pool. */
  poolSize: number;
  clock: Clock;
  logger: Logger;
  tracking: {
    provider: TrackingProvider;
    pollIntervalSeconds: number;
    /** Whether this instance works the tracking queue (tests poll by hand). */
    workers: boolean;
    workerPollingSeconds?: number;
    /** How often waiting first polls are moved into the queue (default 1 s). */
    firstPollIntervalMs?: number;
  };
  addresses: VerificationSettings;
  events: EventDeliverySettings & {
    /** Whether this instance dispatches and works event deliveries. */
    workers: boolean;
    /** Name resolution for the delivery address check (tests pass a stub). */
    resolve?: AddressResolver;
  };
  /** null: no limits (self-hosters may turn them off; the tests do unless they test them). */
  rateLimits: RateLimitSettings | null;
  metrics: { processMetrics: boolean; exposeOnApiPort: boolean };
  trustedProxies: number;
  easyPostWebhookSecret?: string | undefined;
  /** The least time an order lookup on the claim page takes (default 250 ms). */
  shopperLookupFloorMs?: number;
  /** Told when the key cache's change notifications drop (it then reads keys from the database). */
  onKeyNotificationsLost?: (reconnectInMs: number) => void;
}

/** The job queue's parts: the tracking poll scheduler, and a stop for every worker and the queue. */
export interface Jobs extends TrackingJobs {
  stop(): Promise<void>;
}

export interface Service {
  app: express.Express;
  deps: AppDeps;
  db: Database;
  jobs: Jobs;
  apiKeys: ApiKeyCache;
  metrics: Metrics;
  rateLimiting: RateLimiting | undefined;
  /** The stop steps in order (the job workers, the limits, the key cache, the database), named for logs. */
  stopSteps(): Array<{ name: string; run: () => Promise<unknown> }>;
}

/**
 * A service that reaches nothing outside this machine and says nothing: a silent logger, the sandbox
 * tracking provider with no workers, the offline address verifier, no rate limits and no process
 * metrics. What the benchmark and the contract test run.
 */
export function offlineServiceOptions(databaseUrl: string, poolSize: number): ServiceOptions {
  return {
    databaseUrl,
    poolSize,
    clock: systemClock,
    logger: createLogger('silent'),
    tracking: { provider: createSandboxProvider(), pollIntervalSeconds: 3600, workers: false },
    addresses: { verifier: createOfflineVerifier(), timeoutMs: 3000 },
    events: { allowPrivateNetworks: false, retryScheduleSeconds: DEFAULT_RETRY_SCHEDULE_SECONDS, dispatchIntervalMs: 1000, workers: false },
    rateLimits: null,
    metrics: { processMetrics: false, exposeOnApiPort: false },
    trustedProxies: 0,
  };
}

/** The admin CLI's parts: the database handle only (it serves nothing and works no queue). */
export function composeCli(databaseUrl: string): { db: Database; stop(): Promise<void> } {
  const db = createDatabase(databaseUrl);
  return { db, stop: () => db.$disconnect() };
}

export async function composeService(options: ServiceOptions): Promise<Service> {
  const db = createDatabase(options.databaseUrl, { poolSize: options.poolSize });
  const { provider } = options.tracking;
  const boss = await startJobQueue({ databaseUrl: options.databaseUrl, logger: options.logger, schedules: options.tracking.workers });
  const tracking = await startTrackingJobs({
    boss,
    db,
    provider,
    clock: options.clock,
    logger: options.logger,
    pollIntervalSeconds: options.tracking.pollIntervalSeconds,
    work: options.tracking.workers,
    ...(options.tracking.workerPollingSeconds === undefined ? {} : { workerPollingSeconds: options.tracking.workerPollingSeconds }),
    ...(options.tracking.firstPollIntervalMs === undefined ? {} : { firstPollIntervalMs: options.tracking.firstPollIntervalMs }),
  });
  const sweep = options.tracking.workers ? startRetentionSweep({ db, clock: options.clock, logger: options.logger }) : undefined;
  const apiKeys = await startApiKeyCache(options.databaseUrl, { onDisconnect: options.onKeyNotificationsLost });
  const metrics = createMetrics(db, { processMetrics: options.metrics.processMetrics });
  if (options.tracking.workers) {
    await startPersonalDataRetention({ boss, db, clock: options.clock, logger: options.logger, metrics });
    await startPrivacyRequests({ boss, db, clock: options.clock, logger: options.logger, metrics });
    await startClaimRules({ boss, db, clock: options.clock, logger: options.logger });
  }
  const events = await startEventDelivery({
    boss,
    db,
    clock: options.clock,
    logger: options.logger,
    metrics,
    settings: options.events,
    work: options.events.workers,
    ...(options.events.resolve === undefined ? {} : { resolve: options.events.resolve }),
  });
  const jobs: Jobs = {
    scheduler: tracking.scheduler,
    stop: async () => {
      sweep?.stop();
      await tracking.stop();
      await events.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
  const rateLimiting = options.rateLimits === null ? undefined : createRateLimiting(options.databaseUrl, options.rateLimits, metrics);
  const requestLog = createRequestLog(db);
  const deps: AppDeps = {
    db,
    apiKeys,
    requestLog,
    clock: options.clock,
    logger: options.logger,
    tracking: { providerName: provider.name, scheduler: jobs.scheduler },
    addresses: options.addresses,
    events: { allowPrivateNetworks: options.events.allowPrivateNetworks },
    easyPostWebhookSecret: options.easyPostWebhookSecret,
    metrics,
    exposeMetrics: options.metrics.exposeOnApiPort,
    rateLimiting,
    trustedProxies: options.trustedProxies,
    photos: postgresPhotoStore(db),
    shopperSessions: shopperSessions(db),
    shopperLookupFloorMs: options.shopperLookupFloorMs ?? DEFAULT_LOOKUP_FLOOR_MS,
  };
  return {
    app: createApp(deps),
    deps,
    db,
    jobs,
    apiKeys,
    metrics,
    rateLimiting,
    stopSteps: () => [
      { name: 'jobs', run: () => jobs.stop() },
      { name: 'rate_limits', run: async () => rateLimiting?.close() },
      { name: 'api_key_cache', run: () => apiKeys.stop() },
      { name: 'request_log', run: () => requestLog.stop() },
      { name: 'database', run: () => db.$disconnect() },
    ],
  };
}
