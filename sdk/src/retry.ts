// When and how long to retry, after stripe-node's RequestSender: network errors, timeouts, 429 and
// 5xx are retried with capped exponential backoff and jitter; any other answer is final. Unlike
// Stripe we honour Retry-After (seconds or an HTTP date, capped). Each attempt has its own deadline
// through an AbortController.
import { ConnectionError, TimeoutError, type ApiResponse } from './errors.js';

/** First retry waits 0.5 s; each next one doubles, up to 5 s (before jitter). */
export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 5_000;
/** A Retry-After longer than this is waited for this long only. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Emitted before each retry: which attempt failed, how, and how long the SDK waits. */
export interface RetryEvent {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long the SDK waits before the next attempt. */
  delayMs: number;
  /** The failed attempt's HTTP status, or undefined when no answer arrived. */
  status: number | undefined;
  /** The failure when no answer arrived. */
  error: ConnectionError | undefined;
}

export interface RetrySettings {
  /** Retries after the first attempt; 0 for none. */
  maxRetries: number;
  /** Deadline of each attempt, body included. */
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1), for jitter. */
  random: () => number;
  /** Milliseconds since the epoch, for Retry-After dates. */
  now: () => number;
  onRetry?: (event: RetryEvent) => void;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait before retry number `retry` (from 1): min(0.5 s × 2^(retry-1), 5 s), jittered down to as
 * little as half of that, and never below 0.5 s, as stripe-node does.
 */
export function backoffDelayMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** (retry - 1), MAX_RETRY_DELAY_MS);
  const jittered = ceiling * (0.5 + 0.5 * random());
  return Math.round(Math.max(INITIAL_RETRY_DELAY_MS, jittered));
}

/**
 * Retry-After in milliseconds, uncapped: delta-seconds ("2") or an HTTP date (in the past reads 0).
 * Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined; // a negative or malformed number is not a date either
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Whether an answer with this status is worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The outcome of the exchange: the final answer, and whether an earlier attempt may have landed. */
export interface Exchange {
  response: ApiResponse;
  attempts: number;
  /**
   * True when an earlier attempt ended without telling whether the API acted on it: a network
   * error after the request was sent, a timeout, or a 5xx. A 409 on a create then means the first
   * attempt landed: source_order_id is unique per store, so only an earlier attempt can hold it.
   */
  earlierOutcomeUnknown: boolean;
}

export interface ExchangeOptions {
  /**
   * Retry after an attempt whose outcome is unknown (see Exchange.earlierOutcomeUnknown). Off for
   * a create the API cannot deduplicate, where a retry could act twice; 429 and a refused
   * connection are still retried, since the API certainly did not act on those.
   */
  retryUnknownOutcome?: boolean;
}

type Attempt = { response: ApiResponse } | { failure: ConnectionError; sent: boolean };

/**
 * Runs `send` until it gets a final answer or the retries are spent. Resolves with the last answer,
 * whatever its status (the caller maps it to a result or an error); rejects with ConnectionError or
 * TimeoutError when the last attempt got no answer.
 */
export async function exchangeWithRetries(
  send: (signal: AbortSignal) => Promise<ApiResponse>,
  settings: RetrySettings,
  options: ExchangeOptions = {},
): Promise<Exchange> {
  const retryUnknownOutcome = options.retryUnknownOutcome ?? true;
  let earlierOutcomeUnknown = false;
  for (let attempt = 1; ; attempt += 1) {
    const result = await attemptOnce(send, settings.timeoutMs, attempt - 1);
    const retriesLeft = attempt <= settings.maxRetries;
    let delayMs: number;
    let outcomeUnknown: boolean;
    if ('response' in result) {
      const { response } = result;
      outcomeUnknown = response.status >= 500;
      if (!isRetryableStatus(response.status) || !retriesLeft || (outcomeUnknown && !retryUnknownOutcome)) {
        return { response, attempts: attempt, earlierOutcomeUnknown };
      }
      const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'), settings.now());
      delayMs = retryAfterMs === undefined ? backoffDelayMs(attempt, settings.random) : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
    } else {
      outcomeUnknown = result.sent;
      if (!retriesLeft || (outcomeUnknown && !retryUnknownOutcome)) throw result.failure;
      delayMs = backoffDelayMs(attempt, settings.random);
    }
    earlierOutcomeUnknown ||= outcomeUnknown;
    settings.onRetry?.({
      attempt,
      delayMs,
      status: 'response' in result ? result.response.status : undefined,
      error: 'failure' in result ? result.failure : undefined,
    });
    await settings.sleep(delayMs);
  }
}

async function attemptOnce(send: (signal: AbortSignal) => Promise<ApiResponse>, timeoutMs: number, retriesSoFar: number): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The race settles the attempt at the deadline even with a fetch that ignores its signal.
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      reject(new Error(`attempt timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const sending = (async () => send(controller.signal))();
  sending.catch(() => {}); // once the deadline has won, a late failure of the abandoned attempt is moot
  try {
    return { response: await Promise.race([sending, deadline]) };
  } catch (error) {
    const retried = retriesSoFar > 0 ? ` The request was retried ${retriesSoFar} time${retriesSoFar === 1 ? '' : 's'}.` : '';
    if (timedOut) {
      return {
        failure: new TimeoutError({ message: `No answer from the API within ${timeoutMs} ms.${retried}`, raw: error, cause: error }),
        sent: true,
      };
    }
    const code = networkErrorCode(error);
    return {
      failure: new ConnectionError({
        message: `Could not get an answer from the API${code ? ` (${code})` : ''}.${retried}`,
        raw: error,
        cause: error,
      }),
      sent: !(code !== undefined && NOT_SENT_CODES.has(code)),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Failures before a connection existed: the request certainly never reached the API. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** The system or undici code behind a fetch failure (TypeError: fetch failed, cause: {code}). */
function networkErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}
