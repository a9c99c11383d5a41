// The one path every request takes: ts-rest builds the request from the contract, this file's
// fetcher sends it with the caller's fetch and reads the answer, and the retry loop decides whether
// to go again. A 2xx answer resolves with its body; anything else becomes a typed error.
import type { ApiFetcher } from '@ts-rest/core';
import { APIError, errorFromResponse, type ApiResponse } from './errors.js';
import { exchangeWithRetries, parseRetryAfterMs, realSleep, type Exchange, type ExchangeOptions, type RetryEvent, type RetrySettings } from './retry.js';

/** Options of one call, overriding the client's. */
export interface RequestOptions {
  /** Retries after the first attempt; 0 for none. */
  maxRetries?: number;
  /** Deadline of each attempt, in milliseconds. */
  timeoutMs?: number;
}

/** How the SDK sends requests; shared by the Client and the platform webhook helper. */
export interface TransportOptions extends RequestOptions {
  /** A fetch implementation; the global fetch by default. */
  fetch?: typeof fetch;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
  /** For tests: how to wait between attempts (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
  /** For tests: the jitter source, a number in [0, 1) (default Math.random). */
  random?: () => number;
  /** For tests: the clock Retry-After dates are read against, in ms since the epoch (default Date.now). */
  now?: () => number;
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Extra headers computed from the exact body sent, for each attempt (the webhook signature). */
export type AttemptHeaders = (body: string) => Record<string, string>;

/**
 * A ts-rest fetcher over the given fetch. The body is read in full under the attempt's signal, so
 * the deadline covers it; JSON is parsed, anything else is kept as text.
 */
export function createFetcher(fetchImpl: typeof fetch, attemptHeaders?: AttemptHeaders): ApiFetcher {
  return async ({ path, method, headers, body, fetchOptions }) => {
    const text = typeof body === 'string' ? body : '';
    const response = await fetchImpl(path, {
      method,
      headers: { accept: 'application/json', ...headers, ...attemptHeaders?.(text) },
      body: body ?? undefined,
      signal: fetchOptions?.signal ?? null,
    });
    const raw = await response.text();
    return { status: response.status, body: parseBody(raw, response.headers.get('content-type')), headers: response.headers };
  };
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

export function validateRequestOptions(options: RequestOptions): void {
  if (options.maxRetries !== undefined && !(Number.isInteger(options.maxRetries) && options.maxRetries >= 0)) {
    throw new TypeError(`maxRetries must be a whole number, 0 or more (got ${String(options.maxRetries)}).`);
  }
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new TypeError(`timeoutMs must be a positive number of milliseconds (got ${String(options.timeoutMs)}).`);
  }
}

export class Transport {
  private readonly settings: RetrySettings;

  constructor(options: TransportOptions) {
    validateRequestOptions(options);
    this.settings = {
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      onRetry: options.onRetry,
    };
  }

  /** Sends with retries and resolves with the final answer, whatever its status. */
  exchange(send: (signal: AbortSignal) => Promise<ApiResponse>, options: RequestOptions = {}, exchangeOptions?: ExchangeOptions): Promise<Exchange> {
    validateRequestOptions(options);
    const settings: RetrySettings = {
      ...this.settings,
      maxRetries: options.maxRetries ?? this.settings.maxRetries,
      timeoutMs: options.timeoutMs ?? this.settings.timeoutMs,
    };
    return exchangeWithRetries(send, settings, exchangeOptions);
  }

  /** The success body of a 2xx answer; any other answer is thrown as its typed error. */
  result<T>(exchange: Exchange): T {
    const { response } = exchange;
    if (response.status >= 200 && response.status < 300) {
      if (typeof response.body === 'object' && response.body !== null) return response.body as T;
      throw new APIError({
        status: response.status,
        message: `The API answered HTTP ${response.status} without a JSON body.`,
        requestId: response.headers.get('x-request-id') ?? undefined,
        raw: response.body,
        headers: Object.fromEntries(response.headers.entries()),
      });
    }
    throw errorFromResponse(response, parseRetryAfterMs(response.headers.get('retry-after'), this.settings.now()));
  }

  /** exchange then result: what almost every method does. */
  async request<T>(send: (signal: AbortSignal) => Promise<ApiResponse>, options?: RequestOptions, exchangeOptions?: ExchangeOptions): Promise<T> {
    return this.result<T>(await this.exchange(send, options, exchangeOptions));
  }
}

/** Secret keys and shared secrets belong on servers; a page would hand them to every visitor. */
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
 * A path parameter, percent-encoded: ts-rest inserts path parameters as given, so "#1001/β" would
 * otherwise end the path at "#" and split it at "/". Empty, "." and ".." cannot name one segment.
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

/** The given fetch, else the global one, looked up at call time. */
export function resolveFetch(fetchImpl: typeof fetch | undefined): typeof fetch {
  return fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
}
