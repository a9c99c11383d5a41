// Deletes what is kept for a while only, hourly, on every instance that works jobs: idempotency
// keys whose 24 hours are over (the claim already lets an expired key be used again; the sweep
// gives the rows back), events older than their retention, with their deliveries, console
// sessions past their expiry, the request log past its day, and claim photos no claim took. Several
// instances sweeping the same rows is harmless: a DELETE of what is gone deletes nothing.
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/kernel/index.js';
import { deleteExpiredRequestLog, deleteExpiredSessions, sweepExpiredIdempotencyKeys } from '../domain/access/index.js';

import { sweepExpiredEvents } from '../domain/events/index.js';

import { sweepUnattachedPhotos } from '../domain/claims/index.js';

export const RETENTION_SWEEP_INTERVAL_MS = 3600_000;

export function startRetentionSweep(options: { db: Database; clock: Clock; logger: Logger }): { stop(): void } {
  const sweeps = [
    { name: 'idempotency_keys', run: sweepExpiredIdempotencyKeys },
    { name: 'events', run: sweepExpiredEvents },
    { name: 'console_sessions', run: deleteExpiredSessions },
    { name: 'request_log', run: deleteExpiredRequestLog },
    { name: 'unattached_claim_photos', run: sweepUnattachedPhotos },
  ];
  const sweep = () => {
    for (const { name, run } of sweeps) {
      run(options.db, options.clock.now()).then(
        (deleted) => options.logger.debug({ component: 'jobs', sweep: name, deleted }, 'retention sweep'),
        (error: unknown) => options.logger.warn({ component: 'jobs', sweep: name, error_name: error instanceof Error ? error.name : typeof error }, 'retention sweep failed'),
      );
    }
  };
  const timer = setInterval(sweep, RETENTION_SWEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
