// The app as the benchmark runs it (bench/target.ts, bench/trace-queries.ts): as main.ts builds it,
// but with rate limits off, a silent logger, the sandbox tracking provider with no job workers, and
// the offline address verifier, so nothing outside this machine is measured.
import type express from 'express';
import { createOfflineVerifier } from '../server/addresses/offline.js';
import { createApp } from '../server/app.js';
import { createDatabase, type Database } from '../server/db/client.js';
import { startApiKeyCache } from '../server/domain/api-key-cache.js';
import { systemClock } from '../server/domain/clock.js';
import { createMetrics } from '../server/http/metrics.js';
import { startTrackingJobs } from '../server/jobs/tracking-jobs.js';
import { createLogger } from '../server/logger.js';
import { createSandboxProvider } from '../server/tracking/sandbox.js';

export interface BenchApp {
  app: express.Express;
  db: Database;
  stop(): Promise<void>;
}

export async function startBenchApp(databaseUrl: string, poolSize: number): Promise<BenchApp> {
  const db = createDatabase(databaseUrl, { poolSize });
  const logger = createLogger('silent');
  const provider = createSandboxProvider();
  const jobs = await startTrackingJobs({ databaseUrl, db, provider, clock: systemClock, logger, pollIntervalSeconds: 3600, work: false });
  const apiKeys = await startApiKeyCache(databaseUrl);
  const app = createApp({
    db,
    apiKeys,
    clock: systemClock,
    logger,
    tracking: { providerName: provider.name, scheduler: jobs.scheduler },
    addresses: { verifier: createOfflineVerifier(), timeoutMs: 3000 },
    metrics: createMetrics(db),
    rateLimiting: undefined,
  });
  return {
    app,
    db,
    stop: async () => {
      await jobs.stop();
      await apiKeys.stop();
      await db.$disconnect();
    },
  };
}
