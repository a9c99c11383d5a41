// A merchant's webhook endpoint for tests: an HTTP server on loopback that keeps every request it
// gets (headers and raw body) and answers what the test tells it to.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { MerchantEvent } from '../../contract/merchant-events.js';

export interface ReceivedEvent {
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body: the contract's envelope, its data read field by field by the tests. */
  event: Omit<MerchantEvent, 'data'> & { data: Record<string, unknown> };
}

/**
 * What the standardwebhooks package (not our code) makes of a delivery: the parsed event, or a
 * throw on a bad signature or a stale timestamp.
 */
export function verifiedWith(secret: string, delivery: ReceivedEvent): unknown {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));
  return new Webhook(secret).verify(delivery.rawBody, headers);
}

export interface EventReceiver {
  url: string;
  port: number;
  received: ReceivedEvent[];
  /** TCP connections accepted so far, whatever came over them. */
  connections: () => number;
  /** The status to answer the n-th request (0-based) with; 200 unless set. */
  answer: (answer: (index: number, received: ReceivedEvent) => number) => void;
  /** Resolves once `predicate` holds over what arrived; rejects after `timeoutMs`. */
  waitFor: (predicate: (received: ReceivedEvent[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * `answerAfterMs`: how long each request waits before it is answered (a receiver that does some
 * work); `onRequest` and `onAnswer` see each request arrive and leave, for tests that count what
 * is in flight at once.
 */
export async function startEventReceiver(
  path = '/hooks/events',
  options: { answerAfterMs?: number; onRequest?: (entry: ReceivedEvent) => void; onAnswer?: (entry: ReceivedEvent) => void } = {},
): Promise<EventReceiver> {
  const received: ReceivedEvent[] = [];
  let respond: (index: number, received: ReceivedEvent) => number = () => 200;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const entry: ReceivedEvent = { headers: request.headers, rawBody, event: JSON.parse(rawBody) as ReceivedEvent['event'] };
      const index = received.length;
      received.push(entry);
      options.onRequest?.(entry);
      const status = respond(index, entry);
      const answer = () => {
        options.onAnswer?.(entry);
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `refused with ${status}`);
      };
      if (options.answerAfterMs === undefined) answer();
      else setTimeout(answer, options.answerAfterMs);
    });
  });
  let connections = 0;
  server.on('connection', () => (connections += 1));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    received,
    connections: () => connections,
    answer: (answer) => {
      respond = answer;
    },
    waitFor: (predicate, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const timer = setInterval(() => {
          if (predicate(received)) {
            clearInterval(timer);
            resolve();
          } else if (Date.now() - started > timeoutMs) {
            clearInterval(timer);
            reject(new Error(`the receiver did not get what was awaited; it got: ${received.map((r) => r.event.type).join(', ')}`));
          }
        }, 25);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
