// The erasure job (README, "Personal data"): every 15 minutes, through a pg-boss schedule so that
// one instance runs each tick, it carries out the privacy requests that are due: store erasures
// whose 48 hours have passed, and orders a shopper's erasure still owes once their claims are
// resolved (domain/privacy/store-redaction.ts).
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/kernel/index.js';
import { systemScope } from '../domain/access/index.js';
import { runDuePrivacyRequests } from '../domain/privacy/index.js';
import type { JobMetrics } from './job-metrics.js';

export const PRIVACY_REQUESTS_QUEUE = 'privacy-requests';
export const PRIVACY_REQUESTS_CRON = '*/15 * * * *';

export async function startPrivacyRequests(options: { boss: PgBoss; db: Database; clock: Clock; logger: Logger; metrics: JobMetrics }): Promise<void> {
  const { boss, db, clock, logger, metrics } = options;
  await boss.createQueue(PRIVACY_REQUESTS_QUEUE, { name: PRIVACY_REQUESTS_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 300, expireInSeconds: 3600 });
  await boss.schedule(PRIVACY_REQUESTS_QUEUE, PRIVACY_REQUESTS_CRON, {}, { tz: 'UTC' });
  await boss.work(PRIVACY_REQUESTS_QUEUE, { batchSize: 1 }, async () => {
    const { ordersErased, requests } = await runDuePrivacyRequests(db, systemScope(PRIVACY_REQUESTS_QUEUE), clock.now());
    metrics.personalDataErased('request', ordersErased);
    if (requests > 0) logger.info({ component: 'jobs', requests, erased_orders: ordersErased }, 'due privacy requests carried out');
  });
}
