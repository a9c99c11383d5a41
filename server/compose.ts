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
import type { VerificationSettings } from './domain/address-verification.js';
import { startApiKeyCache, type ApiKeyCache } from './domain/api-key-cache.js';
import { systemClock, type Clock } from './domain/clock.js';
import type { TrackingProvider } from './domain/tracking.js';
import { createMetrics, type Metrics } from './http/metrics.js';
import { createRateLimiting, type RateLimiting, type RateLimitSettings } from './http/rate-limit.js';
import { startIdempotencySweep } from './jobs/idempotency-sweep.js';
import { startTrackingJobs, type TrackingJobs } from './jobs/tracking-jobs.js';
import { createLogger } from './logger.js';
import { createSandboxProvider } from './tracking/sandbox.js';

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
  };
  addresses: VerificationSettings;
  /** null: no limits (self-hosters may turn them off; the tests do unless they test them). */
  rateLimits: RateLimitSettings | null;
  metrics: { processMetrics: boolean; exposeOnApiPort: boolean };
  trustedProxies: number;
  easyPostWebhookSecret?: string | undefined;
  /** Told when the key cache's change notifications drop (it then reads keys from the database). */
  onKeyNotificationsLost?: (reconnectInMs: number) => void;
}

export interface Service {
  app: express.Express;
  deps: AppDeps;
  db: Database;
  jobs: TrackingJobs;
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
  const jobs = await startTrackingJobs({
    databaseUrl: options.databaseUrl,
    db,
    provider,
    clock: options.clock,
    logger: options.logger,
    pollIntervalSeconds: options.tracking.pollIntervalSeconds,
    work: options.tracking.workers,
    ...(options.tracking.workerPollingSeconds === undefined ? {} : { workerPollingSeconds: options.tracking.workerPollingSeconds }),
  });
  const sweep = options.tracking.workers ? startIdempotencySweep({ db, clock: options.clock, logger: options.logger }) : undefined;
  const apiKeys = await startApiKeyCache(options.databaseUrl, { onDisconnect: options.onKeyNotificationsLost });
  const metrics = createMetrics(db, { processMetrics: options.metrics.processMetrics });
  const rateLimiting = options.rateLimits === null ? undefined : createRateLimiting(options.databaseUrl, options.rateLimits, metrics);
  const deps: AppDeps = {
    db,
    apiKeys,
    clock: options.clock,
    logger: options.logger,
    tracking: { providerName: provider.name, scheduler: jobs.scheduler },
    addresses: options.addresses,
    easyPostWebhookSecret: options.easyPostWebhookSecret,
    metrics,
    exposeMetrics: options.metrics.exposeOnApiPort,
    rateLimiting,
    trustedProxies: options.trustedProxies,
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
      { name: 'jobs', run: async () => {
        sweep?.stop();
        await jobs.stop();
      } },
      { name: 'rate_limits', run: async () => rateLimiting?.close() },
      { name: 'api_key_cache', run: () => apiKeys.stop() },
      { name: 'database', run: () => db.$disconnect() },
    ],
  };
}
