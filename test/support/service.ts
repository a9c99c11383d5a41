// Starts the real app over HTTP on a fresh, migrated database of the run's embedded PostgreSQL.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import { composeService, type ServiceOptions as ComposedServiceOptions } from '../../server/compose.js';
import type { Database } from '../../server/db/client.js';
import { ensureDatabase } from '../../server/db/embedded.js';
import { migrate } from '../../server/db/migrate.js';
import { actingFor, issueApiKey, type ServiceScope } from '../../server/domain/access/index.js';
import type { ApiKeyCache, RequestLog } from '../../server/domain/access/index.js';

import type { Clock } from '../../server/domain/kernel/index.js';
import type { AddressVerifier } from '../../server/domain/addresses/index.js';
import type { TrackingProvider } from '../../server/domain/shipments/index.js';
import { createGracefulServer, type SlowClientLimits } from '../../server/http/graceful-server.js';
import type { RateLimitSettings } from '../../server/http/rate-limit.js';
import { createLogger } from '../../server/logger.js';
import type { Logger } from 'pino';
import { createOfflineVerifier } from '../../server/addresses/offline.js';
import type { Jobs } from '../../server/compose.js';
import { createSandboxProvider } from '../../server/tracking/sandbox.js';
import { TRACKING_POLL_QUEUE } from '../../server/jobs/tracking-jobs.js';
import { createStore, type StoreContext } from '../../server/domain/stores/index.js';

import { decideClaim, findClaimStore, type ClaimDecision, type ClaimRecord, type ClaimStatus } from '../../server/domain/claims/index.js';

/** The operator the tests act as, in the audit log. */
export const TEST_OPERATOR: ServiceScope = { actor: { kind: 'operator', name: 'test-suite' } };

/**
 * Decides a claim as the operator's CLI does: the claim's store found from its id. An approval is
 * a refund of amount_claimed and a payment pays nothing, unless the test says otherwise.
 */
export async function decideClaimAsOperator(db: Database, id: string, status: ClaimStatus, clock: Clock, note?: string, decision: Partial<ClaimDecision> = {}): Promise<ClaimRecord> {
  const needed = status === 'approved' ? { resolution: { type: 'refund' as const } } : status === 'paid' ? { payout: { amountCents: 0 } } : {};
  return decideClaim(db, actingFor(TEST_OPERATOR, await findClaimStore(db, id)), id, { status, note, ...needed, ...decision }, clock);
}

/** Real time plus an offset the test can move forward. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** A fresh database in the run's cluster, migrated. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  await ensureDatabase(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return url.toString();
}

export interface TestService {
  baseUrl: string;
  /** The requests of keys, as the console's developers page reads them; flush() writes what is pending. */
  requestLog: RequestLog;
  databaseUrl: string;
  db: Database;
  clock: TestClock;
  provider: TrackingProvider;
  jobs: Jobs;
  apiKeys: ApiKeyCache;
  /**
   * Waits until this instance has heard of every key or store change committed so far (as it does
   * within milliseconds): for a test that changes a store's terms behind the API and then calls it.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  databaseUrl?: string;
  /** Defaults to the sandbox provider. */
  provider?: TrackingProvider;
  /** Run tracking workers in this instance (off by default: tests poll explicitly). */
  work?: boolean;
  pollIntervalSeconds?: number;
  /** How often waiting first polls are moved into the queue (200 ms here; an hour stops it in practice). */
  firstPollIntervalMs?: number;
  easyPostWebhookSecret?: string;
  /** Defaults to the offline verifier. */
  addressVerifier?: AddressVerifier;
  addressTimeoutMs?: number;
  /** Rate limits are off in tests unless given. */
  rateLimits?: RateLimitSettings;
  trustedProxies?: number;
  exposeMetrics?: boolean;
  logger?: Logger;
  /** Slow-client limits of the HTTP server: 15 s for headers, 30 s for a request, no cap per address, unless given. */
  http?: Partial<SlowClientLimits>;
  /** Event delivery: off unless asked; private networks allowed (receivers listen on loopback). */
  events?: Partial<ComposedServiceOptions['events']>;
}

export async function startService(options: ServiceOptions = {}): Promise<TestService> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const clock = new TestClock();
  const provider = options.provider ?? createSandboxProvider();
  const service = await composeService({
    databaseUrl,
    poolSize: 25,
    clock,
    // TEST_LOG_LEVEL=error shows what the server logged while a test ran (silent by default).
    logger: options.logger ?? createLogger((process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent'),
    tracking: { provider, pollIntervalSeconds: options.pollIntervalSeconds ?? 3600, workers: options.work ?? false, workerPollingSeconds: 0.5, firstPollIntervalMs: options.firstPollIntervalMs ?? 200 },
    addresses: { verifier: options.addressVerifier ?? createOfflineVerifier(), timeoutMs: options.addressTimeoutMs ?? 3000 },
    events: { allowPrivateNetworks: true, retryScheduleSeconds: [1, 1, 1], dispatchIntervalMs: 100, workers: false, ...options.events },
    rateLimits: options.rateLimits ?? null,
    metrics: { processMetrics: false, exposeOnApiPort: options.exposeMetrics ?? false },
    trustedProxies: options.trustedProxies ?? 0,
    easyPostWebhookSecret: options.easyPostWebhookSecret,
  });
  // The production server (its drain, and its error format for requests Node cannot parse).
  const server: Server = createGracefulServer(service.app, options.http).server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requestLog: service.deps.requestLog,
    databaseUrl,
    db: service.db,
    clock,
    provider,
    jobs: service.jobs,
    apiKeys: service.apiKeys,
    settled: () => service.apiKeys.sync(),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const step of service.stopSteps()) await step.run();
    },
  };
}

export interface SeededStore {
  store: StoreContext;
  liveKey: string;
  testKey: string;
}

let storeCounter = 0;

/** A store with the default pricing (1.5 %, minimum 0.98, no cap unless given) and one key per mode. */
export async function seedStore(
  db: Database,
  pricing: Partial<StoreContext['pricing']> = {},
  clientProfile: StoreContext['clientProfile'] = 'standard',
): Promise<SeededStore> {
  storeCounter += 1;
  const store = await createStore(db, TEST_OPERATOR, {
    slug: `store-${storeCounter}-${randomUUID().slice(0, 8)}`,
    name: `Store ${storeCounter}`,
    pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null, ...pricing },
    protectionSkus: [],
    quoteOrigin: 'backend',
    clientProfile,
  });
  const live = await issueApiKey(db, actingFor(TEST_OPERATOR, store), { mode: 'live', scope: 'store' });
  const test = await issueApiKey(db, actingFor(TEST_OPERATOR, store), { mode: 'test', scope: 'store' });
  return { store, liveKey: live.key, testKey: test.key };
}

/**
 * Where a shipment's first tracking poll is, read in one statement (one snapshot): waiting in the
 * outbox, or already moved into the queue. Never neither and never both, whenever it is read.
 */
export async function firstPollOf(db: Database, shipmentId: string): Promise<{ waiting: number; queued: number }> {
  const [row] = await db.$queryRawUnsafe<Array<{ waiting: number; queued: number }>>(
    `SELECT (SELECT count(*)::int FROM tracking_poll_outbox WHERE shipment_id = $1::uuid) AS waiting,
            (SELECT count(*)::int FROM pgboss.job WHERE name = $2 AND singleton_key = $1::uuid::text) AS queued`,
    shipmentId,
    TRACKING_POLL_QUEUE,
  );
  if (row === undefined) throw new Error('the first-poll count returned no row');
  return row;
}
