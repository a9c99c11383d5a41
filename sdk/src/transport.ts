// The one path every request takes: the route table (routes.ts) gives method and path, this file
// builds the request, sends it with the caller's fetch (attempt by attempt, through retry.ts), and
// reads the answer. A 2xx answer resolves with its body, carrying a non-enumerable lastResponse;
// anything else becomes a typed error. Only fetch and Web Crypto are used, so it runs in Node,
// Deno, Bun, edge workers and browsers alike.
import { APIError, errorFromResponse, headerRecord, type ApiResponse } from './errors.js';
import { DEFAULT_MAX_RETRY_DELAY_MS, exchangeWithRetries, parseRetryAfterMs, realSleep, type RetryEvent, type RetrySettings } from './retry.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_REPLAYED_HEADER, SDK_VERSION, type Route } from './routes.js';

/** Options of one call, overriding the client's. */
export interface RequestOptions {
  /**
   * Writes (POST, PATCH; not DELETE) only. The Idempotency-Key to send; by default a new UUID per call, reused
   * by the call's own retries. Pass your own to retry a call yourself (e.g. after a
   * ConnectionError, with `error.idempotencyKey`): within 24 hours the API answers a repeated key
   * with the stored answer instead of acting again. At most 255 printable ASCII characters.
   */
  idempotencyKey?: string;
  /** Extra request headers, e.g. for tracing. They cannot replace the key, Content-Type or Idempotency-Key. */
  headers?: Record<string, string>;
  /** Aborts the call, including its retries; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Deadline of each attempt, in milliseconds. */
  timeoutMs?: number;
  /** Deadline of the whole call, every attempt and wait included, in milliseconds. */
  deadlineMs?: number;
  /** Retries after the first attempt; 0 for none. */
  maxRetries?: number;
}

/** How the SDK sends requests; shared by the Client and the platform webhook sender. */
export interface TransportOptions {
  /** A fetch implementation; the global fetch by default (looked up at call time). */
  fetch?: typeof fetch;
  /** Retries after the first attempt of a call, for network errors, timeouts, 429 and 5xx. Default 2; 0 for none. */
  maxRetries?: number;
  /** Deadline of each attempt, in milliseconds. Default 30000. */
  timeoutMs?: number;
  /** Deadline of each call, every attempt and wait included, in milliseconds. Default: none. */
  deadlineMs?: number;
  /**
   * The longest the SDK waits before a retry, in milliseconds, Retry-After included: an answer
   * that asks for a longer wait is final at once (e.g. RateLimitError). Default 5000.
   */
  maxRetryDelayMs?: number;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
  /** For tests: how to wait between attempts (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
  /** For tests: the jitter source, a number in [0, 1) (default Math.random). */
  random?: () => number;
  /** For tests: the clock, in ms since the epoch (default Date.now). */
  now?: () => number;
}

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_TIMEOUT_MS = 30_000;

/** What the API said about a successful call, beside its body. */
export interface LastResponse {
  /** HTTP status, e.g. 201. */
  status: number;
  /** X-Request-Id: quote it to support. */
  requestId: string | undefined;
  /** The Idempotency-Key sent (writes only). */
  idempotencyKey: string | undefined;
  /** True when the API replayed the stored answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
  /** RateLimit-Limit, -Remaining and -Reset (seconds), when the answer carried them. */
  rateLimit: { limit: number; remaining: number; resetSeconds: number } | undefined;
  /** Every header of the answer, lower-cased. */
  headers: Record<string, string>;
}

/** A result with `lastResponse`, a non-enumerable property: JSON.stringify of the result leaves it out. */
export type WithLastResponse<T> = T & { readonly lastResponse: LastResponse };

/** Emitted before each attempt. */
export interface RequestEvent {
  method: string;
  /** The path sent, e.g. /v2/orders/1001. */
  path: string;
  /** The attempt, from 1. */
  attempt: number;
  idempotencyKey: string | undefined;
}

/** Emitted when an attempt got an answer, whatever its status. */
export interface ResponseEvent extends RequestEvent {
  status: number;
  requestId: string | undefined;
  replayed: boolean;
  /** From sending the attempt to reading the whole answer. */
  elapsedMs: number;
}

export interface ClientEvents {
  request: RequestEvent;
  response: ResponseEvent;
}

/** Listeners of a client's events. A listener's exception is ignored: it must not change the outcome of a call the API may have acted on. */
export class Emitter {
  private readonly listeners: { [Name in keyof ClientEvents]: Set<(event: ClientEvents[Name]) => void> } = {
    request: new Set(),
    response: new Set(),
  };

  on<Name extends keyof ClientEvents>(name: Name, listener: (event: ClientEvents[Name]) => void): void {
    this.listenersOf(name).add(listener);
  }

  off<Name extends keyof ClientEvents>(name: Name, listener: (event: ClientEvents[Name]) => void): void {
    this.listenersOf(name).delete(listener);
  }

  emit<Name extends keyof ClientEvents>(name: Name, event: ClientEvents[Name]): void {
    for (const listener of this.listenersOf(name)) {
      try {
        listener(event);
      } catch {
        // See the class comment.
      }
    }
  }

  private listenersOf<Name extends keyof ClientEvents>(name: Name): Set<(event: ClientEvents[Name]) => void> {
    const set = this.listeners[name] as Set<(event: ClientEvents[Name]) => void> | undefined;
    if (set === undefined) throw new TypeError(`Unknown event ${String(name)}: use 'request' or 'response'.`);
    return set;
  }
}

/** One request, as a resource method describes it. */
export interface Call {
  route: Route;
  /** Path parameters, already checked and encoded by pathSegment. */
  params?: Record<string, string>;
  /** Query parameters; undefined ones are left out. */
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** The success answer is a file (a claim's photo), not JSON: it resolves as a DownloadedFile. */
  binary?: true;
}

/** A file the API answered with: its bytes and their type. */
export interface DownloadedFile {
  data: Uint8Array;
  content_type: string;
}

export interface TransportSetup {
  baseUrl: string;
  /** Sent with every request (the key). */
  headers?: Record<string, string>;
  /** Headers computed from the exact body sent, for each attempt (the webhook signature). */
  attemptHeaders?: (body: string) => Promise<Record<string, string>>;
  emitter?: Emitter;
}

/** Headers a caller's `headers` cannot replace: what authenticates and frames the request. */
const RESERVED_HEADERS = new Set(['token', 'authorization', 'content-type', IDEMPOTENCY_KEY_HEADER.toLowerCase(), 'x-webhook-signature']);
const USER_AGENT = `order-protection-sdk/${SDK_VERSION} ${runtimeName()}`;

export class Transport {
  private readonly settings: RetrySettings;
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;

  constructor(
    private readonly setup: TransportSetup,
    options: TransportOptions,
  ) {
    validateRequestOptions(options);
    if (options.maxRetryDelayMs !== undefined && !(Number.isFinite(options.maxRetryDelayMs) && options.maxRetryDelayMs >= 0)) {
      throw new TypeError(`maxRetryDelayMs must be a number of milliseconds, 0 or more (got ${String(options.maxRetryDelayMs)}).`);
    }
    this.baseUrl = normaliseBaseUrl(setup.baseUrl);
    // Looked up at call time, so a fetch installed (or mocked) after the client was made is used.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.settings = {
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      deadlineMs: options.deadlineMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      onRetry: options.onRetry,
    };
  }

  /** Sends with retries; resolves with the 2xx body (with lastResponse) or throws the typed error. */
  async request<T extends object>(call: Call, options: RequestOptions = {}): Promise<WithLastResponse<T>> {
    validateRequestOptions(options);
    const { route } = call;
    const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const value = call.params?.[name];
      if (value === undefined) throw new TypeError(`${name} is required.`);
      return value;
    });
    const query = route.query
      .flatMap((name) => {
        const value = call.query?.[name];
        return value === undefined ? [] : [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`];
      })
      .join('&');
    const url = `${this.baseUrl}${path}${query === '' ? '' : `?${query}`}`;
    const body = route.body ? JSON.stringify(call.body ?? {}) : undefined;

    const extra: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (!RESERVED_HEADERS.has(name.toLowerCase())) extra[name.toLowerCase()] = value;
    }
    const idempotencyKey = route.idempotencyKey ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined;
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
      throw new TypeError('idempotencyKey must be 1 to 255 printable ASCII characters, without spaces.');
    }
    const settings: RetrySettings = {
      ...this.settings,
      maxRetries: options.maxRetries ?? this.settings.maxRetries,
      timeoutMs: options.timeoutMs ?? this.settings.timeoutMs,
      deadlineMs: options.deadlineMs ?? this.settings.deadlineMs,
    };
    const emitter = this.setup.emitter;

    const send = async (signal: AbortSignal, attempt: number): Promise<ApiResponse> => {
      const headers: Record<string, string> = {
        // A file route answers its errors as JSON all the same.
        accept: call.binary ? '*/*' : 'application/json',
        'user-agent': USER_AGENT,
        // Browsers do not let a page set User-Agent; this one they send.
        'x-client-user-agent': USER_AGENT,
        ...extra,
        ...this.setup.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: idempotencyKey }),
        ...(this.setup.attemptHeaders === undefined ? {} : await this.setup.attemptHeaders(body ?? '')),
      };
      const event: RequestEvent = { method: route.method, path, attempt, idempotencyKey };
      emitter?.emit('request', event);
      const started = this.settings.now();
      const response = await this.fetch(url, { method: route.method, headers, body, signal });
      const isFile = call.binary === true && response.ok && !/\bjson\b/i.test(response.headers.get('content-type') ?? '');
      const file: DownloadedFile | undefined = isFile
        ? { data: new Uint8Array(await response.arrayBuffer()), content_type: response.headers.get('content-type') ?? 'application/octet-stream' }
        : undefined;
      const text = file === undefined ? await response.text() : '';
      emitter?.emit('response', {
        ...event,
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
        replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true',
        elapsedMs: this.settings.now() - started,
      });
      return { status: response.status, body: file ?? parseBody(text, response.headers.get('content-type')), headers: response.headers };
    };

    const response = await exchangeWithRetries(send, settings, { signal: options.signal, idempotencyKey });
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (response.status < 200 || response.status >= 300) {
      throw errorFromResponse(response, parseRetryAfterMs(response.headers.get('retry-after'), settings.now()), idempotencyKey);
    }
    if (typeof response.body !== 'object' || response.body === null) {
      throw new APIError({
        status: response.status,
        message: `The API answered HTTP ${response.status} without a JSON body.`,
        requestId,
        idempotencyKey,
        raw: response.body,
        headers: headerRecord(response.headers),
      });
    }
    const lastResponse: LastResponse = {
      status: response.status,
      requestId,
      idempotencyKey,
      replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true',
      rateLimit: rateLimitOf(response.headers),
      headers: headerRecord(response.headers),
    };
    // Non-enumerable, as stripe-node does: the body serialises and compares as the API sent it.
    Object.defineProperty(response.body, 'lastResponse', { value: lastResponse, enumerable: false, configurable: true });
    return response.body as WithLastResponse<T>;
  }
}

function parseBody(raw: string, contentType: string | null): unknown {
  if (raw === '') return undefined;
  if (contentType !== null && /\bjson\b/i.test(contentType)) {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  return raw;
}

function rateLimitOf(headers: Headers): LastResponse['rateLimit'] {
  const [limit, remaining, resetSeconds] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) => {
    const value = headers.get(name);
    return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  });
  if (limit === undefined || remaining === undefined || resetSeconds === undefined) return undefined;
  return { limit, remaining, resetSeconds };
}

function newIdempotencyKey(): string {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof webCrypto?.randomUUID !== 'function') {
    throw new Error('This runtime has no crypto.randomUUID (Web Crypto): pass idempotencyKey yourself.');
  }
  return webCrypto.randomUUID();
}

/** Which runtime this is, for User-Agent: deno/1.46, bun/1.1, edge-runtime, node/20.19.0, or the browser's. */
function runtimeName(): string {
  const scope = globalThis as {
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    EdgeRuntime?: unknown;
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: string };
  };
  if (scope.Deno?.version?.deno !== undefined) return `deno/${scope.Deno.version.deno}`;
  if (scope.Bun?.version !== undefined) return `bun/${scope.Bun.version}`;
  if (typeof scope.EdgeRuntime === 'string') return scope.EdgeRuntime;
  if (scope.process?.versions?.node !== undefined) return `node/${scope.process.versions.node}`;
  return scope.navigator?.userAgent ?? 'unknown-runtime';
}

export function validateRequestOptions(options: RequestOptions | TransportOptions): void {
  const { maxRetries, timeoutMs, deadlineMs } = options;
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new TypeError(`maxRetries must be a whole number, 0 or more (got ${String(maxRetries)}).`);
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError(`timeoutMs must be a positive number of milliseconds (got ${String(timeoutMs)}).`);
  }
  if (deadlineMs !== undefined && !(Number.isFinite(deadlineMs) && deadlineMs > 0)) {
    throw new TypeError(`deadlineMs must be a positive number of milliseconds (got ${String(deadlineMs)}).`);
  }
}

/**
 * Secret keys and shared secrets belong on servers: a page would hand them to every visitor. A real
 * browser has both window and document; edge and worker runtimes have neither, and are allowed.
 */
export function refuseBrowser(what: string): void {
  const scope = globalThis as { window?: unknown; document?: unknown };
  if (typeof scope.window !== 'undefined' && typeof scope.document !== 'undefined') {
    throw new Error(
      `The Order Protection SDK holds ${what}, which is for servers only: in a browser anyone could read it and act as ` +
        'your store. Call the API from your backend, and let the storefront reach only your own endpoints.',
    );
  }
}

/**
 * A path parameter, percent-encoded, so "#1001/β" stays one segment. Empty, "." and ".." cannot
 * name one segment.
 */
export function pathSegment(name: string, value: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string.`);
  if (value === '.' || value === '..') throw new TypeError(`${name} "${value}" cannot be sent as a URL path segment.`);
  return encodeURIComponent(value);
}

/** The API root without trailing slashes; http or https only. */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http or https URL, e.g. https://api.example.com (got ${JSON.stringify(baseUrl)}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be an http or https URL (got ${url.protocol}).`);
  }
  return baseUrl.replace(/\/+$/, '');
}
