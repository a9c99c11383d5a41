// Events are kept for EVENT_RETENTION_DAYS. The events, their deliveries and the deliveries'
// attempts are partitioned by the event's UTC day: the hourly retention sweep drops each day once
// all of it is past the retention, and creates the coming days ahead. An event dated outside the
// days created (a clock far off) sits in the default partition, which the sweep deletes from.
import type { Database } from '../../db/client.js';
import { createDayPartitionsAhead, DAY_MS, dropDayPartitionsBefore } from '../kernel/index.js';

/**
 * Events are kept this long (as Stripe keeps them): enough to page back and resend, no longer.
 * Removed by the whole day, an event lasts at most a day more.
 */
export const EVENT_RETENTION_DAYS = 30;

/** Rows deleted per statement from the default partition, so a sweep never holds a long lock. */
const SWEEP_BATCH = 5000;

/** The event tables and their day column, deliveries and attempts first (they name their event). */
export const EVENT_TABLES = [
  { table: 'webhook_delivery_attempts', column: 'event_created_at' },
  { table: 'webhook_deliveries', column: 'event_created_at' },
  { table: 'events', column: 'created_at' },
] as const;

/**
 * Removes events older than the retention with their deliveries and attempts; returns how many
 * events. Their data holds the objects as they were, shoppers' names included, so they are not kept.
 */
export async function sweepExpiredEvents(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * DAY_MS);
  let removed = 0;
  for (const { table, column } of EVENT_TABLES) {
    await createDayPartitionsAhead(db, table, column, now);
    const dropped = await dropDayPartitionsBefore(db, table, cutoff);
    if (table === 'events') removed += dropped;
  }
  for (;;) {
    const batch = await db.$executeRaw`
      WITH expired AS (
        SELECT id, created_at, store_id FROM events_default WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED),
      deliveries AS (
        DELETE FROM webhook_deliveries d USING expired e WHERE d.event_id = e.id AND d.event_created_at = e.created_at AND d.store_id = e.store_id
        RETURNING d.id, d.event_created_at, d.store_id),
      attempts AS (
        DELETE FROM webhook_delivery_attempts a USING deliveries d
         WHERE a.delivery_id = d.id AND a.event_created_at = d.event_created_at AND a.store_id = d.store_id)
      DELETE FROM events ev USING expired e WHERE ev.id = e.id AND ev.created_at = e.created_at AND ev.store_id = e.store_id`;
    removed += batch;
    if (batch < SWEEP_BATCH) return removed;
  }
}
