// The schema read from PostgreSQL's catalogue against the rules of distributing by store on Citus
// (docs/scaling.md, section 4): every table holding a store's data has a store_id, its primary key
// and every unique index include it, and a foreign key between two such tables includes it on both
// sides. Tables shared by all stores (reference tables) and tables that stay on the coordinator are
// named; a table in neither list is a store's. No table breaks a rule: a new table, key or foreign
// key that does fails the test.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/service.js';

/** Copied to every node: small, read everywhere, found before the store is known. */
const REFERENCE_TABLES = ['stores', 'api_keys', 'platforms', 'store_platforms', 'merchant_users', 'server_secrets'];
/** Kept on the coordinator: no store, or keyed by something found before the store is. */
const COORDINATOR_TABLES = ['rate_limit_counters', 'console_sessions', 'user_setup_tokens', 'address_lookups', 'operator_audit_events'];


let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(async () => client.end());

interface TableRow {
  table: string;
  storeColumn: 'none' | 'nullable' | 'required';
}
interface KeyRow {
  table: string;
  name: string;
  kind: 'primary key' | 'unique index';
  columns: string[];
}
interface ForeignKeyRow {
  table: string;
  foreign_table: string;
  columns: string[];
  foreign_columns: string[];
}

/** The service's tables (not partitions, not pg-boss's, not Prisma's), with their store_id. */
async function tables(): Promise<TableRow[]> {
  const { rows } = await client.query<TableRow>(`
    SELECT c.relname AS table,
           CASE WHEN a.attname IS NULL THEN 'none' WHEN a.attnotnull THEN 'required' ELSE 'nullable' END AS "storeColumn"
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'store_id' AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations'
     ORDER BY 1`);
  return rows;
}

/** Primary keys and unique indexes, with their columns (an expression index shows its expression). */
async function keys(): Promise<KeyRow[]> {
  const { rows } = await client.query<KeyRow>(`
    SELECT t.relname AS table, i.relname AS name,
           CASE WHEN x.indisprimary THEN 'primary key' ELSE 'unique index' END AS kind,
           array(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) k ORDER BY k)::text[] AS columns
      FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND x.indisunique AND NOT t.relispartition`);
  return rows;
}

async function foreignKeys(): Promise<ForeignKeyRow[]> {
  const { rows } = await client.query<ForeignKeyRow>(`
    SELECT t.relname AS table, f.relname AS foreign_table,
           array(SELECT attname FROM unnest(k.conkey) WITH ORDINALITY u(num, ord) JOIN pg_attribute ON attrelid = k.conrelid AND attnum = u.num ORDER BY ord)::text[] AS columns,
           array(SELECT attname FROM unnest(k.confkey) WITH ORDINALITY u(num, ord) JOIN pg_attribute ON attrelid = k.confrelid AND attnum = u.num ORDER BY ord)::text[] AS foreign_columns
      FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND k.contype = 'f' AND NOT t.relispartition AND k.conparentid = 0`);
  return rows;
}

/** Every break of the rules in the schema as it is. */
async function breaks(): Promise<string[]> {
  const all = await tables();
  const classified = new Set([...REFERENCE_TABLES, ...COORDINATOR_TABLES]);
  const tenant = new Set(all.map((row) => row.table).filter((table) => !classified.has(table)));
  const found: string[] = [];
  for (const row of all.filter((row) => tenant.has(row.table))) {
    if (row.storeColumn === 'none') found.push(`${row.table}: no store_id column`);
    if (row.storeColumn === 'nullable') found.push(`${row.table}: store_id may be null`);
  }
  for (const key of (await keys()).filter((key) => tenant.has(key.table))) {
    if (key.columns.includes('store_id')) continue;
    found.push(key.kind === 'primary key' ? `${key.table}: primary key (${key.columns.join(', ')}) lacks store_id` : `${key.table}: unique index ${key.name} lacks store_id`);
  }
  for (const fk of (await foreignKeys()).filter((fk) => tenant.has(fk.table) && tenant.has(fk.foreign_table))) {
    const paired = fk.columns.some((column, index) => column === 'store_id' && fk.foreign_columns[index] === 'store_id');
    if (!paired) found.push(`${fk.table}: foreign key (${fk.columns.join(', ')}) to ${fk.foreign_table} lacks store_id`);
  }
  return found.sort();
}

describe("the schema against Citus's rules for distributing by store", () => {
  it('names every table that is not a store’s, and each named one exists', async () => {
    const names = (await tables()).map((row) => row.table);
    for (const table of [...REFERENCE_TABLES, ...COORDINATOR_TABLES]) expect(names).toContain(table);
  });

  it('breaks no rule', async () => {
    expect(await breaks()).toEqual([]);
  });

  it('finds a break: a store table without store_id or with it nullable, a unique index or a foreign key without it', async () => {
    await client.query('BEGIN');
    try {
      // The foreign key names the order's store under another column: joined by it, not by store_id.
      await client.query(`CREATE TABLE zz_gift_notes (id uuid PRIMARY KEY, order_id uuid NOT NULL, order_store uuid NOT NULL, note text,
                            FOREIGN KEY (order_id, order_store) REFERENCES orders (id, store_id))`);
      await client.query('CREATE UNIQUE INDEX zz_gift_notes_note_key ON zz_gift_notes (note)');
      await client.query('CREATE TABLE zz_gift_wraps (id uuid, store_id uuid, PRIMARY KEY (id))');
      const found = await breaks();
      expect(found.filter((line) => line.startsWith('zz_'))).toEqual([
        'zz_gift_notes: foreign key (order_id, order_store) to orders lacks store_id',
        'zz_gift_notes: no store_id column',
        'zz_gift_notes: primary key (id) lacks store_id',
        'zz_gift_notes: unique index zz_gift_notes_note_key lacks store_id',
        'zz_gift_wraps: primary key (id) lacks store_id',
        'zz_gift_wraps: store_id may be null',
      ]);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
