// The request log of the console's developers page: each request a store's key made, for a day.
// Recorded after the answer, in memory, and written in one INSERT a second per instance, so a
// request never waits on it; a write that fails loses those lines, never a request. Holds the
// method, the path, the status, the request id and the duration: no header, query or body.
import { hotQuery, type Database, type HotStatement } from '../../db/client.js';
import type { Scope } from './actor.js';
import { createDayPartitionsAhead, dropDayPartitionsBefore } from '../kernel/index.js';

export const REQUEST_LOG_RETENTION_MS = 24 * 3600 * 1000;
const FLUSH_EVERY_MS = 1000;
/** Lines held at most between writes: past it, the newest are dropped rather than memory grown. */
const MAX_PENDING = 10_000;

export interface RequestLogLine {
  storeId: string;
  at: Date;
  mode: 'live' | 'test';
  method: string;
  path: string;
  status: number;
  requestId: string;
  durationMs: number;
}

export interface RequestLog {
  record(line: RequestLogLine): void;
  /** Writes what is pending now (shutdown, tests). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A second's lines in one statement of eight array parameters. Prisma's createMany made a statement
 * of eight parameters a line: at a thousand requests a second, building it held the event loop for
 * tens of milliseconds every second, which every request then in flight waited out (the bench's p99).
 */
const INSERT_LINES: HotStatement = {
  name: 'op_insert_request_log',
  text: `INSERT INTO request_log (store_id, at, mode, method, path, status, request_id, duration_ms)
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::key_mode[], $4::text[], $5::text[], $6::int[], $7::text[], $8::int[])`,
};

export function createRequestLog(db: Database): RequestLog {
  let pending: RequestLogLine[] = [];
  let writing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      if (pending.length === 0) return;
      const lines = pending;
      pending = [];
      await hotQuery(db, INSERT_LINES, [
        lines.map((line) => line.storeId),
        lines.map((line) => line.at),
        lines.map((line) => line.mode),
        lines.map((line) => line.method),
        lines.map((line) => line.path.slice(0, 2000)),
        lines.map((line) => line.status),
        lines.map((line) => line.requestId),
        lines.map((line) => Math.round(line.durationMs)),
      ]).catch(() => undefined);
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();
  return {
    record(line) {
      if (pending.length < MAX_PENDING) pending.push(line);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}

/** A store's requests, newest first, a page at a time (the cursor is the last line's id). */
export async function listRequestLog(db: Database, scope: Scope, now: Date, page: { limit: number; before?: bigint }) {
  const rows = await db.requestLogEntry.findMany({
    where: { storeId: scope.store.id, at: { gte: new Date(now.getTime() - REQUEST_LOG_RETENTION_MS) }, ...(page.before === undefined ? {} : { id: { lt: page.before } }) },
    orderBy: { id: 'desc' },
    take: page.limit + 1,
  });
  return { lines: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

/**
 * Lines older than a day, removed by the hourly retention sweep; returns how many. The log is
 * partitioned by UTC day: a day is dropped once all of it is past (the list above hides lines older
 * than a day meanwhile), the coming days are created ahead, and a line dated outside them (a clock
 * far off) is deleted from the default partition.
 */
export async function deleteExpiredRequestLog(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - REQUEST_LOG_RETENTION_MS);
  await createDayPartitionsAhead(db, 'request_log', 'at', now);
  const dropped = await dropDayPartitionsBefore(db, 'request_log', cutoff);
  return dropped + (await db.$executeRaw`DELETE FROM request_log_default WHERE at < ${cutoff}`);
}
