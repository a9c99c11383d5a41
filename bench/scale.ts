// The benchmark's scale run (bench/run.ts): orders bulk-loaded in SQL, each with two line items and
// a booking in the ledger, then order read (any stored order, uniformly), order create, the
// console's order list and searches, and the store's overview and monthly statement measured
// against the server with config.scaleSmall and then config.scaleLarge orders stored.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDatabase } from '../server/db/client.js';
import type { EmbeddedCluster } from '../server/db/embedded.js';
import { config, log, round } from './config.js';
import { measure, type Measurement, type Scenario } from './measurement.js';
import { SHIPPING_DETAILS } from './requests.js';
import { BULK_FIRST_NAMES, bulkReadScenario, consoleSearchScenarios, moneyScenarios, newCounters, serverScenarios } from './scenarios.js';
import { createDatabaseIn, seed, type Seeded } from './seed.js';
import { startTarget, type Target } from './targets.js';

/** Orders from..to (inclusive) of the store, each with two line items and a booking in the ledger. */
async function loadOrderRange(client: pg.Client, storeId: string, from: number, to: number): Promise<void> {
  await client.query(
    `WITH o AS (
       INSERT INTO orders (id, store_id, source_order_id, source_order_number, insurance_selected, pricing_source,
         subtotal_cents, amount_covered_cents, order_total_cents, shipping_total_cents, taxes_cents, rate_bps,
         min_premium_cents, customer_first_name, customer_last_name, customer_email, customer_phone,
         shipping_address, platform_id, source_created_on, created_on, updated_on, status, cancelled_on)
       SELECT gen_random_uuid(), $1::uuid, 'bulk-' || g, '#' || g, true, 'rate',
         12500, 12500, 14123, 995, 628, 150, 98, ($5::text[])[g % 8 + 1], 'Lovelace' || (g % 1000), 'ada' || g || '@example.com',
         '+1 555 0100', $4::jsonb, 'api', ts, ts, ts,
         -- One order in 50 is cancelled, for the console's filter (its premium stays booked here).
         CASE WHEN g % 50 = 0 THEN 'cancelled'::order_status ELSE 'created'::order_status END,
         CASE WHEN g % 50 = 0 THEN ts + interval '1 hour' END
       FROM (SELECT g, timestamptz '2025-01-01 00:00:00+00' + g * interval '37 seconds' AS ts FROM generate_series($2::int, $3::int) g) s
       RETURNING id, store_id, source_created_on
     ), li AS (
       INSERT INTO order_line_items (id, order_id, store_id, position, source_id, name, price_cents, quantity, source_product_id, sku)
       SELECT gen_random_uuid(), o.id, o.store_id, p, 'li_' || (p + 1), 'Walnut desk organiser', 5000 + p * 1000, 2 - p, 'p_' || (p + 1), 'SKU-' || p
       FROM o CROSS JOIN generate_series(0, 1) p
     )
     INSERT INTO premium_ledger_entries (store_id, order_id, amount_cents, reason, effective_at)
     SELECT o.store_id, o.id, 188, 'booking', o.source_created_on FROM o`,
    [storeId, from, to, JSON.stringify(SHIPPING_DETAILS), BULK_FIRST_NAMES],
  );
}

/**
 * Loads orders from..to in batches of 50k over two connections (two cores). The loading sessions
 * skip foreign-key checks (session_replication_role = replica: the rows are consistent by
 * construction) and the cluster checkpoints less often meanwhile; every index is maintained as
 * usual, so the indexes are those the service would have built itself.
 */
async function bulkLoadOrders(url: string, storeId: string, from: number, to: number): Promise<void> {
  const BATCH = 50_000;
  const batches: Array<[number, number]> = [];
  for (let start = from; start <= to; start += BATCH) batches.push([start, Math.min(to, start + BATCH - 1)]);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("ALTER SYSTEM SET max_wal_size = '16GB'");
  await admin.query("ALTER SYSTEM SET checkpoint_timeout = '1h'");
  await admin.query('SELECT pg_reload_conf()');
  const started = Date.now();
  let done = 0;
  const worker = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("SET session_replication_role = 'replica'");
    await client.query('SET synchronous_commit = off');
    try {
      for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) {
        await loadOrderRange(client, storeId, batch[0], batch[1]);
        done += batch[1] - batch[0] + 1;
        if (done % 200_000 < BATCH) log(`  loaded ${done} of ${to - from + 1} orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    } finally {
      await client.end();
    }
  };
  try {
    await Promise.all([worker(), worker()]);
  } finally {
    await admin.query('ALTER SYSTEM RESET max_wal_size');
    await admin.query('ALTER SYSTEM RESET checkpoint_timeout');
    await admin.query('SELECT pg_reload_conf()');
    await admin.end();
  }
  log(`  loaded orders ${from}..${to} (+${2 * (to - from + 1)} line items, +${to - from + 1} ledger entries) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function tableSizes(client: pg.Client): Promise<Record<string, string>> {
  const { rows } = await client.query<{ relname: string; size: string }>(
    `SELECT relname, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class
      WHERE relname IN ('orders', 'order_line_items', 'premium_ledger_entries') ORDER BY relname`,
  );
  return Object.fromEntries(rows.map((row) => [row.relname, row.size]));
}

/** How many console users search at once in the scale run. */
export const CONSOLE_CONNECTIONS = 4;

/** One size of the scale run. */
export interface ScalePoint {
  ordersStored: number;
  loadSeconds: number;
  sizes: Record<string, string>;
  order_read: Measurement;
  order_create: Measurement;
  /** The console's orders list, each search and filter (consoleSearchScenarios). */
  console_orders: Measurement[];
  /** The overview read one at a time, then the overview and a month's statement under the full load (moneyScenarios). */
  money: { overview_one_at_a_time: Measurement; overview: Measurement; statement: Measurement };
}

type LatencyRatios = { mean: number; p50: number; p99: number };

export interface ScaleResult {
  small: ScalePoint;
  large: ScalePoint;
  /** Latency with scaleLarge orders stored over latency with scaleSmall stored. */
  ratios: { order_read: LatencyRatios; order_create: LatencyRatios };
}

/**
 * Runs the scale run in a database of its own (bench_scale). Each server target it starts is added
 * to `targets` too, so the caller can stop it if the run fails. Returns the database and its seed
 * as well, for the query plans, which are taken there with scaleLarge orders stored.
 */
export async function scaleRun(cluster: EmbeddedCluster, targets: Target[]): Promise<{ scale: ScaleResult; url: string; seeded: Seeded }> {
  log(`scale run: ${config.scaleSmall} then ${config.scaleLarge} orders stored`);
  const scaleUrl = await createDatabaseIn(cluster, 'bench_scale');
  const scaleDb = createDatabase(scaleUrl, { poolSize: 2 });
  const scaleSeed = await seed(scaleDb, 'scale-store');
  await scaleDb.$disconnect();
  const loader = new pg.Client({ connectionString: scaleUrl });
  await loader.connect();
  const scaleCounters = newCounters();
  const scaleRunId = `s${randomUUID().slice(0, 6)}`;
  let stored = 0;
  const create = serverScenarios(scaleSeed, scaleCounters, scaleRunId).find((s) => s.name === 'order_create') as Scenario;
  const runAt = async (size: number): Promise<ScalePoint> => {
    const loadStarted = Date.now();
    await bulkLoadOrders(scaleUrl, scaleSeed.store.id, stored + 1, size);
    stored = size;
    await loader.query('VACUUM ANALYZE orders');
    await loader.query('VACUUM ANALYZE order_line_items');
    await loader.query('VACUUM ANALYZE premium_ledger_entries');
    // The bulk load ran with triggers off (replica): the store's daily totals are rebuilt from its rows.
    await loader.query('SELECT rebuild_store_daily_totals($1::uuid)', [scaleSeed.store.id]);
    await loader.query('VACUUM ANALYZE store_daily_totals');
    await loader.query('CHECKPOINT');
    const loadSeconds = round((Date.now() - loadStarted) / 1000, 1);
    log(`  ${size} orders stored (load + vacuum ${loadSeconds} s): ${JSON.stringify(await tableSizes(loader))}`);
    const target = await startTarget('server', scaleUrl);
    targets.push(target);
    const read = await measure(target, bulkReadScenario(scaleSeed.liveKey, () => stored));
    const created = await measure(target, create);
    const consoleOrders: Measurement[] = [];
    // A store's few people at once, not the API's 16 connections: what one of them waits for.
    for (const scenario of consoleSearchScenarios(scaleSeed.consoleCookie, () => stored)) consoleOrders.push(await measure(target, scenario, { connections: CONSOLE_CONNECTIONS }));
    const { overview, statement } = moneyScenarios(scaleSeed.consoleCookie, scaleSeed.liveKey, () => stored);
    const money = {
      overview_one_at_a_time: { ...(await measure(target, overview, { connections: 1 })), name: 'console_overview_month (one at a time)' },
      overview: await measure(target, overview),
      statement: await measure(target, statement),
    };
    await target.stop();
    return { ordersStored: size, loadSeconds, sizes: await tableSizes(loader), order_read: read, order_create: created, console_orders: consoleOrders, money };
  };
  const small = await runAt(config.scaleSmall);
  const large = await runAt(config.scaleLarge);
  await loader.end();
  const latencyRatio = (name: 'order_read' | 'order_create', key: 'mean' | 'p50' | 'p99') =>
    round(large[name].latencyMs[key] / Math.max(0.01, small[name].latencyMs[key]), 2);
  const scale: ScaleResult = {
    small,
    large,
    ratios: {
      order_read: { mean: latencyRatio('order_read', 'mean'), p50: latencyRatio('order_read', 'p50'), p99: latencyRatio('order_read', 'p99') },
      order_create: { mean: latencyRatio('order_create', 'mean'), p50: latencyRatio('order_create', 'p50'), p99: latencyRatio('order_create', 'p99') },
    },
  };
  return { scale, url: scaleUrl, seeded: scaleSeed };
}
