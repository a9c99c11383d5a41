// The app as the benchmark runs it (bench/target.ts, bench/trace-queries.ts): as main.ts builds it,
// but with rate limits off, a silent logger, the sandbox tracking provider with no job workers, and
// the offline address verifier, so nothing outside this machine is measured.
import { createExpressEndpoints } from '@ts-rest/express';
import express from 'express';
import { addressesContract } from '../contract/index.js';
import { createOfflineVerifier } from '../server/addresses/offline.js';
import { createApp } from '../server/app.js';
import type { AppDeps } from '../server/deps.js';
import { createDatabase, type Database } from '../server/db/client.js';
import { startApiKeyCache } from '../server/domain/api-key-cache.js';
import type { Caller } from '../server/domain/api-keys.js';
import { systemClock } from '../server/domain/clock.js';
import { toStoreContext } from '../server/domain/stores.js';
import { BODY_LIMIT_BYTES } from '../server/http/body.js';
import { createMetrics } from '../server/http/metrics.js';
import { startTrackingJobs } from '../server/jobs/tracking-jobs.js';
import { createLogger } from '../server/logger.js';
import { addressesRouter } from '../server/routes/addresses.js';
import { createSandboxProvider } from '../server/tracking/sandbox.js';

export interface BenchApp {
  app: express.Express;
  db: Database;
  stop(): Promise<void>;
}

async function startBenchDeps(databaseUrl: string, poolSize: number): Promise<{ deps: AppDeps; stop(): Promise<void> }> {
  const db = createDatabase(databaseUrl, { poolSize });
  const logger = createLogger('silent');
  const provider = createSandboxProvider();
  const jobs = await startTrackingJobs({ databaseUrl, db, provider, clock: systemClock, logger, pollIntervalSeconds: 3600, work: false });
  const apiKeys = await startApiKeyCache(databaseUrl);
  const deps: AppDeps = {
    db,
    apiKeys,
    clock: systemClock,
    logger,
    tracking: { providerName: provider.name, scheduler: jobs.scheduler },
    addresses: { verifier: createOfflineVerifier(), timeoutMs: 3000 },
    metrics: createMetrics(db),
    rateLimiting: undefined,
  };
  return {
    deps,
    stop: async () => {
      await jobs.stop();
      await apiKeys.stop();
      await db.$disconnect();
    },
  };
}

export async function startBenchApp(databaseUrl: string, poolSize: number): Promise<BenchApp> {
  const { deps, stop } = await startBenchDeps(databaseUrl, poolSize);
  return { app: createApp(deps), db: deps.db, stop };
}

/**
 * The floor under the offline address verify on this framework: the contract's route on bare
 * Express and ts-rest, with the service's own handler, verifier and request and response
 * validation, and none of the service's cross-cutting work (request id and mode headers, key
 * authentication, security headers, metrics, the raw-body checks). Every request is answered as a
 * live key of the first store would be. How close to the echo baseline any service built on this
 * stack can come; for information, never a target.
 */
export async function startAddressFloorApp(databaseUrl: string, poolSize: number): Promise<BenchApp> {
  const { deps, stop } = await startBenchDeps(databaseUrl, poolSize);
  const store = await deps.db.store.findFirst({ orderBy: { createdAt: 'asc' } });
  if (!store) throw new Error('the address floor needs a store in the database');
  const caller: Caller = { keyId: 'address-floor', mode: 'live', scope: 'store', store: toStoreContext(store) };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: BODY_LIMIT_BYTES }));
  app.use((req, _res, next) => {
    req.caller = caller;
    next();
  });
  createExpressEndpoints(addressesContract, addressesRouter(deps), app, { logInitialization: false, jsonQuery: false, responseValidation: true });
  return { app, db: deps.db, stop };
}
