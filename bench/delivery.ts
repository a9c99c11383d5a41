// The delivery run (bench/run.ts): how fast one endpoint receives events. A receiver on this machine
// answers each delivery after 100 ms (a merchant's handler doing a little work); each order create
// writes one event for it. Targets: at least 80 events a second to the one endpoint, and a burst
// delivered within 20 s of the last commit.
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
  /** A backlog delivered with nothing else running: events a second from its first arrival to its last. */
  eventsPerSecond: number;
  /** The most deliveries the receiver had open at once. */
  mostInFlight: number;
  /** A burst of creates while the workers run: from the last order's commit (its 201) to its last event. */
  lastEventAfterLastCommitSeconds: number;
  /** The burst's own rate of order creates, for scale. */
  ordersPerSecond: number;
}

const EVENTS = 800;
const RECEIVER_ANSWER_MS = 100;
const CREATE_CONNECTIONS = 16;

/**
 * Two measurements. The backlog: EVENTS orders created by a server that works no events, then a
 * server that does starts and delivers them, so the rate is the delivery's own. The burst: EVENTS
 * more orders created as fast as that server takes them while it delivers, and how long after the
 * last commit the last event arrives.
 */
export async function deliveryRun(databaseUrl: string, track: (target: Target) => void): Promise<DeliveryResult> {
  log(`delivery run: ${EVENTS} events as a backlog, then a burst of ${EVENTS} order creates, to one endpoint answering in ${RECEIVER_ANSWER_MS} ms`);
  const db = createDatabase(databaseUrl, { poolSize: 2 });
  const seeded = await seed(db, `delivery-${randomUUID().slice(0, 6)}`);
  await db.$disconnect();

  let arrivals: number[] = [];
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
  const headers = { token: seeded.liveKey, 'content-type': 'application/json' };
  const runId = randomUUID().slice(0, 8);

  /** EVENTS creates over CREATE_CONNECTIONS at once; resolves with the time of the last commit. */
  const burst = async (target: Target, batch: string): Promise<{ lastCommit: number; started: number }> => {
    let next = 0;
    let lastCommit = 0;
    const started = Date.now();
    const worker = async () => {
      for (let n = next++; n < EVENTS; n = next++) {
        const created = await fetch(`${target.baseUrl}/v2/orders`, { method: 'POST', headers, body: JSON.stringify(orderRequest(`delivery-${runId}-${batch}-${n}`, undefined)) });
        await created.arrayBuffer();
        if (created.status !== 201) throw new Error(`an order create answered ${created.status}`);
        lastCommit = Math.max(lastCommit, Date.now());
      }
    };
    await Promise.all(Array.from({ length: CREATE_CONNECTIONS }, worker));
    return { lastCommit, started };
  };
  const allArrived = async () => {
    const deadline = Date.now() + 120_000;
    while (arrivals.length < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    if (arrivals.length < EVENTS) throw new Error(`only ${arrivals.length} of ${EVENTS} events arrived within 120 s`);
  };

  // The backlog, written by a server that works no events.
  const writer = await startTarget('server', databaseUrl, { BENCH_EVENTS: 'write' });
  track(writer);
  let maxInFlight = 0;
  try {
    const endpoint = await fetch(`${writer.baseUrl}/v1/webhook_endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks`, events: ['order.created'] }),
    });
    if (endpoint.status !== 201) throw new Error(`the endpoint was not created: ${endpoint.status} ${await endpoint.text()}`);
    maxInFlight = ((await endpoint.json()) as { max_in_flight: number }).max_in_flight;
    await burst(writer, 'backlog');
  } finally {
    await writer.stop();
  }

  const target = await startTarget('server', databaseUrl, { BENCH_EVENTS: 'work' });
  track(target);
  try {
    await allArrived();
    const eventsPerSecond = round(EVENTS / Math.max(0.001, (Math.max(...arrivals) - Math.min(...arrivals)) / 1000), 1);
    const backlogMostOpen = mostOpen;

    arrivals = [];
    const { lastCommit, started } = await burst(target, 'burst');
    await allArrived();
    const result: DeliveryResult = {
      events: EVENTS,
      receiverAnswerMs: RECEIVER_ANSWER_MS,
      maxInFlight,
      eventsPerSecond,
      mostInFlight: backlogMostOpen,
      lastEventAfterLastCommitSeconds: round((Math.max(...arrivals) - lastCommit) / 1000, 2),
      ordersPerSecond: round(EVENTS / ((lastCommit - started) / 1000), 1),
    };
    log(`  backlog: ${result.eventsPerSecond} events/s to one endpoint (at most ${result.mostInFlight} in flight, limit ${maxInFlight})`);
    log(`  burst: orders at ${result.ordersPerSecond}/s, the last event ${result.lastEventAfterLastCommitSeconds} s after the last commit`);
    return result;
  } finally {
    await target.stop();
    receiver.close();
  }
}
