// The server's migrator: Prisma-compatible records, exactly-once under concurrent starts, refusal
// of edited migrations, all-or-nothing failures; and the ledger's append-only guard.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureDatabase } from '../server/db/embedded.js';
import { MIGRATIONS_DIR, migrate, readMigrations } from '../server/db/migrate.js';
import { createTestDatabase } from './support/service.js';

async function emptyDatabase(): Promise<string> {
  const url = new URL(inject('postgresAdminUrl'));
  const name = `m_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  await ensureDatabase(url.toString(), name);
  url.pathname = `/${name}`;
  return url.toString();
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('the migrator', () => {
  it('applies every migration once and records it as Prisma does', async () => {
    const url = await emptyDatabase();
    const onDisk = readMigrations();
    expect(onDisk.length).toBeGreaterThan(0);
    const first = await migrate(url);
    expect(first.applied).toEqual(onDisk.map((m) => m.name));
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows).toHaveLength(onDisk.length);
    for (const row of rows) {
      const sql = readFileSync(join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    expect((await migrate(url)).applied).toEqual([]);
  });

  it('migrates exactly once when several instances start together', async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([migrate(url), migrate(url), migrate(url), migrate(url)]);
    const appliedCounts = results.map((r) => r.applied.length).sort();
    expect(appliedCounts).toEqual([0, 0, 0, readMigrations().length]);
    const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM "_prisma_migrations"');
    expect(Number(rows[0]?.n)).toBe(readMigrations().length);
  });

  it('refuses to run when an applied migration was edited', async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const edited = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: createHash('sha256').update(`${m.sql}\n-- edited`).digest('hex') } : m));
    await expect(migrate(url, edited)).rejects.toThrow(/was changed after it was applied/);
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const broken = {
      name: '29990101000000_broken',
      sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();',
      checksum: 'x'.repeat(64),
    };
    await expect(migrate(url, [...readMigrations(), broken])).rejects.toThrow(/29990101000000_broken failed/);
    const tables = await query(url, "SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'");
    expect(tables).toEqual([]);
    const recorded = await query(url, 'SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1', [broken.name]);
    expect(recorded).toEqual([]);
  });
});

describe('the premium ledger', () => {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase();
    await query(
      url,
      `WITH s AS (INSERT INTO stores (slug, name, rate_bps, min_premium_cents) VALUES ('ledger', 'L', 150, 98) RETURNING id),
            o AS (INSERT INTO orders (store_id, source_order_id, source_order_number, insurance_selected, pricing_source,
                                      subtotal_cents, amount_covered_cents, rate_bps, min_premium_cents, source_created_on)
                  SELECT id, '1', '1', true, 'rate', 10000, 10000, 150, 98, now() FROM s RETURNING id, store_id)
       INSERT INTO premium_ledger_entries (store_id, order_id, amount_cents, reason, effective_at)
       SELECT store_id, id, 150, 'booking', now() FROM o`,
    );
  });

  it('refuses UPDATE: corrections are new entries', async () => {
    await expect(query(url, 'UPDATE premium_ledger_entries SET amount_cents = 1')).rejects.toThrow(/append-only/);
  });

  it('refuses DELETE', async () => {
    await expect(query(url, 'DELETE FROM premium_ledger_entries')).rejects.toThrow(/append-only/);
    const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM premium_ledger_entries');
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it('refuses TRUNCATE, also through a cascade from orders', async () => {
    await expect(query(url, 'TRUNCATE premium_ledger_entries')).rejects.toThrow(/append-only \(TRUNCATE refused\)/);
    await expect(query(url, 'TRUNCATE orders CASCADE')).rejects.toThrow(/append-only \(TRUNCATE refused\)/);
    const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM premium_ledger_entries');
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it('refuses an entry of zero cents', async () => {
    await expect(
      query(url, "INSERT INTO premium_ledger_entries (store_id, order_id, amount_cents, reason, effective_at) SELECT store_id, order_id, 0, 'repricing', now() FROM premium_ledger_entries LIMIT 1"),
    ).rejects.toThrow(/nonzero/);
  });
});

describe('quotes', () => {
  it('refuse UPDATE: an order is priced from the quote as issued, which instances keep in memory', async () => {
    const url = await createTestDatabase();
    await query(
      url,
      `WITH s AS (INSERT INTO stores (slug, name, rate_bps, min_premium_cents) VALUES ('quotes', 'Q', 150, 98) RETURNING id)
       INSERT INTO quotes (store_id, covered_cents, premium_cents, rate_bps, min_premium_cents, created_at, expires_at)
       SELECT id, 12500, 188, 150, 98, now(), now() + interval '1 day' FROM s`,
    );
    await expect(query(url, 'UPDATE quotes SET premium_cents = 1')).rejects.toThrow(/quotes are immutable/);
    const rows = await query<{ premium_cents: string }>(url, 'SELECT premium_cents FROM quotes');
    expect(rows.map((row) => Number(row.premium_cents))).toEqual([188]);
  });
});

describe('the store in every primary and foreign key (20261128000000)', () => {
  const KEYED = '20261128000000_store_in_primary_and_foreign_keys';

  it('upgrades a database with rows: keeps them, moves store-less audit rows to the operator log, then refuses a child of another store', async () => {
    const url = await emptyDatabase();
    const all = readMigrations();
    const cut = all.findIndex((m) => m.name === KEYED);
    expect(cut).toBeGreaterThan(0);
    await migrate(url, all.slice(0, cut));
    await query(
      url,
      `WITH s AS (INSERT INTO stores (slug, name, rate_bps, min_premium_cents) VALUES ('keyed', 'K', 150, 98) RETURNING id),
            o AS (INSERT INTO orders (store_id, source_order_id, source_order_number, insurance_selected, pricing_source,
                                      subtotal_cents, amount_covered_cents, rate_bps, min_premium_cents, source_created_on)
                  SELECT id, 'A-1', '1', true, 'rate', 10000, 10000, 150, 98, now() FROM s RETURNING id, store_id),
            l AS (INSERT INTO order_line_items (order_id, store_id, position, source_id, name, price_cents, quantity)
                  SELECT id, store_id, 0, 'line-1', 'Mug', 10000, 1 FROM o)
       INSERT INTO audit_events (store_id, actor_kind, actor_id, action, subject_type, subject_id, created_at)
       SELECT id, 'operator'::actor_kind, 'ada', 'store.created', 'store', id::text, now() FROM s
       UNION ALL SELECT NULL, 'operator'::actor_kind, 'ada', 'platform.created', 'platform', 'p-1', now()`,
    );

    expect((await migrate(url, all)).applied).toEqual(all.slice(cut).map((m) => m.name));

    expect(await query(url, 'SELECT count(*)::int AS n FROM order_line_items l JOIN orders o ON o.id = l.order_id AND o.store_id = l.store_id')).toEqual([{ n: 1 }]);
    expect(await query(url, 'SELECT action, store_id IS NOT NULL AS has_store FROM audit_events')).toEqual([{ action: 'store.created', has_store: true }]);
    expect(await query(url, 'SELECT action, subject_id FROM operator_audit_events')).toEqual([{ action: 'platform.created', subject_id: 'p-1' }]);
    // The order's id with another store's id: the paired foreign key refuses it, as the old one by id alone did not.
    await query(url, "INSERT INTO stores (slug, name, rate_bps, min_premium_cents) VALUES ('other', 'O', 150, 98)");
    await expect(
      query(
        url,
        `INSERT INTO order_line_items (order_id, store_id, position, source_id, name, price_cents, quantity)
         SELECT o.id, s.id, 1, 'line-2', 'Cup', 500, 1 FROM orders o, stores s WHERE s.slug = 'other'`,
      ),
    ).rejects.toThrow(/order_line_items_order_id_fkey/);
    await expect(query(url, "INSERT INTO audit_events (actor_kind, actor_id, action, subject_type, subject_id, created_at) VALUES ('operator', 'ada', 'x', 'store', 's', now())")).rejects.toThrow(/store_id/);
  });
});
