// Events are kept for EVENT_RETENTION_DAYS; the hourly retention sweep deletes older ones with
// their deliveries.
import type { Database } from '../../db/client.js';

/** Events are kept this long (as Stripe keeps them): enough to page back and resend, no longer. */
export const EVENT_RETENTION_DAYS = 30;

/** Rows deleted per statement, so a sweep never holds a long lock. */
const SWEEP_BATCH = 5000;

/**
 * Deletes events older than the retention, their deliveries first (the attempts go with them).
 * Their data holds the objects as they were, shoppers' names included, so they are not kept.
 */
export async function sweepExpiredEvents(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const expired = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM events WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`;
      if (expired.length === 0) return 0;
      const ids = expired.map((row) => row.id);
      await tx.webhookDelivery.deleteMany({ where: { eventId: { in: ids } } });
      const { count } = await tx.event.deleteMany({ where: { id: { in: ids } } });
      return count;
    });
    deleted += batch;
    if (batch < SWEEP_BATCH) return deleted;
  }
}
