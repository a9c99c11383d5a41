// The API's HTTP server with a graceful drain: on shutdown it stops accepting connections at once,
// lets every request already received finish (each answered with Connection: close, so no
// keep-alive connection outlives its last response), closes the keep-alive connections left idle
// after a short grace, and cuts whatever is still running at a deadline.
//
// It also cuts off slow clients (README, Reliability): the headers must arrive within
// headersTimeoutMs and the whole request, body included, within requestTimeoutMs (Node answers 408
// and closes the connection; server/http/client-errors.ts words it). Node checks both every
// connectionsCheckingInterval (30 s by default, which would let a slow client hold on twice as long):
// here every second. One address may hold at most maxConnectionsPerAddress open connections; the
// next is answered 429 and closed before a byte of its request is read.
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { answerParserErrors, rawErrorAnswer } from './client-errors.js';

export interface SlowClientLimits {
  /** The request line and headers must arrive within this (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (Node's requestTimeout). */
  requestTimeoutMs: number;
  /** Open connections one address may hold; 0 for no cap (behind a proxy, which caps them itself). */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_SLOW_CLIENT_LIMITS: SlowClientLimits = { headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, maxConnectionsPerAddress: 0 };

/**
 * How long a keep-alive connection that is idle when the drain starts may still bring one last
 * request. A busy client writes its next request on a connection the moment the previous answer
 * arrives, so at any instant some "idle" connections already carry a request on the wire; closing
 * them at once resets that request (ECONNRESET) instead of answering it.
 */
export const IDLE_GRACE_MS = 1000;

export interface DrainOutcome {
  /** Requests still running at the deadline, whose connections were closed under them. */
  cut: number;
}

export interface GracefulServer {
  server: Server;
  /** Requests received whose response has not completed yet. */
  inFlight(): number;
  /** Stops accepting and waits for in-flight requests, for timeoutMs at most. */
  drain(timeoutMs: number): Promise<DrainOutcome>;
}

/** The answer to a connection over its address's cap, written before its request is read. */
function refuseConnection(socket: Socket): void {
  socket.end(rawErrorAnswer(429, 'Too many open connections from this address; close some and retry.', 'rate_limited', ['Retry-After: 1']));
  // Whatever the client sends meanwhile is not read; the socket goes once the answer is out.
  socket.setTimeout(5000, () => socket.destroy());
}

/** Counts open connections per remote address and refuses those over the cap. */
function capConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      // Node has already handed the socket to its HTTP parser; pausing keeps it from reading.
      socket.pause();
      refuseConnection(socket);
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

export function createGracefulServer(listener: RequestListener, limits: Partial<SlowClientLimits> = {}): GracefulServer {
  const { headersTimeoutMs, requestTimeoutMs, maxConnectionsPerAddress } = { ...DEFAULT_SLOW_CLIENT_LIMITS, ...limits };
  const active = new Set<ServerResponse>();
  let draining = false;

  let idleGraceMs = IDLE_GRACE_MS;
  /** Closes the connections that are idle by then (a request arriving before is served). */
  const closeIdleSoon = () => setTimeout(() => server.closeIdleConnections(), idleGraceMs).unref();

  const server = createServer({ headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 }, (req, res) => {
    active.add(res);
    // 'close' follows 'finish', and also comes when the connection dies before the response ends.
    res.once('close', () => {
      active.delete(res);
      // A response whose headers went out before the drain did not say Connection: close: its
      // connection stays open and may bring one more request, answered with Connection: close.
      if (draining) closeIdleSoon();
    });
    // A request that arrives on a kept-alive connection while draining is served, then the
    // connection is closed.
    if (draining) res.setHeader('Connection', 'close');
    listener(req, res);
  });
  answerParserErrors(server);
  if (maxConnectionsPerAddress > 0) capConnectionsPerAddress(server, maxConnectionsPerAddress);

  async function drain(timeoutMs: number): Promise<DrainOutcome> {
    draining = true;
    for (const res of active) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    // Stop accepting now, but not with http.Server#close(): since Node 19 that also destroys every
    // idle keep-alive connection on the spot, including those a client is writing a request on at
    // this moment (see IDLE_GRACE_MS). net.Server#close() only closes the listener; it calls back
    // once the last connection is gone. Idle connections are closed after the grace instead.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    idleGraceMs = Math.min(IDLE_GRACE_MS, timeoutMs);
    closeIdleSoon();

    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([closed.then(() => 'drained' as const), deadline]);
    clearTimeout(timer);
    if (outcome === 'drained') return { cut: 0 };

    const cut = active.size;
    server.closeAllConnections();
    // Destroyed sockets close asynchronously; close() calls back once the last one is gone.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    return { cut };
  }

  return { server, inFlight: () => active.size, drain };
}
