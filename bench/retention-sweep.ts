// The retention run (bench/run.ts): the events' retention sweep with config.retentionEvents events
// stored (10 million by default), each with one delivery and one attempt, spread evenly over the 31
// days before today, so that the oldest day is wholly past the 30 days kept. The same day is
// removed twice, the old way and the new:
// - before: the DELETE batches the sweep ran until the tables were partitioned (5,000 events at a
//   time, with their deliveries and attempts), then the VACUUM those deletes call for. They run on
//   the partitioned tables, each lookup naming the expired day: the old way at its best;
// - after: the sweep as it is (server/domain/events/sweep-events.ts), which drops the day's three
//   partitions. The day is loaded again and vacuumed in between, as a month-old day would be.
// Each is timed, with the WAL it wrote (what a replica and the backups must carry).
import pg from 'pg';
import { createDatabase } from '../server/db/client.js';
import type { EmbeddedCluster } from '../server/db/embedded.js';
import { EVENT_RETENTION_DAYS, EVENT_TABLES, sweepExpiredEvents } from '../server/domain/events/index.js';
import { config, log, round } from './config.js';
import { createDatabaseIn, seed } from './seed.js';

export interface RemovalCost {
  seconds: number;
  walBytes: number;
  eventsRemoved: number;
}

export interface RetentionSweepResult {
  eventsStored: number;
  eventsPerDay: number;
  loadSeconds: number;
  /** The three event tables with their indexes, before the sweep. */
  tablesSize: string;
  deleteBatches: RemovalCost & { vacuumSeconds: number; vacuumWalBytes: number };
  dropPartitions: RemovalCost;
}

const DAYS = EVENT_RETENTION_DAYS + 1;
const DAY_MS = 86_400_000;
/** The batch the sweep deleted by before the tables were partitioned. */
const OLD_SWEEP_BATCH = 5000;
const TABLES = EVENT_TABLES.map(({ table }) => table);

/** One day's events, deliveries and attempts, `count` of each, evenly over the day from `dayStart`. */
async function loadDay(client: pg.Client, storeId: string, endpointId: string, dayStart: Date, count: number, firstSeq: number): Promise<void> {
  await client.query(
    `WITH e AS (
       INSERT INTO events (id, seq, store_id, type, mode, actor_kind, actor_id, data, created_at)
       SELECT 'evt_bench' || ($5::bigint + g), $5::bigint + g, $1::uuid, 'order.created', 'live', 'api_key', 'key_bench',
              json_build_object('id', 'ord_' || ($5::bigint + g), 'source_order_id', 'bulk-' || g, 'subtotal', '125.00', 'paid_to_insure', '1.88',
                                'customer_details', json_build_object('first_name', 'Ada', 'last_name', 'Lovelace', 'email', 'ada@example.com')),
              $3::timestamptz + (g * ($4::float8 / $6::int)) * interval '1 millisecond'
         FROM generate_series(0, $6::int - 1) g
       RETURNING id, seq, created_at, object_key
     ), d AS (
       INSERT INTO webhook_deliveries (id, seq, store_id, event_id, event_created_at, event_seq, endpoint_id, object_key, status, attempt_count, created_at, updated_at)
       SELECT 'del_' || substr(e.id, 5), e.seq, $1::uuid, e.id, e.created_at, e.seq, $2, e.object_key, 'succeeded', 1, e.created_at, e.created_at FROM e
       RETURNING id, event_created_at
     )
     INSERT INTO webhook_delivery_attempts (delivery_id, store_id, event_created_at, attempted_at, succeeded, status_code, duration_ms)
     SELECT d.id, $1::uuid, d.event_created_at, d.event_created_at, true, 200, 95 FROM d`,
    [storeId, endpointId, dayStart.toISOString(), DAY_MS, firstSeq, count],
  );
}

const walPosition = async (client: pg.Client) => (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]?.lsn as string;
const walSince = async (client: pg.Client, from: string) =>
  Number((await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS bytes', [from])).rows[0]?.bytes);

export async function retentionSweepRun(cluster: EmbeddedCluster): Promise<RetentionSweepResult> {
  const events = config.retentionEvents;
  const perDay = Math.ceil(events / DAYS);
  log(`retention run: ${perDay * DAYS} events over ${DAYS} days, each with a delivery and an attempt`);
  const url = await createDatabaseIn(cluster, 'bench_retention');
  const db = createDatabase(url, { poolSize: 2 });
  const seeded = await seed(db, 'retention-store');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const endpointId = 'we_bench_retention';
    await client.query(
      `INSERT INTO webhook_endpoints (id, store_id, url, events, secret, created_at, updated_at)
       VALUES ($1, $2::uuid, 'https://shop.example.com/hooks', '{*}', 'whsec_YmVuY2g=', now(), now())`,
      [endpointId, seeded.store.id],
    );
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const firstDay = new Date(today - DAYS * DAY_MS);
    for (const { table, column } of EVENT_TABLES) {
      await client.query('SELECT create_day_partitions($1, $2, $3::date, $4)', [table, column, firstDay.toISOString().slice(0, 10), DAYS]);
    }
    await client.query("ALTER SYSTEM SET max_wal_size = '16GB'");
    await client.query('SELECT pg_reload_conf()');
    const loadStarted = Date.now();
    // Two loaders at once (two cores), a day at a time.
    const days = Array.from({ length: DAYS }, (_, index) => index);
    const loader = async () => {
      const own = new pg.Client({ connectionString: url });
      await own.connect();
      await own.query('SET synchronous_commit = off');
      try {
        for (let day = days.shift(); day !== undefined; day = days.shift()) {
          await loadDay(own, seeded.store.id, endpointId, new Date(firstDay.getTime() + day * DAY_MS), perDay, day * perDay);
          if (day % 8 === 0) log(`  loaded day ${day + 1} of ${DAYS} in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s`);
        }
      } finally {
        await own.end();
      }
    };
    await Promise.all([loader(), loader()]);
    await client.query("SELECT setval('events_seq_seq', $1)", [DAYS * perDay + 1]);
    for (const table of TABLES) await client.query(`VACUUM ANALYZE ${table}`);
    await client.query('CHECKPOINT');
    const loadSeconds = round((Date.now() - loadStarted) / 1000, 1);
    const size = await client.query<{ size: string }>(
      `SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS size FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent IN ('events'::regclass, 'webhook_deliveries'::regclass, 'webhook_delivery_attempts'::regclass)`,
    );
    const tablesSize = size.rows[0]?.size ?? '?';
    log(`  loaded in ${loadSeconds} s: ${tablesSize}`);

    // Before: the old sweep's DELETE batches, then the VACUUM they call for; up to the end of the
    // oldest day, so that both ways remove the same rows.
    const cutoff = new Date(firstDay.getTime() + DAY_MS);
    let wal = await walPosition(client);
    let started = performance.now();
    let deleted = 0;
    for (;;) {
      await client.query('BEGIN');
      const expired = await client.query<{ id: string }>('SELECT id FROM events WHERE created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED', [cutoff, OLD_SWEEP_BATCH]);
      const ids = expired.rows.map((row) => row.id);
      if (ids.length > 0) {
        // Each lookup names the days, so PostgreSQL reads the expired day's partitions only: the
        // old way at its best (on the unpartitioned tables it read one index each, as large as
        // all 31 days' together).
        await client.query(
          `DELETE FROM webhook_delivery_attempts a USING webhook_deliveries d
            WHERE d.event_id = ANY ($1::text[]) AND d.event_created_at < $2 AND a.delivery_id = d.id AND a.event_created_at < $2`,
          [ids, cutoff],
        );
        await client.query('DELETE FROM webhook_deliveries WHERE event_id = ANY ($1::text[]) AND event_created_at < $2', [ids, cutoff]);
        deleted += (await client.query('DELETE FROM events WHERE id = ANY ($1::text[]) AND created_at < $2', [ids, cutoff])).rowCount ?? 0;
      }
      await client.query('COMMIT');
      if (ids.length < OLD_SWEEP_BATCH) break;
    }
    const deleteSeconds = round((performance.now() - started) / 1000, 2);
    const deleteWal = await walSince(client, wal);
    wal = await walPosition(client);
    started = performance.now();
    for (const table of TABLES) await client.query(`VACUUM ${table}`);
    const vacuumSeconds = round((performance.now() - started) / 1000, 2);
    const vacuumWal = await walSince(client, wal);
    log(`  before: DELETE batches removed ${deleted} events in ${deleteSeconds} s (${(deleteWal / 2 ** 20).toFixed(0)} MB of WAL), VACUUM ${vacuumSeconds} s`);

    // After: the day loaded again and vacuumed (as autovacuum leaves a month-old day), then the sweep as it is.
    await loadDay(client, seeded.store.id, endpointId, firstDay, perDay, DAYS * perDay + 10);
    for (const table of TABLES) await client.query(`VACUUM ANALYZE ${table}`);
    await client.query('CHECKPOINT');
    wal = await walPosition(client);
    started = performance.now();
    const dropped = await sweepExpiredEvents(db, now);
    const dropSeconds = round((performance.now() - started) / 1000, 2);
    const dropWal = await walSince(client, wal);
    log(`  after: the sweep dropped the day (${dropped} events) in ${dropSeconds} s (${(dropWal / 2 ** 10).toFixed(0)} kB of WAL)`);
    return {
      eventsStored: DAYS * perDay,
      eventsPerDay: perDay,
      loadSeconds,
      tablesSize,
      deleteBatches: { seconds: deleteSeconds, walBytes: deleteWal, eventsRemoved: deleted, vacuumSeconds, vacuumWalBytes: vacuumWal },
      dropPartitions: { seconds: dropSeconds, walBytes: dropWal, eventsRemoved: dropped },
    };
  } finally {
    await client.query('ALTER SYSTEM RESET max_wal_size').catch(() => undefined);
    await client.query('SELECT pg_reload_conf()').catch(() => undefined);
    await client.end();
    await db.$disconnect();
  }
}
