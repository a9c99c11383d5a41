// The store's claim rules, run again on open claims as their evidence changes (docs/claims.md):
// after a parcel's tracking update (a poll or the provider's webhook), and every hour through a
// pg-boss schedule (one instance per tick) for the days that min_days_without_scan counts, so a
// lost claim is approved the day its parcel has been silent long enough.
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import { systemScope } from '../domain/access/index.js';
import { rerunClaimRules } from '../domain/claims/index.js';
import type { PollTarget } from '../domain/shipments/index.js';
import type { Clock } from '../domain/kernel/index.js';

export const CLAIM_RULES_QUEUE = 'claim-rules';
/** Every hour, off the hour: a threshold in whole days is met within the hour it is reached. */
export const CLAIM_RULES_CRON = '41 * * * *';
const CLAIM_RULES_SCOPE = systemScope(CLAIM_RULES_QUEUE);

export async function startClaimRules(options: { boss: PgBoss; db: Database; clock: Clock; logger: Logger }): Promise<void> {
  const { boss, db, clock, logger } = options;
  await boss.createQueue(CLAIM_RULES_QUEUE, { name: CLAIM_RULES_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 300, expireInSeconds: 3600 });
  await boss.schedule(CLAIM_RULES_QUEUE, CLAIM_RULES_CRON, {}, { tz: 'UTC' });
  await boss.work(CLAIM_RULES_QUEUE, { batchSize: 1 }, async () => {
    const decided = await rerunClaimRules(db, CLAIM_RULES_SCOPE, clock, 'all');
    if (decided > 0) logger.info({ component: 'jobs', decided }, 'claim rules decided open claims');
  });
}

/**
 * The rules on the claims a parcel's tracking speaks for, once its update is applied. A failure is
 * logged and left to the hourly run: the tracking update itself has landed.
 */
export function claimRulesAfterTracking(options: { db: Database; clock: Clock; logger: Logger }): (shipment: PollTarget) => Promise<void> {
  return async (shipment) => {
    try {
      await rerunClaimRules(options.db, CLAIM_RULES_SCOPE, options.clock, shipment);
    } catch (error) {
      options.logger.warn({ component: 'jobs', shipment_id: shipment.shipmentId, error_name: error instanceof Error ? error.name : typeof error }, 'claim rules after a tracking update failed');
    }
  };
}
