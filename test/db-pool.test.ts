// A connection the database closes while it is checked out of the pool (between two statements of
// a transaction) must not end the process: pg emits 'error' on the client itself, which the pool's
// own listener does not cover. Its next statement fails and reaches the caller instead.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../server/db/client.js';
import { createTestDatabase } from './support/service.js';

let databaseUrl: string;
const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  process.on('uncaughtException', record);
});
afterAll(() => {
  process.off('uncaughtException', record);
});

/** Ends the backend of `pid` from another session, as a shutdown or a restart of the database does. */
async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

/** Until the client has seen its connection end (pg marks it unqueryable), at most two seconds. */
async function ended(client: pg.PoolClient): Promise<void> {
  const started = Date.now();
  while ((client as unknown as { _queryable: boolean })._queryable && Date.now() - started < 2000) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a pool connection closed while checked out', () => {
  it('fails its next statement instead of ending the process, and the pool opens a new one', async () => {
    const pool = createPool(databaseUrl, { max: 2, applicationName: 'pool-test' });
    try {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query('BEGIN');
      await terminate(rows[0]?.pid as number);
      await ended(client);
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(true);
      expect(uncaught).toEqual([]);
      // The pool is still good.
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('listens on each checked-out connection, where a plain pool does not (the control)', async () => {
    const ours = createPool(databaseUrl, { max: 1, applicationName: 'pool-test' });
    const plain = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    plain.on('error', () => {});
    try {
      const mine = await ours.connect();
      const theirs = await plain.connect();
      // Checked out, a plain pool's connection has no 'error' listener: pg emitting one ends the process.
      expect(theirs.listenerCount('error')).toBe(0);
      expect(mine.listenerCount('error')).toBeGreaterThanOrEqual(1);
      mine.release();
      theirs.release();
    } finally {
      await Promise.all([ours.end(), plain.end()]);
    }
  });
});
