// Every statement one request of each benchmarked kind sends to PostgreSQL, BEGIN and COMMIT
// included: the database round trips per request, which decide most of the cost on this machine.
//
//   node --import tsx bench/trace-queries.ts          (a throwaway embedded PostgreSQL, ~20 s)
//
// It builds the app in-process the way bench/target.ts does, sends one request of each kind (after
// one warm-up request each) and prints the statements sent to the trace database while that request
// ran, captured by bench/statements.ts (pg's Client.query is wrapped for that request only). The
// instance's own background work can land in a window too (the first-poll mover's BEGIN, DELETE FROM
// tracking_poll_outbox and COMMIT, about once a second): run it again when a count looks odd.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { startBenchApp } from './app.js';
import { fulfillmentCreatedMessage, orderPlacedMessage, orderRequest, refundCreatedMessage, upsTrackingNumber } from './requests.js';
import { captureStatements, oneLine } from './statements.js';
import { signWebhook } from '../contract/webhook-signature.js';
import { createDatabase } from '../server/db/client.js';
import { ensureDatabase, startEmbeddedCluster } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import { actingFor, issueApiKey } from '../server/domain/access/index.js';

import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { createStore } from '../server/domain/stores/index.js';
import { BENCH_OPERATOR } from './seed.js';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'op-trace-pg-'));
  const cluster = await startEmbeddedCluster({ dataDir });
  try {
    await ensureDatabase(cluster.urlFor('postgres'), 'trace');
    const url = cluster.urlFor('trace');
    await migrate(url);
    const db = createDatabase(url, { poolSize: 4 });
    const store = await createStore(db, BENCH_OPERATOR, {
      slug: 'trace',
      name: 'Trace',
      pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null },
      protectionSkus: [],
      quoteOrigin: 'backend',
      clientProfile: 'standard',
    });
    const { key } = await issueApiKey(db, actingFor(BENCH_OPERATOR, store), { mode: 'live', scope: 'store' });
    const secret = 'trace-platform-secret-0123456789';
    await createPlatform(db, BENCH_OPERATOR, 'traceplatform', secret);
    await connectStore(db, actingFor(BENCH_OPERATOR, store), 'traceplatform');

    const { app, stop } = await startBenchApp(url, 4);
    const server: Server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = { token: key }) => {
      const raw = body === undefined ? undefined : JSON.stringify(body);
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(raw === undefined ? {} : { 'content-type': 'application/json' }) },
        body: raw,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    let n = 0;
    const order = () => orderRequest(`trace-${(n += 1)}`, quoteId);
    const quote = await send('POST', '/v2/quotes', { cart: { covered: { amount: '125.00' } } });
    const quoteId = quote.body.id as string;
    let tracking = 0;
    const trackingNumber = (i: number) => upsTrackingNumber('TRACE0', i);
    const ups = () => trackingNumber((tracking += 1));
    const platformSend = (message: unknown) => {
      const raw = JSON.stringify(message);
      return fetch(`${base}/api/webhooks/traceplatform`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(secret, raw) },
        body: raw,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    };
    // The pushed orders push-1 (warm-up) and push-2 are then fulfilled, then refunded whole.
    let pushes = 0;
    const push = () => platformSend(orderPlacedMessage(store.slug, `push-${(pushes += 1)}`, pushes));
    let fulfilments = 0;
    const fulfil = () => {
      fulfilments += 1;
      return platformSend(fulfillmentCreatedMessage(store.slug, `push-${fulfilments}`, `ful-${fulfilments}`, upsTrackingNumber('TRACEF', fulfilments)));
    };
    let refunds = 0;
    const refund = () => platformSend(refundCreatedMessage(store.slug, `push-${(refunds += 1)}`, `ref-${refunds}`));

    const kinds: Array<[string, () => Promise<{ status: number }>]> = [
      ['quote create', () => send('POST', '/v2/quotes', { cart: { covered: { amount: '125.00' } } })],
      ['order create', () => send('POST', '/v2/orders', order())],
      ['order read', () => send('GET', '/v2/orders/trace-1')],
      ['shipment create', () => send('POST', '/v1/shipments', { tracking_number: ups(), source_order_id: 'trace-1' })],
      ['shipment read', () => send('GET', `/v1/shipments/${trackingNumber(1)}`)],
      ['address verify (offline)', () => send('POST', '/v2/addresses/verify', { address: { street_address1: `${(n += 1)} Elm St`, city: 'Mountain View', province: 'CA', zip: '94043' } })],
      ['webhook order.placed', push],
      ['webhook fulfillment.created', fulfil],
      ['webhook refund.created (the whole premium: reversal and cancellation)', refund],
    ];
    const summary: string[] = [];
    for (const [label, run] of kinds) {
      await run(); // warm-up (and the first order / shipment / cached address)
      const captured = await captureStatements(
        async () => {
          const answer = await run();
          await new Promise((resolve) => setTimeout(resolve, 50));
          return answer;
        },
        { database: 'trace' },
      );
      const response = captured.value;
      const statements = captured.statements.map((statement) => oneLine(statement.text));
      process.stdout.write(`\n== ${label}: HTTP ${response.status}, ${statements.length} statements\n`);
      for (const statement of statements) process.stdout.write(`   ${statement.length > 160 ? `${statement.slice(0, 157)}...` : statement}\n`);
      summary.push(`${label} ${statements.length}`);
    }
    process.stdout.write(`\nStatements per request: ${summary.join(', ')}\n`);
    server.close();
    await stop();
    await db.$disconnect();
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
