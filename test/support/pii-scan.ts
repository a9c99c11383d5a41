// The erasure tests' proof: every table of the database (the service's and pg-boss's), each row
// read whole as text, for one value.
import type { Database } from '../../server/db/client.js';

/** The tables with a row holding the value anywhere (any column, any case). */
export async function tablesHolding(db: Database, value: string): Promise<string[]> {
  const tables = await db.$queryRawUnsafe<Array<{ table_schema: string; table_name: string }>>(
    "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'",
  );
  const found: string[] = [];
  for (const { table_schema, table_name } of tables) {
    const rows = await db.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM ${quoted(table_schema)}.${quoted(table_name)} t WHERE t::text ILIKE '%' || $1 || '%'`,
      value,
    );
    if (Number(rows[0]?.n ?? 0) > 0) found.push(table_name);
  }
  return found;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
