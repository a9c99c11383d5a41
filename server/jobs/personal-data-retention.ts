// The daily retention job (README, "Personal data"): a pg-boss schedule, so that of all the
// instances that work jobs, one runs it each day. It erases the personal data of orders past their
// store's retention (domain/privacy/personal-data-retention.ts) and counts them in the metrics.
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/kernel/index.js';
import { systemScope } from '../domain/access/index.js';
import { erasePersonalDataPastRetention } from '../domain/privacy/index.js';
import type { JobMetrics } from './job-metrics.js';

export const RETENTION_QUEUE = 'personal-data-retention';
/** Every day at 03:17 UTC, off the hour. */
export const RETENTION_CRON = '17 3 * * *';

export async function startPersonalDataRetention(options: { boss: PgBoss; db: Database; clock: Clock; logger: Logger; metrics: JobMetrics }): Promise<void> {
  const { boss, db, clock, logger, metrics } = options;
  await boss.createQueue(RETENTION_QUEUE, { name: RETENTION_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 600, expireInSeconds: 3600 });
  await boss.schedule(RETENTION_QUEUE, RETENTION_CRON, {}, { tz: 'UTC' });
  await boss.work(RETENTION_QUEUE, { batchSize: 1 }, async () => {
    const erased = await erasePersonalDataPastRetention(db, systemScope(RETENTION_QUEUE), clock.now());
    metrics.personalDataErased('retention', erased);
    logger.info({ component: 'jobs', erased_orders: erased }, 'personal data past retention erased');
  });
}
