// Two server processes on one database (docs/scaling.md): what two instances do together on this
// 2-core machine (no speed-up is expected: they share the cores and the database), and whether the
// limits they count in PostgreSQL hold across both.
import autocannon from 'autocannon';
import { config, log, round } from './config.js';
import { measure, type Measurement, type Scenario } from './measurement.js';
import { startTarget, type Target } from './targets.js';

export interface TwoInstancesResult {
  /** order create on one server, then on two at once (half the connections each), summed. */
  throughput: { oneServer: Measurement; twoServers: Measurement[]; combinedRequestsPerSecond: number; ratio: number; failed: number };
  /** Quotes sent to both at once against one shared limit: exactly the limit is answered 201. */
  sharedLimit: { limitPerMinute: number; sent: number; created: number; refused: number; otherStatuses: number; holds: boolean };
}

const SHARED_QUOTE_LIMIT = 100;

export async function twoInstancesRun(databaseUrl: string, first: Target, orderCreate: Scenario, quote: Scenario, track: (target: Target) => void): Promise<TwoInstancesResult> {
  log('two server processes on one database');
  const second = await startTarget('server', databaseUrl);
  track(second);
  try {
    const oneServer = await measure(first, orderCreate);
    const half = Math.max(1, Math.floor(config.connections / 2));
    const twoServers = await Promise.all([first, second].map((target, index) => measure(target, { ...orderCreate, name: `order_create@server_${index + 1}` }, { connections: half })));
    const combined = round(twoServers.reduce((sum, run) => sum + run.requestsPerSecond, 0), 1);
    const failed = twoServers.reduce((sum, run) => sum + run.non2xx + run.errors + run.timeouts, 0);
    await second.stop();

    // The shared limit: two more servers with the limits on, a quote limit of 100 a minute, and
    // three times that many quotes sent to them at once, half to each.
    const limited = await Promise.all([0, 1].map(() => startTarget('server', databaseUrl, { BENCH_QUOTES_PER_MINUTE: String(SHARED_QUOTE_LIMIT) })));
    limited.forEach(track);
    const sent = 3 * SHARED_QUOTE_LIMIT;
    const statuses: number[] = [];
    await Promise.all(
      limited.map((target) =>
        autocannon({
          url: target.baseUrl,
          connections: 4,
          amount: sent / 2,
          requests: [{ method: quote.method, path: quote.path, headers: quote.headers ?? {}, ...(quote.body === undefined ? {} : { body: quote.body }), onResponse: (status: number) => statuses.push(status) }],
        }),
      ),
    );
    for (const target of limited) await target.stop();
    const created = statuses.filter((status) => status === 201).length;
    const refused = statuses.filter((status) => status === 429).length;
    const sharedLimit = { limitPerMinute: SHARED_QUOTE_LIMIT, sent: statuses.length, created, refused, otherStatuses: statuses.length - created - refused, holds: created === SHARED_QUOTE_LIMIT && created + refused === statuses.length };
    log(`two servers: order create ${combined} req/s together against ${oneServer.requestsPerSecond} on one; shared quote limit: ${created} created, ${refused} refused of ${statuses.length}`);
    return { throughput: { oneServer, twoServers, combinedRequestsPerSecond: combined, ratio: round(combined / oneServer.requestsPerSecond, 2), failed }, sharedLimit };
  } finally {
    await second.stop();
  }
}
