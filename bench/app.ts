// The app as the benchmark runs it (bench/target.ts, bench/trace-queries.ts): built by the same
// composition root as main.ts, with rate limits off, a silent logger, the sandbox tracking provider with no job workers, and
// the offline address verifier, so nothing outside this machine is measured. Event workers run only
// for the delivery run (BENCH_EVENTS), which sends to a receiver on this machine.
import { createExpressEndpoints } from '@ts-rest/express';
import express from 'express';
import { addressesContract, ordersContract, quotesContract, shipmentsContract, webhooksContract } from '../contract/index.js';
import { composeService, offlineServiceOptions, type Service } from '../server/compose.js';
import type { Database } from '../server/db/client.js';
import type { Scope } from '../server/domain/access/index.js';
import { toStoreContext } from '../server/domain/stores/index.js';
import { BODY_LIMIT_BYTES } from '../server/http/body.js';
import { addressesRouter } from '../server/routes/addresses.js';
import { ordersRouter } from '../server/routes/orders.js';
import { quotesRouter } from '../server/routes/quotes.js';
import { shipmentsRouter } from '../server/routes/shipments.js';
import { webhooksRouter } from '../server/routes/webhooks.js';
import { DEFAULT_RATE_LIMITS } from '../server/http/rate-limit.js';

export interface BenchApp {
  app: express.Express;
  db: Database;
  stop(): Promise<void>;
}

async function startBenchService(databaseUrl: string, poolSize: number): Promise<{ service: Service; stop(): Promise<void> }> {
  // The two-instance run turns the shared limits on, with a quote limit it can exhaust quickly.
  const quoteLimit = process.env.BENCH_QUOTES_PER_MINUTE;
  const rateLimits = quoteLimit === undefined ? null : { ...DEFAULT_RATE_LIMITS, quotesPerMinute: Number(quoteLimit) };
  // The delivery run (bench/delivery.ts) sends to a receiver on this machine: BENCH_EVENTS=write
  // lets it make such an endpoint (and writes a backlog), BENCH_EVENTS=work also delivers.
  const offline = offlineServiceOptions(databaseUrl, poolSize);
  const benchEvents = process.env.BENCH_EVENTS;
  const events =
    benchEvents === 'work' || benchEvents === 'write'
      ? { ...offline.events, workers: benchEvents === 'work', allowPrivateNetworks: true, dispatchIntervalMs: 200 }
      : offline.events;
  const service = await composeService({ ...offline, events, rateLimits });
  return {
    service,
    stop: async () => {
      for (const step of service.stopSteps()) await step.run();
    },
  };
}

export async function startBenchApp(databaseUrl: string, poolSize: number): Promise<BenchApp> {
  const { service, stop } = await startBenchService(databaseUrl, poolSize);
  return { app: service.app, db: service.db, stop };
}

/**
 * The floor under the service's routes on this framework: the contract's routes for quotes, orders,
 * shipments, addresses and the platforms' messages on bare Express and ts-rest, with the service's
 * own handlers, domain code, statements and request and response validation, and none of the
 * service's cross-cutting work (request id and mode headers, key authentication and signature
 * checks, security headers, metrics, the request log, idempotency keys, the raw-body checks). Every
 * key-authenticated request is answered as a live key of the first store would be, and every
 * platform message as if its signature had checked out. How close to its baseline a path built on
 * this stack can come: the write paths are held to 0.9x of it (bench/report.ts).
 */
export async function startRouteFloorApp(databaseUrl: string, poolSize: number): Promise<BenchApp> {
  const { service, stop } = await startBenchService(databaseUrl, poolSize);
  const { deps } = service;
  const store = await deps.db.store.findFirst({ orderBy: { createdAt: 'asc' } });
  if (!store) throw new Error('the route floor needs a store in the database');
  const scope: Scope = { store: toStoreContext(store), mode: 'live', actor: { kind: 'api_key', keyId: 'route-floor' } };
  const platforms = new Map((await deps.db.platform.findMany({ select: { id: true, slug: true } })).map((platform) => [platform.slug, platform]));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: BODY_LIMIT_BYTES }));
  app.use((req, _res, next) => {
    req.scope = scope;
    next();
  });
  // What the signature check leaves on a platform's message once it holds (server/http/signatures.ts).
  app.use('/api/webhooks/:platform_slug', (req, _res, next) => {
    const platform = platforms.get(String(req.params.platform_slug));
    if (platform !== undefined) req.platform = platform;
    next();
  });
  const options = { logInitialization: false, jsonQuery: false, responseValidation: true } as const;
  createExpressEndpoints(quotesContract, quotesRouter(deps), app, options);
  createExpressEndpoints(ordersContract, ordersRouter(deps), app, options);
  createExpressEndpoints(shipmentsContract, shipmentsRouter(deps), app, options);
  createExpressEndpoints(addressesContract, addressesRouter(deps), app, options);
  createExpressEndpoints(webhooksContract, webhooksRouter(deps), app, options);
  return { app, db: deps.db, stop };
}
