// The job queue (pg-boss, on the service's PostgreSQL): one per instance, shared by the tracking
// polls and the event deliveries. Every instance can work it; the queue hands each job to one of
// them (SKIP LOCKED), and a crashed worker's job expires and is retried.
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { Transaction } from '../db/client.js';

export async function startJobQueue(options: { databaseUrl: string; logger: Logger; schedules: boolean }): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    application_name: 'order-protection-jobs',
    max: 4,
    // Cron schedules (the daily retention job) are kept by the instances that work jobs.
    schedule: options.schedules,
  });
  boss.on('error', (error: Error) => options.logger.error({ component: 'jobs', error_name: error.name, message: error.message }, 'job queue error'));
  await boss.start();
  return boss;
}

/** Objects travel as JSON text, as pg-boss's own driver would send them. */
const asParameters = (values: unknown[] | undefined) =>
  (values ?? []).map((value: unknown) => (value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value));

/** pg-boss writes through our transaction, so a job commits (or not) with the change that makes it. */
export function inTransaction(tx: Transaction): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: await tx.$queryRawUnsafe<unknown[]>(text, ...asParameters(values)) }) };
}

/** The same, on a node-postgres connection in a transaction (the first-poll mover's, tracking-jobs.ts). */
export function onConnection(client: pg.ClientBase): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: (await client.query(text, asParameters(values))).rows as unknown[] }) };
}
