// When and how long to retry, after stripe-node's RequestSender: network errors, timeouts, 429 and
// 5xx are retried with capped exponential backoff and jitter; any other answer is final. Unlike
// Stripe we honour Retry-After (seconds or an HTTP date), but never wait longer than
// maxRetryDelayMs nor past the call's deadline: a checkout cannot hang on a rate limit.
// Every write carries an Idempotency-Key reused by its retries, so a retry after a lost answer
// replays the stored answer instead of acting twice.
import { ConnectionError, TimeoutError, type ApiResponse } from './errors.js';

/** First retry waits 0.5 s; each next one doubles, up to maxRetryDelayMs (before jitter). */
const INITIAL_RETRY_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_MS = 5_000;

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
  /** Deadline of the whole call, every attempt and wait included; undefined for none. */
  deadlineMs: number | undefined;
  /** The longest the SDK waits before a retry, Retry-After included. */
  maxRetryDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1), for jitter. */
  random: () => number;
  /** Milliseconds since the epoch, for Retry-After dates. */
  now: () => number;
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait before retry number `retry` (from 1): min(0.5 s × 2^(retry-1), cap), jittered down to as
 * little as half of that, and never below 0.5 s (nor above the cap), as stripe-node does.
 */
export function backoffDelayMs(retry: number, random: () => number = Math.random, capMs: number = DEFAULT_MAX_RETRY_DELAY_MS): number {
  const ceiling = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** (retry - 1), capMs);
  const jittered = ceiling * (0.5 + 0.5 * random());
  return Math.round(Math.min(capMs, Math.max(INITIAL_RETRY_DELAY_MS, jittered)));
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

/**
 * Whether an answer is worth another attempt: 429 and 5xx; and a 409 with Retry-After to a request
 * that sent an Idempotency-Key, which says an attempt with the same key is still being processed
 * (a real conflict has no Retry-After).
 */
export function isRetryable(response: ApiResponse, sentIdempotencyKey: boolean): boolean {
  const { status } = response;
  if (status === 429 || status >= 500) return true;
  return status === 409 && sentIdempotencyKey && response.headers.has('retry-after');
}

export interface ExchangeControl {
  /** Aborts the call: the current attempt and any retry. The call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The Idempotency-Key the request carries, if any: it makes a 409 with Retry-After retryable, and failures carry it. */
  idempotencyKey?: string | undefined;
}

type Attempt = { response: ApiResponse } | { failure: ConnectionError };

/**
 * Runs `send` until it gets a final answer, the retries are spent, or the next wait would outlast
 * maxRetryDelayMs or the deadline. Resolves with the last answer, whatever its status (the caller
 * maps it to a result or an error); rejects with ConnectionError or TimeoutError when the last
 * attempt got no answer, and with the signal's reason when the caller aborted.
 */
export async function exchangeWithRetries(
  send: (signal: AbortSignal, attempt: number) => Promise<ApiResponse>,
  settings: RetrySettings,
  control: ExchangeControl = {},
): Promise<ApiResponse> {
  const startedAt = settings.now();
  const deadlineAt = settings.deadlineMs === undefined ? Number.POSITIVE_INFINITY : startedAt + settings.deadlineMs;
  for (let attempt = 1; ; attempt += 1) {
    control.signal?.throwIfAborted();
    const attemptTimeoutMs = Math.min(settings.timeoutMs, deadlineAt - settings.now());
    const result = await attemptOnce((signal) => send(signal, attempt), attemptTimeoutMs, attempt - 1, control);
    let delayMs: number;
    if ('response' in result) {
      const { response } = result;
      if (!isRetryable(response, control.idempotencyKey !== undefined) || attempt > settings.maxRetries) return response;
      const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'), settings.now());
      // Told to wait longer than the SDK may: the answer is final now, not after a wait the caller did not allow.
      if (retryAfterMs !== undefined && retryAfterMs > settings.maxRetryDelayMs) return response;
      delayMs = retryAfterMs ?? backoffDelayMs(attempt, settings.random, settings.maxRetryDelayMs);
      if (settings.now() + delayMs >= deadlineAt) return response;
    } else {
      if (attempt > settings.maxRetries) throw result.failure;
      delayMs = backoffDelayMs(attempt, settings.random, settings.maxRetryDelayMs);
      if (settings.now() + delayMs >= deadlineAt) throw result.failure;
    }
    settings.onRetry?.({
      attempt,
      delayMs,
      status: 'response' in result ? result.response.status : undefined,
      error: 'failure' in result ? result.failure : undefined,
    });
    await abortable(settings.sleep(delayMs), control.signal);
  }
}

/** `promise`, unless the caller aborts first: then its reason. */
async function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * One attempt under its own deadline. The deadline is raced as well as signalled, so it holds
 * even with a fetch that ignores its abort signal; the caller's signal aborts it too.
 */
async function attemptOnce(
  send: (signal: AbortSignal) => Promise<ApiResponse>,
  timeoutMs: number,
  retriesSoFar: number,
  { signal: callerSignal, idempotencyKey }: ExchangeControl,
): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      reject(new Error(`attempt timed out after ${timeoutMs} ms`));
    }, Math.max(0, timeoutMs));
  });
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const sending = (async () => send(controller.signal))();
  sending.catch(() => {}); // once the deadline has won, a late failure of the abandoned attempt is moot
  try {
    return { response: await abortable(Promise.race([sending, deadline]), callerSignal) };
  } catch (error) {
    callerSignal?.throwIfAborted();
    const retried = retriesSoFar > 0 ? ` The request was retried ${retriesSoFar} time${retriesSoFar === 1 ? '' : 's'}.` : '';
    if (timedOut) {
      const message = `No answer from the API within ${Math.round(timeoutMs)} ms.${retried}`;
      return { failure: new TimeoutError({ message, idempotencyKey, raw: error, cause: error }) };
    }
    const code = networkErrorCode(error);
    const message = `Could not get an answer from the API${code ? ` (${code})` : ''}.${retried}`;
    return { failure: new ConnectionError({ message, idempotencyKey, raw: error, cause: error }) };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

/** The system or undici code behind a fetch failure (TypeError: fetch failed, cause: {code}), for the message. */
function networkErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}
