// Tables partitioned by UTC day (migration 20261127210000_partition_by_day): the events with their
// deliveries and attempts, and the request log. The hourly sweep creates the next days ahead and
// drops the days wholly past their retention; SQL functions of the migration do the DDL.
import type { Database } from '../../db/client.js';

/** How many days ahead the sweep keeps created: a week and a day, so a missed sweep loses nothing. */
export const DAYS_CREATED_AHEAD = 8;

/** Creates the day partitions of `table` from `now`'s day for DAYS_CREATED_AHEAD days that do not exist yet; returns how many. */
export async function createDayPartitionsAhead(db: Database, table: string, column: string, now: Date): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ created: number }>>`
    SELECT create_day_partitions(${table}, ${column}, (${now}::timestamptz AT TIME ZONE 'UTC')::date, ${DAYS_CREATED_AHEAD}::int) AS created`;
  return row?.created ?? 0;
}

/** Drops the day partitions of `table` that end at or before `cutoff`; returns how many rows they held. */
export async function dropDayPartitionsBefore(db: Database, table: string, cutoff: Date): Promise<number> {
  const dropped = await db.$queryRaw<Array<{ dropped_rows: bigint }>>`SELECT dropped_rows FROM drop_day_partitions_before(${table}, ${cutoff}::timestamptz)`;
  return dropped.reduce((sum, row) => sum + Number(row.dropped_rows), 0);
}
