// Sends one signed event to a merchant's webhook endpoint (README, "Events and outbound webhooks").
// The URL is the merchant's, so it could point at us or our network (server-side request forgery):
// unless private networks are allowed, only https to public addresses is sent to. The address is
// checked after DNS and the socket connects to exactly the checked address (a custom `lookup`
// resolves once), so a name that answers a public address to the check and a private one to the
// connect (DNS rebinding) cannot slip through. Redirects are never followed: a 3xx is a failure.
import type { LookupAddress } from 'node:dns';
import { lookup as systemLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { bareHostname, isPublicAddress } from '../domain/events/index.js';

/** Resolves a host name to its addresses (tests pass a stub; the default uses node:dns/promises lookup with { all: true, verbatim: true }). */
export type AddressResolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export type DeliveryError =
  | 'invalid_url' // not http(s), or credentials in the URL
  | 'dns_failed' // the name did not resolve
  | 'refused_address' // it resolved to (or is) a non-public address and private networks are not allowed
  | 'connection_failed' // refused, reset, TLS failure, ...
  | 'timeout' // no complete answer within timeoutMs
  | 'redirect_not_followed' // a 3xx answer: redirects are never followed
  | 'http_status'; // any other non-2xx answer

export interface SendOptions {
  /** Lifts the address check (and lets plain http through): local development and tests only. */
  allowPrivateNetworks: boolean;
  resolve?: AddressResolver;
  /** Default 10_000: the whole exchange, connect to the end of the answer. */
  timeoutMs?: number;
  /** Default 4096: only this many bytes of the answer are kept (the rest is not read: the socket is destroyed). */
  maxResponseBytes?: number;
}

export interface SendResult {
  succeeded: boolean; // a 2xx status
  statusCode: number | null; // null when no answer came
  durationMs: number; // integer
  error: DeliveryError | null; // null exactly when succeeded
  responseBody: string | null; // the kept bytes decoded as UTF-8 (invalid sequences replaced), null when no answer
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 4096;
const USER_AGENT = 'order-protection-webhooks/1.0';
/** Headers that describe the body we send: ours win over any the caller passes. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'user-agent']);
/** Why a lookup gave no address to connect to; it reaches the request's 'error' event unchanged. */
class LookupRefusal extends Error {
  constructor(
    readonly reason: 'dns_failed' | 'refused_address',
    message: string,
  ) {
    super(message);
    this.name = 'LookupRefusal';
  }
}

const systemResolver: AddressResolver = async (hostname) => {
  const found = await systemLookup(hostname, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** Resolves once and checks every answer, so the socket can only get an address that passed. */
async function checkedAddresses(resolve: AddressResolver, hostname: string, allowPrivateNetworks: boolean): Promise<LookupAddress[]> {
  let answers: Array<{ address: string }>;
  try {
    answers = await resolve(hostname);
  } catch {
    throw new LookupRefusal('dns_failed', 'the host name did not resolve');
  }
  // The family comes from the address itself: a resolver that mislabels it would make the connect fail.
  const addresses = answers.map(({ address }) => ({ address, family: isIP(address) }));
  if (addresses.length === 0 || addresses.some(({ family }) => family === 0)) {
    throw new LookupRefusal('dns_failed', 'the host name did not resolve to IP addresses');
  }
  // Every answer, not just the one used: the socket may try the others (happy eyeballs).
  if (!allowPrivateNetworks && !addresses.every(({ address }) => isPublicAddress(address))) {
    throw new LookupRefusal('refused_address', 'the host name resolves to an address that is not public');
  }
  return addresses;
}

/** net's lookup hook: one resolution per connect; the callback takes a list when net asks for all (autoSelectFamily). */
function checkedLookup(resolve: AddressResolver, allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    checkedAddresses(resolve, hostname, allowPrivateNetworks).then(
      (addresses) => {
        const first = addresses[0];
        if (lookupOptions.all === true) callback(null, addresses);
        else if (first !== undefined) callback(null, first.address, first.family);
      },
      (error: unknown) => {
        callback(error instanceof LookupRefusal ? error : new LookupRefusal('dns_failed', 'the name lookup failed'), '');
      },
    );
  };
}

function outgoingHeaders(given: Record<string, string>, body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  headers['Content-Type'] = 'application/json';
  headers['User-Agent'] = USER_AGENT;
  // A known length rather than chunked encoding, which some receivers handle badly.
  headers['Content-Length'] = String(Buffer.byteLength(body));
  return headers;
}

function statusError(statusCode: number): DeliveryError | null {
  if (statusCode >= 200 && statusCode < 300) return null;
  if (statusCode >= 300 && statusCode < 400) return 'redirect_not_followed';
  return 'http_status';
}

/** The kept bytes as text for the attempt record; U+0000 is replaced too, since PostgreSQL text cannot store it. */
function decodeKept(chunks: Buffer[]): string {
  return Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '\uFFFD');
}

/** POSTs `body` (JSON text) to `url` with these headers plus Content-Type: application/json and a User-Agent, and reports what happened. Never throws. */
export async function postEvent(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const startedAt = performance.now();
  const elapsedMs = () => Math.max(0, Math.round(performance.now() - startedAt));
  const allowPrivateNetworks = options.allowPrivateNetworks;
  const noAnswer = (error: DeliveryError): SendResult => ({ succeeded: false, statusCode: null, durationMs: elapsedMs(), error, responseBody: null });

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return noAnswer('invalid_url');
  }
  const isHttps = target.protocol === 'https:';
  if (!isHttps && !(allowPrivateNetworks && target.protocol === 'http:')) return noAnswer('invalid_url');
  if (target.username !== '' || target.password !== '') return noAnswer('invalid_url');
  const hostname = bareHostname(target);
  // A literal IP is connected to as is (net does not call lookup for it), so it is checked here.
  if (isIP(hostname) !== 0 && !allowPrivateNetworks && !isPublicAddress(hostname)) return noAnswer('refused_address');

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = Math.max(0, Math.floor(options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES));
  const requestOptions: http.RequestOptions = {
    method: 'POST',
    // The name stays the host, so Host, TLS SNI and certificate verification use it; only the address comes from lookup.
    hostname,
    port: target.port === '' ? (isHttps ? 443 : 80) : Number(target.port),
    path: `${target.pathname}${target.search}`,
    headers: outgoingHeaders(headers, body),
    lookup: checkedLookup(options.resolve ?? systemResolver, allowPrivateNetworks),
    // A fresh connection each time: no pooled socket to a previously checked address is reused.
    agent: false,
  };

  return new Promise<SendResult>((settle) => {
    let settled = false;
    let request: http.ClientRequest | null = null;
    let response: http.IncomingMessage | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;

    /** Settles once; `failure` null means the answer (complete or cut at the byte limit) decides. */
    const finish = (failure: DeliveryError | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Stops reading whatever is left of the answer, and frees the socket after a complete one.
      request?.destroy();
      const statusCode = response?.statusCode ?? null;
      const error = failure ?? (statusCode === null ? 'connection_failed' : statusError(statusCode));
      settle({
        succeeded: error === null,
        statusCode,
        durationMs: elapsedMs(),
        error,
        responseBody: response === null ? null : decodeKept(kept),
      });
    };

    // One deadline for everything (lookup, connect, TLS, sending, the whole answer), unlike socket idle timeouts.
    const timer = setTimeout(() => finish('timeout'), timeoutMs);

    try {
      request = isHttps ? https.request(requestOptions) : http.request(requestOptions);
    } catch {
      // Only a header name or value node refuses (e.g. a line break in it): nothing was sent.
      finish('connection_failed');
      return;
    }
    request.on('response', (answer) => {
      response = answer;
      answer.on('data', (chunk: Buffer) => {
        const room = maxResponseBytes - keptBytes;
        if (chunk.length < room) {
          kept.push(chunk);
          keptBytes += chunk.length;
          return;
        }
        kept.push(chunk.subarray(0, room));
        keptBytes += room;
        finish(null);
      });
      answer.on('end', () => finish(null));
      answer.on('error', () => finish('connection_failed'));
      answer.on('close', () => finish(answer.complete ? null : 'connection_failed'));
    });
    request.on('error', (error) => finish(error instanceof LookupRefusal ? error.reason : 'connection_failed'));
    // Without an answer, 'close' after no 'error' still must not leave the promise pending.
    request.on('close', () => {
      if (response === null) finish('connection_failed');
    });
    request.end(body);
  });
}
