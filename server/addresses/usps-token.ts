// The USPS OAuth 2.0 token client of the USPS Addresses API v3 verifier (./usps.ts describes both
// calls), and the one fetch helper both calls go through. A token is cached until shortly before it
// expires; concurrent verifies share one token request, so a burst of lookups asks USPS once.
import type { Verification } from '../domain/addresses/index.js';
import { answers, isRecord, transportFailure } from './usps-answers.js';

/** A token is refreshed this long before USPS says it expires (less for very short-lived tokens). */
const REFRESH_MARGIN_MS = 60_000;
/** When the token answer carries no usable expires_in. */
const FALLBACK_TOKEN_LIFETIME_S = 3_600;

export type Outcome<T> = { ok: true; value: T } | { ok: false; verification: Verification };

interface HttpAnswer {
  status: number;
  body: unknown;
}

/** fetch and read the JSON body; an abort becomes verifier_timeout, anything else verifier_unavailable. */
export async function send(url: string, init: RequestInit, signal: AbortSignal): Promise<Outcome<HttpAnswer>> {
  try {
    const response = await fetch(url, { ...init, signal, redirect: 'error' });
    const raw = await response.text();
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    return { ok: true, value: { status: response.status, body } };
  } catch {
    return { ok: false, verification: signal.aborted ? answers.timeout() : answers.unavailable() };
  }
}

function expiresInSeconds(value: unknown): number {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : FALLBACK_TOKEN_LIFETIME_S;
}

/** Resolves when `promise` does, or with `onAbort()` as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(onAbort());
  return new Promise<T>((resolve) => {
    const aborted = () => resolve(onAbort());
    signal.addEventListener('abort', aborted, { once: true });
    promise.then((value) => {
      signal.removeEventListener('abort', aborted);
      resolve(value);
    });
  });
}

export interface UspsTokenClientOptions {
  /** API root without a path or trailing slash. */
  base: string;
  clientId: string;
  clientSecret: string;
  /** The clock the token cache reads. */
  now: () => Date;
}

export interface UspsTokenClient {
  /**
   * The cached token, or a new one. Concurrent callers share one token request; a caller whose signal
   * aborts stops waiting at once, and the request itself is aborted when no caller is left waiting.
   */
  token(signal: AbortSignal): Promise<Outcome<string>>;
  /** Drops the cached token if it is still this one (USPS refused it early). */
  forget(staleToken: string): void;
}

export function createUspsTokenClient(options: UspsTokenClientOptions): UspsTokenClient {
  const { base, now } = options;

  interface TokenFlight {
    result: Promise<Outcome<string>>;
    controller: AbortController;
    waiters: number;
  }

  let cached: { token: string; refreshAt: number } | null = null;
  /** The one token request in flight, shared by every verify waiting on it. */
  let pending: TokenFlight | null = null;

  function startTokenRequest(): TokenFlight {
    const controller = new AbortController();
    const flight: TokenFlight = { controller, waiters: 0, result: Promise.resolve({ ok: false, verification: answers.error() }) };
    flight.result = requestToken(controller.signal)
      .catch((): Outcome<string> => ({ ok: false, verification: answers.error() }))
      .finally(() => {
        if (pending === flight) pending = null;
      });
    return flight;
  }

  async function requestToken(signal: AbortSignal): Promise<Outcome<string>> {
    const sent = await send(
      `${base}/oauth2/v3/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: options.clientId,
          client_secret: options.clientSecret,
        }).toString(),
      },
      signal,
    );
    if (!sent.ok) return sent;
    const { status, body } = sent.value;
    // 400 here is OAuth's invalid_client / invalid_grant: the credentials, not the address.
    if (status === 400) return { ok: false, verification: answers.misconfigured() };
    if (status !== 200) return { ok: false, verification: transportFailure(status) };
    if (!isRecord(body) || typeof body.access_token !== 'string' || body.access_token === '') {
      return { ok: false, verification: answers.unexpected() };
    }
    const lifetimeMs = expiresInSeconds(body.expires_in) * 1000;
    const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2);
    cached = { token: body.access_token, refreshAt: now().getTime() + lifetimeMs - margin };
    return { ok: true, value: body.access_token };
  }

  function token(signal: AbortSignal): Promise<Outcome<string>> {
    if (cached !== null && now().getTime() < cached.refreshAt) return Promise.resolve({ ok: true, value: cached.token });
    if (signal.aborted) return Promise.resolve({ ok: false, verification: answers.timeout() });
    pending ??= startTokenRequest();
    const flight = pending;
    flight.waiters += 1;
    let done = false;
    const leave = () => {
      if (done) return;
      done = true;
      flight.waiters -= 1;
    };
    return raceAbort(
      flight.result.then((outcome) => {
        leave();
        return outcome;
      }),
      signal,
      () => {
        leave();
        if (flight.waiters === 0) {
          flight.controller.abort();
          if (pending === flight) pending = null;
        }
        return { ok: false, verification: answers.timeout() };
      },
    );
  }

  function forget(staleToken: string): void {
    if (cached?.token === staleToken) cached = null;
  }

  return { token, forget };
}
