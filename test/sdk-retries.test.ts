// The SDK's retries (sdk/src/retry.ts): backoff, Retry-After, what is retried and what is final,
// the deadline over all attempts, and aborts, against a local server that fails on purpose and
// records every request (test/support/sdk-fake-api.ts). Waits are recorded by an injected sleep,
// so no test waits the real seconds it asserts. What each attempt sends (Idempotency-Key, paths,
// headers) is in sdk-retries-requests.test.ts.
import { describe, expect, it, vi } from 'vitest';
import {
  APIError,
  AuthenticationError,
  Client,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  TimeoutError,
  UnprocessableError,
  type ClientOptions,
} from '../sdk/src/index.js';
import { backoffDelayMs, parseRetryAfterMs } from '../sdk/src/retry.js';
import { apiUrl, codeFor, KEY, NOW, recordingClient, rejection, requests, script, storedOrder, useFakeApi } from './support/sdk-fake-api.js';

useFakeApi();

describe('backoff', () => {
  it('is min(0.5 s * 2^(n-1), 5 s), jittered down to at most half and never below 0.5 s', () => {
    const ceilings = [500, 1000, 2000, 4000, 5000, 5000, 5000, 5000];
    ceilings.forEach((ceiling, index) => {
      const retry = index + 1;
      expect(backoffDelayMs(retry, () => 0.999999)).toBe(ceiling);
      expect(backoffDelayMs(retry, () => 0)).toBe(Math.max(500, ceiling / 2));
      for (let sample = 0; sample < 50; sample += 1) {
        const delay = backoffDelayMs(retry);
        expect(delay).toBeGreaterThanOrEqual(Math.max(500, ceiling / 2));
        expect(delay).toBeLessThanOrEqual(ceiling);
      }
    });
  });

  it('grows from one retry to the next and stays within the bounds', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const { client, delays } = recordingClient({ maxRetries: 5 });
    await client.orders.retrieve('1001');
    expect(requests).toHaveLength(6);
    expect(delays).toEqual([500, 750, 1500, 3000, 3750]);
    for (let index = 1; index < delays.length; index += 1) expect(delays[index]).toBeGreaterThan(delays[index - 1]!);
    expect(Math.max(...delays)).toBeLessThanOrEqual(5000);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfterMs('2', NOW)).toBe(2000);
    expect(parseRetryAfterMs(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfterMs('1.5', NOW)).toBe(1500);
    expect(parseRetryAfterMs(new Date(NOW + 10_000).toUTCString(), NOW)).toBe(10_000);
    expect(parseRetryAfterMs(new Date(NOW - 10_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfterMs('soon', NOW)).toBeUndefined();
    expect(parseRetryAfterMs('-1', NOW)).toBeUndefined();
    expect(parseRetryAfterMs(null, NOW)).toBeUndefined();
  });

  it.each([
    ['2 seconds', '2', 2000],
    ['an HTTP date 10 s ahead', new Date(NOW + 10_000).toUTCString(), 10_000],
    ['an HTTP date in the past', new Date(NOW - 5_000).toUTCString(), 0],
    ['exactly maxRetryDelayMs', '20', 20_000],
  ])('429 with Retry-After of %s waits as told (maxRetryDelayMs 20 s)', async (_label, retryAfter, expected) => {
    script.push({ status: 429, headers: { 'retry-after': retryAfter } });
    const { client, delays, events } = recordingClient({ maxRetryDelayMs: 20_000 });
    await client.orders.retrieve('1001');
    expect(requests).toHaveLength(2);
    expect(delays).toEqual([expected]);
    expect(events).toEqual([{ attempt: 1, delayMs: expected, status: 429, error: undefined }]);
  });

  it.each([
    ['60 seconds, over the default 5 s', '60', {}, 60],
    ['an HTTP date an hour ahead', new Date(NOW + 3_600_000).toUTCString(), { maxRetryDelayMs: 60_000 }, 3600],
    ['6 seconds, over a 5.999 s cap', '6', { maxRetryDelayMs: 5_999 }, 6],
  ])('a Retry-After of %s, longer than the SDK may wait, is a RateLimitError at once', async (_label, retryAfter, options, seconds) => {
    script.push({ status: 429, headers: { 'retry-after': retryAfter } }, { status: 200, body: storedOrder });
    const { client, delays } = recordingClient(options);
    const error = await rejection(client.quotes.create({ cart: { covered: { amount: '80.00' } } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(seconds);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('is honoured on a 503 too, and backoff applies when it is absent or unreadable', async () => {
    script.push({ status: 503, headers: { 'retry-after': '1' } }, { status: 429 }, { status: 429, headers: { 'retry-after': 'later' } });
    const { client, delays } = recordingClient({ maxRetries: 3 });
    await client.orders.retrieve('1001');
    expect(delays).toEqual([1000, 750, 1500]);
  });

  it('a 429 that outlasts the retries is a RateLimitError with retryAfterSeconds', async () => {
    script.push(...Array.from({ length: 3 }, () => ({ status: 429, headers: { 'retry-after': '3' } })));
    const { client, delays } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(3);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req_fake_3' });
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([3000, 3000]);
  });

  it('maxRetryDelayMs caps the backoff too', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const { client, delays } = recordingClient({ maxRetries: 4, maxRetryDelayMs: 800, random: () => 0.999999 });
    await client.orders.retrieve('1001');
    expect(delays).toEqual([500, 800, 800, 800]);
    expect(() => recordingClient({ maxRetryDelayMs: -1 })).toThrow(/maxRetryDelayMs/);
  });
});

describe('what is retried', () => {
  it('503 twice then 200 makes 3 attempts and resolves with the body', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 200, body: storedOrder });
    const { client, delays, events } = recordingClient();
    await expect(client.orders.retrieve('1001')).resolves.toEqual(storedOrder);
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(Array(3).fill('GET /v2/orders/1001'));
    expect(delays).toEqual([500, 750]);
    expect(events.map((event) => event.status)).toEqual([503, 503]);
  });

  it('5xx that outlasts the retries is an APIError', async () => {
    script.push({ status: 500 }, { status: 502 }, { status: 504 });
    const { client } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 504, code: 'internal_error' });
    expect(requests).toHaveLength(3);
  });

  it.each([
    [400, InvalidRequestError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, InvalidRequestError],
    [422, UnprocessableError],
  ])('%i is never retried', async (status, errorClass) => {
    script.push({ status }, { status: 200, body: storedOrder });
    const { client, delays } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ status, code: codeFor(status), requestId: 'req_fake_1' });
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries a network error (the server destroys the socket)', async () => {
    script.push({ destroy: true }, { status: 200, body: storedOrder });
    const { client, events } = recordingClient();
    await expect(client.orders.retrieve('1001')).resolves.toEqual(storedOrder);
    expect(requests).toHaveLength(2);
    expect(events[0]?.error).toBeInstanceOf(ConnectionError);
    expect(events[0]?.status).toBeUndefined();
  });

  it('a network error on every attempt is a ConnectionError', async () => {
    script.push({ destroy: true }, { destroy: true }, { destroy: true });
    const { client } = recordingClient();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/retried 2 times/);
    expect(requests).toHaveLength(3);
  });

  it('a hang is a TimeoutError after the retries', async () => {
    script.push({ hang: true }, { hang: true }, { hang: true });
    const { client } = recordingClient({ timeoutMs: 100 });
    const started = Date.now();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/within 100 ms/);
    expect(requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('the deadline holds even with a fetch that ignores its abort signal', async () => {
    const deaf: typeof fetch = () => new Promise<Response>(() => {});
    const { client } = recordingClient({ fetch: deaf, timeoutMs: 50, maxRetries: 1 });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(TimeoutError);
  });

  it('a hang followed by an answer resolves', async () => {
    script.push({ hang: true }, { status: 200, body: storedOrder });
    const { client, events } = recordingClient({ timeoutMs: 100 });
    await expect(client.orders.retrieve('1001')).resolves.toEqual(storedOrder);
    expect(events[0]?.error).toBeInstanceOf(TimeoutError);
  });

  it('maxRetries: 0 makes one attempt', async () => {
    const { client, delays } = recordingClient({ maxRetries: 0 });
    script.push({ status: 503 });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(APIError);
    script.push({ destroy: true });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(ConnectionError);
    script.push({ status: 429, headers: { 'retry-after': '1' } });
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(RateLimitError);
    expect(requests).toHaveLength(3);
    expect(delays).toEqual([]);
  });

  it('a call can override maxRetries and timeoutMs', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 });
    const { client } = recordingClient({ timeoutMs: 60_000 });
    await expect(client.orders.retrieve('1001', { maxRetries: 3 })).resolves.toEqual({ ok: true });
    expect(requests).toHaveLength(4);
    script.push({ hang: true });
    expect(await rejection(client.orders.retrieve('1001', { maxRetries: 0, timeoutMs: 50 }))).toBeInstanceOf(TimeoutError);
    await expect(client.orders.retrieve('1001', { maxRetries: -1 })).rejects.toThrow(TypeError);
    await expect(client.orders.retrieve('1001', { timeoutMs: 0 })).rejects.toThrow(TypeError);
  });

  it('an answer that is not in the error format is still typed, with its text as raw', async () => {
    script.push({ status: 502, text: '<html>Bad gateway</html>' });
    const { client } = recordingClient({ maxRetries: 0 });
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 502, code: undefined, fieldErrors: [], raw: '<html>Bad gateway</html>' });
    expect(error.headers['content-type']).toBe('text/html');
  });

  it('a 2xx without a JSON body is an APIError, not a silent undefined', async () => {
    script.push({ status: 200, text: 'ok' });
    const { client } = recordingClient();
    expect(await rejection(client.orders.retrieve('1001'))).toBeInstanceOf(APIError);
  });
});

describe('deadlineMs: one deadline for every attempt and wait of a call', () => {
  /** A client whose clock moves only when it sleeps, so waits count against the deadline exactly. */
  function clockedClient(options: Partial<ClientOptions>) {
    let clock = NOW;
    const delays: number[] = [];
    const client = new Client({
      apiKey: KEY,
      baseUrl: apiUrl(),
      random: () => 0.5,
      now: () => clock,
      sleep: async (ms) => {
        delays.push(ms);
        clock += ms;
      },
      ...options,
    });
    return { client, delays };
  }

  it('stops retrying when the next wait would pass the deadline, with the last answer', async () => {
    script.push({ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: storedOrder });
    const { client, delays } = clockedClient({ maxRetries: 5, deadlineMs: 1_000 });
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(APIError);
    expect(delays).toEqual([500]); // the next, 750 ms, would end at 1250 ms
    expect(requests).toHaveLength(2);
  });

  it('a Retry-After beyond the deadline is final at once', async () => {
    script.push({ status: 429, headers: { 'retry-after': '2' } }, { status: 200, body: storedOrder });
    const { client, delays } = clockedClient({});
    expect(await rejection(client.quotes.create({ cart: { covered: { amount: '1.00' } } }, { deadlineMs: 1_500 }))).toBeInstanceOf(RateLimitError);
    expect(delays).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('bounds each attempt by what is left of it', async () => {
    script.push({ hang: true }, { status: 200, body: storedOrder });
    const { client } = recordingClient({ timeoutMs: 60_000, deadlineMs: 150 });
    const started = Date.now();
    const error = await rejection(client.orders.retrieve('1001'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/within 150 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(() => recordingClient({ deadlineMs: 0 })).toThrow(/deadlineMs/);
    await expect(client.orders.retrieve('1001', { deadlineMs: Number.NaN })).rejects.toThrow(/deadlineMs/);
  });
});

describe('signal', () => {
  it('aborts a hanging attempt and does not retry: the call rejects with the reason', async () => {
    script.push({ hang: true }, { status: 200, body: storedOrder });
    const { client } = recordingClient();
    const controller = new AbortController();
    const call = client.orders.retrieve('1001', { signal: controller.signal });
    // Aborted once the attempt is in flight, hanging at the server (not after a guessed 50 ms).
    await vi.waitFor(() => expect(requests).toHaveLength(1), { timeout: 5_000, interval: 5 });
    controller.abort(new Error('the shopper left'));
    await expect(call).rejects.toThrow('the shopper left');
    expect(requests).toHaveLength(1);
  });

  it('aborts the wait between attempts, and an aborted signal sends nothing', async () => {
    script.push({ status: 503 }, { status: 200, body: storedOrder });
    const controller = new AbortController();
    const { client } = recordingClient({ sleep: () => new Promise(() => controller.abort()) });
    await expect(client.orders.retrieve('1001', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(client.orders.retrieve('1001', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toHaveLength(1);
  });
});
