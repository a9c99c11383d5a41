// A small HTTP client for tests: real requests, and every answer must be JSON.
import { expect } from 'vitest';

export interface ApiResponse {
  status: number;
  headers: Headers;
  // The tests read arbitrary JSON; assertions give it meaning.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The body exactly as it came, for byte-for-byte comparisons. */
  text: string;
}

export interface CallOptions {
  key?: string;
  bearer?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.token = options.key;
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  expect(response.headers.get('content-type') ?? '', `${method} ${path} answers JSON`).toMatch(/^application\/json/);
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

/** A complete, valid order body; override any field. */
export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source_order_id: `order-${Math.random().toString(36).slice(2, 10)}`,
    subtotal: 125,
    insurance_selected: true,
    customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+1 555 0100' },
    shipping_details: {
      street_address1: '1600 Amphitheatre Pkwy',
      city: 'Mountain View',
      province: 'CA',
      zip: '94043',
      country_code: 'US',
    },
    line_items: [
      { source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2, sku: 'DESK-ORG-W' },
    ],
    source_created_on: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

/**
 * Row counts of every application table, to prove that a request wrote nothing. The request log
 * is left out: it records every key's request, refused ones too, by design (a second later). So is
 * the first-poll outbox, which the service empties by itself; a row in it comes only with a
 * shipment, which is counted.
 */
export async function tableCounts(db: { $queryRawUnsafe<T>(query: string): Promise<T> }): Promise<Record<string, number>> {
  const tables = await db.$queryRawUnsafe<Array<{ table_name: string }>>(
    // A partition's rows are counted in its parent's (and a day's partition is created by the sweep).
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('request_log', 'tracking_poll_outbox') AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition) ORDER BY table_name",
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const rows = await db.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM "${table_name}"`);
    counts[table_name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/** The value of one line of a Prometheus text exposition (`name{labels}`), or undefined. */
export function metricValue(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}
