// The Prisma schema and the database built by the hand-written migrations must agree: every model,
// field, type, nullability, enum value, index and foreign key, in both directions.
// (`prisma migrate` cannot run here, as the CLI cannot download its schema engine, so nothing else
// would catch a drift.)
import { readFileSync } from 'node:fs';
import { get_dmmf } from '@prisma/prisma-schema-wasm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/service.js';

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object';
  type: string;
  isList: boolean;
  isRequired: boolean;
  nativeType: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfEnum {
  name: string;
  dbName: string | null;
  values: Array<{ name: string; dbName: string | null }>;
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName: string | null;
  fields: Array<{ name: string }>;
}

const dmmf = JSON.parse(
  get_dmmf(JSON.stringify({ prismaSchema: readFileSync('prisma/schema.prisma', 'utf8'), noColor: true })),
) as { datamodel: { models: DmmfModel[]; enums: DmmfEnum[]; indexes: DmmfIndex[] } };
const { models, enums, indexes } = dmmf.datamodel;

const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
const columnOf = (field: DmmfField) => field.dbName ?? field.name;
const enumDbName = (name: string) => {
  const found = enums.find((e) => e.name === name);
  return found?.dbName ?? name;
};

/** The PostgreSQL type name (information_schema udt_name) a Prisma field maps to. */
function expectedUdt(field: DmmfField): string {
  const base = (() => {
    if (field.kind === 'enum') return enumDbName(field.type);
    const native = field.nativeType?.[0];
    switch (field.type) {
      case 'String':
        if (native === 'VarChar') return 'varchar';
        return native === 'Uuid' ? 'uuid' : 'text';
      case 'Int':
        return 'int4';
      case 'BigInt':
        return 'int8';
      case 'Boolean':
        return 'bool';
      case 'DateTime':
        if (native === 'Date') return 'date';
        return native === 'Timestamptz' ? 'timestamptz' : 'timestamp';
      case 'Json':
        return native === 'Json' ? 'json' : 'jsonb';
      case 'Bytes':
        return 'bytea';
      default:
        throw new Error(`No mapping for Prisma type ${field.type}`);
    }
  })();
  return field.isList ? `_${base}` : base;
}

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(async () => client.end());

interface ColumnRow {
  table_name: string;
  column_name: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  datetime_precision: number | null;
}

async function columns(): Promise<ColumnRow[]> {
  const { rows } = await client.query<ColumnRow>(
    `SELECT table_name, column_name, udt_name, is_nullable, datetime_precision
       FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
        -- A view (store_daily_totals_from_sources) is not a model, nor is a partition: their columns are
        -- not Prisma's (a partition's are its parent's, which are).
        AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
        AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)`,
  );
  return rows;
}

describe('schema.prisma and the migrated database', () => {
  it('have the same tables', async () => {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
          AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)`,
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual(models.map(tableOf).sort());
  });

  it('have the same columns, with the same types and nullability', async () => {
    const actual = await columns();
    const expected = models.flatMap((model) =>
      model.fields
        .filter((field) => field.kind !== 'object')
        .map((field) => ({
          table_name: tableOf(model),
          column_name: columnOf(field),
          udt_name: expectedUdt(field),
          is_nullable: field.isRequired ? 'NO' : 'YES',
        })),
    );
    const key = (c: { table_name: string; column_name: string }) => `${c.table_name}.${c.column_name}`;
    const strip = (c: ColumnRow) => ({ table_name: c.table_name, column_name: c.column_name, udt_name: c.udt_name, is_nullable: c.is_nullable });
    expect(actual.map(strip).sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      expected.sort((a, b) => key(a).localeCompare(key(b))),
    );
  });

  it('store timestamps with millisecond precision, as @db.Timestamptz(3) says', async () => {
    const stamps = (await columns()).filter((c) => c.udt_name === 'timestamptz');
    expect(stamps.length).toBeGreaterThan(0);
    for (const column of stamps) expect(column.datetime_precision, `${column.table_name}.${column.column_name}`).toBe(3);
  });

  it('have the same enum types and values', async () => {
    const { rows } = await client.query<{ typname: string; labels: string[] }>(
      `SELECT t.typname, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
    );
    const actual = Object.fromEntries(rows.map((r) => [r.typname, r.labels]));
    const expected = Object.fromEntries(enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)]));
    expect(actual).toEqual(expected);
  });

  it('have every primary key, unique constraint and index of the schema', async () => {
    const { rows } = await client.query<{ indexname: string; tablename: string; indexdef: string }>(
      `SELECT indexname, tablename, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
    );
    for (const index of indexes) {
      const model = models.find((m) => m.name === index.model);
      if (!model) throw new Error(`index on unknown model ${index.model}`);
      const columnNames = index.fields.map((f) => columnOf(model.fields.find((field) => field.name === f.name) as DmmfField));
      // Prisma's default names, so that `prisma migrate` would find the same indexes.
      const suffix = { id: 'pkey', unique: 'key', normal: 'idx', fulltext: 'idx' }[index.type];
      const name = index.dbName ?? (index.type === 'id' ? `${tableOf(model)}_pkey` : `${tableOf(model)}_${columnNames.join('_')}_${suffix}`);
      const found = rows.find((row) => row.tablename === tableOf(model) && row.indexname === name);
      const wanted = `${index.type} index ${name} on ${tableOf(model)}(${columnNames.join(', ')})`;
      expect(found, wanted).toBeDefined();
      // pg_indexes quotes keywords such as "position"
      expect(found?.indexdef.replaceAll('"', ''), wanted).toContain(`(${columnNames.join(', ')})`);
      if (index.type === 'unique' || index.type === 'id') expect(found?.indexdef, wanted).toMatch(/UNIQUE/);
    }
  });

  it('have a foreign key for every relation, on the same columns in the same order', async () => {
    const { rows } = await client.query<{ table_name: string; columns: string[]; foreign_table: string; foreign_columns: string[] }>(
      // A partition's foreign keys are its parent's (conparentid names it): the parents' only.
      `SELECT t.relname AS table_name, f.relname AS foreign_table,
              array(SELECT attname FROM unnest(k.conkey) WITH ORDINALITY u(num, ord) JOIN pg_attribute ON attrelid = k.conrelid AND attnum = u.num ORDER BY ord)::text[] AS columns,
              array(SELECT attname FROM unnest(k.confkey) WITH ORDINALITY u(num, ord) JOIN pg_attribute ON attrelid = k.confrelid AND attnum = u.num ORDER BY ord)::text[] AS foreign_columns
         FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = 'public' AND k.contype = 'f' AND NOT t.relispartition AND k.conparentid = 0`,
    );
    const expected = models.flatMap((model) =>
      model.fields
        .filter((field) => field.kind === 'object' && (field.relationFromFields?.length ?? 0) > 0)
        .map((field) => {
          const target = models.find((m) => m.name === field.type) as DmmfModel;
          const column = (owner: DmmfModel, name: string) => columnOf(owner.fields.find((f) => f.name === name) as DmmfField);
          return {
            table_name: tableOf(model),
            columns: (field.relationFromFields ?? []).map((name) => column(model, name)),
            foreign_table: tableOf(target),
            foreign_columns: (field.relationToFields ?? []).map((name) => column(target, name)),
          };
        }),
    );
    const key = (r: { table_name: string; columns: string[] }) => `${r.table_name}.${r.columns.join(',')}`;
    expect([...rows].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(expected.sort((a, b) => key(a).localeCompare(key(b))));
  });
});
