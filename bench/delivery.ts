// The delivery run (bench/run.ts): how fast one endpoint receives a burst of events. A receiver on
// this machine answers each delivery after 100 ms (a merchant's handler doing a little work); a
// server with event workers on takes a burst of order creates, each of which writes an event; the
// run records when the last order was committed and when each event arrived. Targets: at least 80
// events a second to the one endpoint, and the burst delivered within 20 s of the last commit.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createDatabase } from '../server/db/client.js';
import { log, round } from './config.js';
import { orderRequest } from './requests.js';
import { seed } from './seed.js';
import { startTarget, type Target } from './targets.js';

export interface DeliveryResult {
  events: number;
  receiverAnswerMs: number;
  maxInFlight: number;
  /** Events a second from the first arrival to the last. */
  eventsPerSecond: number;
  /** The most deliveries the receiver had open at once. */
  mostInFlight: number;
  /** From the last order's commit (its 201) to the last event's arrival. */
  lastEventAfterLastCommitSeconds: number;
  /** The orders' own rate, for scale. */
  ordersPerSecond: number;
}

const BURST = 800;
const RECEIVER_ANSWER_MS = 100;
const CREATE_CONNECTIONS = 16;

export async function deliveryRun(databaseUrl: string, track: (target: Target) => void): Promise<DeliveryResult> {
  log(`delivery run: a burst of ${BURST} order creates, one endpoint answering in ${RECEIVER_ANSWER_MS} ms`);
  const db = createDatabase(databaseUrl, { poolSize: 2 });
  const seeded = await seed(db, `delivery-${randomUUID().slice(0, 6)}`);
  await db.$disconnect();

  const arrivals: number[] = [];
  let open = 0;
  let mostOpen = 0;
  const receiver = createServer((request, response) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    request.resume();
    request.on('end', () => {
      arrivals.push(Date.now());
      setTimeout(() => {
        open -= 1;
        response.writeHead(200).end('ok');
      }, RECEIVER_ANSWER_MS);
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const { port } = receiver.address() as AddressInfo;

  const target = await startTarget('server', databaseUrl, { BENCH_EVENT_WORKERS: '1' });
  track(target);
  try {
    const headers = { token: seeded.liveKey, 'content-type': 'application/json' };
    const endpoint = await fetch(`${target.baseUrl}/v1/webhook_endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks`, events: ['order.created'] }),
    });
    if (endpoint.status !== 201) throw new Error(`the endpoint was not created: ${endpoint.status} ${await endpoint.text()}`);
    const { max_in_flight: maxInFlight } = (await endpoint.json()) as { max_in_flight: number };

    // The burst: BURST creates over CREATE_CONNECTIONS at once, as fast as the server takes them.
    const runId = randomUUID().slice(0, 8);
    let next = 0;
    let lastCommit = 0;
    const started = Date.now();
    const worker = async () => {
      for (let n = next++; n < BURST; n = next++) {
        const created = await fetch(`${target.baseUrl}/v2/orders`, { method: 'POST', headers, body: JSON.stringify(orderRequest(`delivery-${runId}-${n}`, undefined)) });
        await created.arrayBuffer();
        if (created.status !== 201) throw new Error(`an order create answered ${created.status}`);
        lastCommit = Math.max(lastCommit, Date.now());
      }
    };
    await Promise.all(Array.from({ length: CREATE_CONNECTIONS }, worker));
    const ordersPerSecond = round(BURST / ((lastCommit - started) / 1000), 1);

    const deadline = Date.now() + 120_000;
    while (arrivals.length < BURST && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (arrivals.length < BURST) throw new Error(`only ${arrivals.length} of ${BURST} events arrived within 120 s`);
    const first = Math.min(...arrivals);
    const last = Math.max(...arrivals);
    const result: DeliveryResult = {
      events: BURST,
      receiverAnswerMs: RECEIVER_ANSWER_MS,
      maxInFlight,
      eventsPerSecond: round(BURST / Math.max(0.001, (last - first) / 1000), 1),
      mostInFlight: mostOpen,
      lastEventAfterLastCommitSeconds: round((last - lastCommit) / 1000, 2),
      ordersPerSecond,
    };
    log(`  ${result.eventsPerSecond} events/s to one endpoint (at most ${result.mostInFlight} in flight, limit ${maxInFlight}); last event ${result.lastEventAfterLastCommitSeconds} s after the last commit; orders at ${ordersPerSecond}/s`);
    return result;
  } finally {
    await target.stop();
    receiver.close();
  }
}
