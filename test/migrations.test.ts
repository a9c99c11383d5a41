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
