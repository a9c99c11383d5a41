// The query plans of the benchmark's report (bench/run.ts): the hot statements exactly as the
// service's own code sends them (an API-key lookup, an order read, a quote lookup), captured on the
// wire (bench/statements.ts), then run again under EXPLAIN (ANALYZE, BUFFERS) with the same
// parameters; with the statements each of those calls sends.
import pg from 'pg';
import { createDatabase } from '../server/db/client.js';
import { authenticateApiKey } from '../server/domain/access/index.js';
import { getOrder } from '../server/domain/orders/index.js';
import { resolveQuote } from '../server/domain/quotes/index.js';
import { keyScope } from './seed.js';
import { captureStatements, oneLine, type SentStatement } from './statements.js';

export interface Plan {
  name: string;
  sql: string;
  plan: string[];
  indexes: string[];
}

export interface CapturedPlans {
  plans: Plan[];
  /** Each call's statements, on one line each. */
  perRequest: Record<string, string[]>;
}

export async function capturePlans(url: string, liveKey: string, sourceOrderId: string, quoteId: string): Promise<CapturedPlans> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  const db = createDatabase(url, { poolSize: 2 });
  const perRequest: Record<string, string[]> = {};
  /** The statements of the second call of `action` (the first call also connects). */
  const take = async <T>(label: string, action: () => Promise<T>): Promise<{ value: T; queries: SentStatement[] }> => {
    await action();
    const { value, statements } = await captureStatements(action, { database });
    perRequest[label] = statements.map((q) => oneLine(q.text));
    return { value, queries: statements };
  };
  try {
    const auth = await take('api_key_lookup', () => authenticateApiKey(db, liveKey));
    const read = await take('order_read', () => getOrder(db, keyScope(auth.value), sourceOrderId));
    const quote = await take('quote_lookup', () => resolveQuote(db, auth.value.store.id, quoteId, 12500, new Date()));
    const isSelect = (q: SentStatement) => /^\s*(WITH|SELECT)/i.test(q.text);
    const readSelects = read.queries.filter(isSelect);
    const wanted: Array<[string, SentStatement | undefined]> = [
      ['API-key lookup by hash', auth.queries.find(isSelect)],
      [
        readSelects.length === 1
          ? "order read by (store_id, source_order_id), with the order's line items and ledger entries as SubPlans"
          : 'order read by (store_id, source_order_id)',
        readSelects[0],
      ],
      ...readSelects
        .slice(1)
        .map((q): [string, SentStatement] => [/order_line_items/.test(q.text) ? "the order's line items" : /premium_ledger_entries/.test(q.text) ? "the order's ledger entries" : 'order read, further query', q]),
      ['quote lookup', quote.queries.find(isSelect)],
    ];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const plans: Plan[] = [];
    try {
      for (const [name, query] of wanted) {
        if (!query) continue;
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query.text}`, query.values);
        const plan = rows.map((row) => row['QUERY PLAN']);
        const indexes = [...new Set(plan.flatMap((line) => [...line.matchAll(/(?:using|Bitmap Index Scan on) (\S+)/gi)].map((m) => m[1] as string)))];
        plans.push({ name, sql: oneLine(query.text), plan, indexes });
      }
    } finally {
      await client.end();
    }
    return { plans, perRequest };
  } finally {
    await db.$disconnect();
  }
}
