// Creates the Prisma client over node-postgres (Prisma 7 driver adapter; no native engine needed).
// The pg pool under it is ours, so the few statements on every request's path (key lookup, order
// and shipment reads, the order insert) can run on it directly: see hotQuery and docs/performance.md.
import { PrismaPg } from '@prisma/adapter-pg';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/client.js';

/**
 * A database handle: the Prisma client, the pg pool under it (for the hot statements), and what
 * this process may keep in memory of rows the database refuses to change (quotes, by id). Each
 * handle has its own: nothing is shared through module state, so two services in one process (the
 * tests, the bench) never see each other's memory.
 */
export type Database = PrismaClient & {
  readonly pool: pg.Pool;
  readonly immutableRows: LRUCache<string, object>;
};
export type Transaction = Prisma.TransactionClient;
export { Prisma };

/**
 * The key of one row of a store's table: its id with its store, as every such table's primary key
 * is (id, store_id) so that Citus can distribute it by store (docs/scaling.md, section 4).
 */
export function storeRowKey(storeId: string, id: string): { id_storeId: { id: string; storeId: string } } {
  return { id_storeId: { id, storeId } };
}

export interface DatabaseOptions {
  /** Connections this process may hold. Several instances share one PostgreSQL, so keep it modest. */
  poolSize?: number;
}

/**
 * Every pg pool of the process is made here. A connection the database closes (a restart, a
 * terminated backend, an idle timeout) makes the pool emit 'error' for it; without a listener that
 * event ends the process. The pool drops such a connection and the next query opens another, so
 * nothing is to be done but to keep going: the failure of a query in flight reaches its caller.
 * The pool listens only to its idle connections, though: one closed while checked out, between two
 * statements of a transaction (Prisma's interactive ones included), emits 'error' on itself, and
 * without a listener of its own that too ended the process (a shutdown or a database restart under
 * load). Its next statement fails and reaches the caller, and the pool discards it on release.
 * The application name tells the connections apart in pg_stat_activity.
 */
export function createPool(databaseUrl: string, options: { max: number; applicationName: string }): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max, application_name: options.applicationName });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export function createDatabase(databaseUrl: string, options: DatabaseOptions = {}): Database {
  const pool = createPool(databaseUrl, { max: options.poolSize ?? 10, applicationName: 'order-protection-api' });
  // $disconnect() ends the pool, as it did when the adapter made the pool itself.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  // Minimal messages: the default format embeds source excerpts and paths in error text.
  // A burst on a few orders queues transactions behind each other's row locks and for the pool's
  // connections: Prisma's defaults (2 s to get a connection, 5 s to finish) turned such waits into
  // 500s under load, where waiting a little longer answers every request.
  const prisma = new PrismaClient({ adapter, errorFormat: 'minimal', transactionOptions: { maxWait: 10_000, timeout: 15_000 } });
  return Object.assign(prisma, { pool, immutableRows: new LRUCache<string, object>({ max: 50_000 }) });
}

/** A statement of the request path: a fixed text, prepared once per connection under its name. */
export interface HotStatement {
  name: string;
  text: string;
}

/**
 * A hot statement whose text is built on its first use. A statement assembled from another
 * context's SQL builders (an event's insert, the order read) must not run them while the modules
 * load: contexts import each other through their index, and in such a cycle a builder may not be
 * initialised yet when the importing module's top level runs.
 */
export function lazyStatement(name: string, build: () => string): HotStatement {
  let text: string | undefined;
  return {
    name,
    get text() {
      text ??= build();
      return text;
    },
  };
}

/**
 * Runs one hot statement on the client's pool, bypassing Prisma's query layer (measured at about
 * 110 µs of CPU per statement on top of node-postgres' 80 µs) and PostgreSQL's parse and plan of
 * each execution (the statement is prepared per connection). Only for single statements outside a
 * transaction. Rows come as node-postgres gives them: int8 as a string, timestamptz as a Date,
 * json as parsed values.
 */
export async function hotQuery<Row extends pg.QueryResultRow>(db: Database, statement: HotStatement, values: unknown[]): Promise<Row[]> {
  const result = await db.pool.query<Row>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

/**
 * Runs `work` in a transaction on one connection of the pool, without Prisma's layer (its
 * interactive transaction costs milliseconds of CPU a request on a hot path): COMMIT when it
 * resolves, ROLLBACK when it throws. A connection whose rollback failed is not given back.
 */
export async function inConnectionTransaction<T>(db: Database, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((failed: unknown) => {
        broken = failed instanceof Error ? failed : new Error('rollback failed');
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

/**
 * True when a write lost a race against a unique constraint (the database's duplicate guard):
 * through Prisma (P2002), or a hot statement, which node-postgres reports with PostgreSQL's code.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code === 'P2002';
  return error instanceof pg.DatabaseError && error.code === '23505';
}

/** Node's socket errors when the database host cannot be reached or drops the connection. */
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Prisma's words for the same, through the driver adapter. */
const UNREACHABLE_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TlsConnectionError']);
/** Prisma's own codes: can't reach (P1001), timed out (P1002), closed (P1017), no free connection (P2024). */
const UNREACHABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);

/** PostgreSQL's SQLSTATEs for a server going away: connection exceptions (08), shutdown and start-up (57P0x), too many connections. */
function isUnavailableState(code: unknown): boolean {
  return typeof code === 'string' && (code.startsWith('08') || /^57P0[1-4]$/.test(code) || code === '53300');
}

/**
 * True when an error says the database is away (restarting, unreachable, out of connections) rather
 * than that the request or our code is wrong: the request can succeed unchanged a moment later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (UNREACHABLE_PRISMA_CODES.has(error.code)) return true;
    const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: string; code?: string } } } | undefined)?.driverAdapterError?.cause;
    return cause !== undefined && (UNREACHABLE_ADAPTER_KINDS.has(cause.kind ?? '') || (cause.kind === 'postgres' && isUnavailableState(cause.code)));
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_SOCKET_CODES.has(code) || isUnavailableState(code))) return true;
  // node-postgres' own words for a connection that died under a query or before it.
  const message = error instanceof Error ? error.message : '';
  return /^Connection terminated|not queryable|^timeout exceeded when trying to connect/.test(message);
}
