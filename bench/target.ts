// One benchmark target, run as a child process of bench/run.ts (every target runs the same way, so
// the comparison is fair): the real server, or one of two bare Express baselines on the same database.
//
//   node --import tsx bench/target.ts server   the app as bench/app.ts builds it
//   node --import tsx bench/target.ts echo     a bare Express handler that echoes the JSON body
//   node --import tsx bench/target.ts insert   a bare Express handler doing one parameterised INSERT
//                                              with pg into bench_inserts (shaped like an order); and
//                                              GET /select/... doing one indexed SELECT of such a row
//                                              (the floor of a read that asks the database once)
//   node --import tsx bench/target.ts route-floor   the quote, order, shipment and address routes
//                                              alone on bare ts-rest and Express, without the
//                                              service's cross-cutting work
//
// Environment: DATABASE_URL (required), BENCH_POOL_SIZE (database connections, default 10, the
// server's DB_POOL_SIZE default). The child sends { port } to its parent once it listens.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import type { z } from 'zod';
import type { OrderRequest } from '../contract/orders.js';
import { startRouteFloorApp, startBenchApp } from './app.js';

const kind = process.argv[2];
const databaseUrl = process.env.DATABASE_URL;
const poolSize = Number(process.env.BENCH_POOL_SIZE ?? 10);
if (databaseUrl === undefined) throw new Error('DATABASE_URL is required');

type Stop = () => Promise<void>;

function startEcho(): { app: express.Express; stop: Stop } {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: 1024 * 1024 }));
  app.post('/echo', (req, res) => {
    res.status(200).json(req.body);
  });
  return { app, stop: async () => {} };
}

// The order-shaped row: the same columns an order create writes to its main table.
const INSERT_SQL = `
  INSERT INTO bench_inserts (store_id, source_order_id, source_order_number, insurance_selected, subtotal_cents,
    order_total_cents, shipping_total_cents, taxes_cents, customer_first_name, customer_last_name, customer_email,
    shipping_address, line_items, source_created_on)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
  RETURNING id, created_on`;

/** What the bench posts to /insert: an order request, with the store it belongs to. */
type OrderLikeBody = z.input<typeof OrderRequest> & { store_id: string };

const cents = (value: number | undefined) => (value === undefined ? null : Math.round(value * 100));

function startInsert(url: string): { app: express.Express; stop: Stop } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: 1024 * 1024 }));
  app.post('/insert', (req, res) => {
    const body = req.body as OrderLikeBody;
    pool
      .query<{ id: string; created_on: Date }>(INSERT_SQL, [
        body.store_id,
        body.source_order_id,
        body.source_order_number ?? body.source_order_id,
        body.insurance_selected,
        cents(body.subtotal),
        cents(body.order_total),
        cents(body.shipping_total),
        cents(body.taxes),
        body.customer_details.first_name,
        body.customer_details.last_name,
        body.customer_details.email,
        JSON.stringify(body.shipping_details),
        JSON.stringify(body.line_items),
        body.source_created_on,
      ])
      .then(({ rows }) => res.status(201).json({ id: rows[0]?.id, created_on: rows[0]?.created_on, source_order_id: body.source_order_id }))
      .catch((error: unknown) => res.status(500).json({ error: (error as Error).message }));
  });
  app.get('/select/:storeId/:sourceOrderId', (req, res) => {
    pool
      .query('SELECT * FROM bench_inserts WHERE store_id = $1 AND source_order_id = $2', [req.params.storeId, req.params.sourceOrderId])
      .then(({ rows }) => (rows[0] ? res.status(200).json(rows[0]) : res.status(404).json({ error: 'not found' })))
      .catch((error: unknown) => res.status(500).json({ error: (error as Error).message }));
  });
  return { app, stop: () => pool.end() };
}

async function main(): Promise<void> {
  const url = databaseUrl as string;
  let target: { app: express.Express; stop: Stop };
  if (kind === 'server') target = await startBenchApp(url, poolSize);
  else if (kind === 'echo') target = startEcho();
  else if (kind === 'insert') target = startInsert(url);
  else if (kind === 'route-floor') target = await startRouteFloorApp(url, poolSize);
  else throw new Error(`unknown target "${kind}": server, echo, insert or route-floor`);

  const server: Server = target.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  process.send?.({ port });

  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await target.stop();
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`bench target ${kind} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
