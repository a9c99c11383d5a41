// Deletes idempotency keys whose 24 hours are over, hourly, on every instance that works jobs. The
// claim itself already lets an expired key be used again; the sweep only gives the rows back.
// Several instances sweeping the same rows is harmless: a DELETE of what is gone deletes nothing.
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/clock.js';
import { sweepExpiredIdempotencyKeys } from '../domain/idempotency.js';

export const IDEMPOTENCY_SWEEP_INTERVAL_MS = 3600_000;

export function startIdempotencySweep(options: { db: Database; clock: Clock; logger: Logger }): { stop(): void } {
  const sweep = () => {
    sweepExpiredIdempotencyKeys(options.db, options.clock.now()).then(
      (deleted) => options.logger.debug({ component: 'jobs', deleted }, 'idempotency keys swept'),
      (error: unknown) => options.logger.warn({ component: 'jobs', error_name: error instanceof Error ? error.name : typeof error }, 'idempotency sweep failed'),
    );
  };
  const timer = setInterval(sweep, IDEMPOTENCY_SWEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
