// The statements this process sends to PostgreSQL through node-postgres while one action runs: what
// goes on the wire, whether Prisma built it or it is one of the service's own hot statements (which
// bypass Prisma's query log). For the query plans of bench/plans.ts and the statement counts of
// bench/trace-queries.ts.
//
// The service's pools are private to server/db/client.ts, so no single client or pool can be
// wrapped from here; instead pg.Client.prototype.query is wrapped for the duration of the action
// only, and put back as it was when the action ends, whether it succeeds or throws. Outside
// captureStatements nothing in pg is patched.
import pg from 'pg';

export interface SentStatement {
  text: string;
  /** The parameters sent with it; empty when none. */
  values: unknown[];
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

let capturing = false;

/**
 * Runs `action` and returns its value with every statement sent meanwhile by a pg client of this
 * process (only those connected to `database`, when given). Not re-entrant: captures do not nest.
 */
export async function captureStatements<T>(action: () => Promise<T>, options: { database?: string } = {}): Promise<{ value: T; statements: SentStatement[] }> {
  if (capturing) throw new Error('captureStatements: a capture is already running');
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const original = prototype.query;
  const statements: SentStatement[] = [];
  prototype.query = function capture(this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const query = typeof first === 'string' ? { text: first, values: second } : (first as { text?: string; values?: unknown } | null);
    if (query?.text !== undefined && (options.database === undefined || this.database === options.database)) {
      statements.push({ text: query.text, values: Array.isArray(query.values) ? query.values : [] });
    }
    return original.apply(this, args);
  };
  capturing = true;
  try {
    const value = await action();
    return { value, statements };
  } finally {
    prototype.query = original;
    capturing = false;
  }
}

/** A statement on one line, for printing and for the results file. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
