// The SDK's errors, after stripe-node's Error.ts: one base class carrying everything the API said,
// and one subclass per family. Branch on the class and on `code` (the API's error_code), never on
// the message text.
import { ERROR_CODES } from './routes.js';

type ErrorCodes = typeof ERROR_CODES;

/**
 * Every error_code the API answers, as a value: `ErrorCode.conflict === 'conflict'`. Compare
 * `error.code` with these rather than with string literals, so a typo fails to compile.
 */
export const ErrorCode: { readonly [Code in ErrorCodes[number]]: Code } = Object.freeze(
  Object.fromEntries(ERROR_CODES.map((code) => [code, code])) as { [Code in ErrorCodes[number]]: Code },
);
/** One of the API's error codes: 'invalid_request', 'conflict', 'rate_limited', ... */
export type ErrorCode = ErrorCodes[number];

/** One bad field of a request: `{ field: 'line_items[0].price', message: '...' }`. */
export interface FieldIssue {
  /** Path of the bad field from the body root, e.g. line_items[0].price. */
  field: string;
  /** What is wrong with it, in plain words. */
  message: string;
}

export interface ErrorDetails {
  message: string;
  status?: number;
  code?: ErrorCode;
  fieldErrors?: FieldIssue[];
  requestId?: string;
  idempotencyKey?: string;
  raw?: unknown;
  headers?: Record<string, string>;
  cause?: unknown;
}

/** Base of every error the SDK throws for a request that did not succeed. */
export class OrderProtectionError extends Error {
  override readonly name: string = 'OrderProtectionError';
  /** HTTP status; undefined when no answer arrived (ConnectionError, TimeoutError). */
  readonly status: number | undefined;
  /**
   * The API's error_code, e.g. 'conflict': safe to branch on. Undefined when no answer arrived or
   * the answer was not in the API's error format (a proxy's 502 page).
   */
  readonly code: ErrorCode | undefined;
  /** One element per bad field, with paths rooted at the body (line_items[0].price); often empty. */
  readonly fieldErrors: FieldIssue[];
  /** The answer's X-Request-Id: quote it to support. */
  readonly requestId: string | undefined;
  /**
   * The Idempotency-Key the call sent (writes only). After a ConnectionError or TimeoutError the
   * outcome is unknown: call again with `{ idempotencyKey: error.idempotencyKey }` to get the
   * answer the API stored, or to make the request if it never arrived.
   */
  readonly idempotencyKey: string | undefined;
  /** The answer's body as received (parsed JSON, or text), or the underlying failure. */
  readonly raw: unknown;
  /** The answer's headers, lower-cased; empty when no answer arrived. */
  readonly headers: Record<string, string>;

  constructor(details: ErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.fieldErrors = details.fieldErrors ?? [];
    this.requestId = details.requestId;
    this.idempotencyKey = details.idempotencyKey;
    this.raw = details.raw;
    this.headers = details.headers ?? {};
  }
}

/** 401 unauthorized: the key is missing, malformed, revoked or unknown, or a webhook signature is wrong. */
export class AuthenticationError extends OrderProtectionError {
  override readonly name: string = 'AuthenticationError';
}

/** 403 forbidden: a valid key that cannot be used here (not scoped to a store). */
export class PermissionError extends OrderProtectionError {
  override readonly name: string = 'PermissionError';
}

/** 400 invalid_request (see fieldErrors) and 413 payload_too_large. */
export class InvalidRequestError extends OrderProtectionError {
  override readonly name: string = 'InvalidRequestError';
}

/** 404 not_found: no such object in the key's store, or any read, update or cancel with a test key. */
export class NotFoundError extends OrderProtectionError {
  override readonly name: string = 'NotFoundError';
}

/**
 * 409 conflict: the object already exists, or its state forbids the change. (A 409 that only says
 * the same Idempotency-Key is still being processed is retried by the SDK, as its Retry-After says.)
 */
export class ConflictError extends OrderProtectionError {
  override readonly name: string = 'ConflictError';
}

/** 422 unprocessable: a duplicate id within the request, or an Idempotency-Key reused for a different request. */
export class UnprocessableError extends OrderProtectionError {
  override readonly name: string = 'UnprocessableError';
}

/** 429 rate_limited, once the SDK's own retries are spent or Retry-After is longer than it may wait. */
export class RateLimitError extends OrderProtectionError {
  override readonly name: string = 'RateLimitError';
  /** When to try again, from Retry-After (seconds, rounded up); undefined when it was absent. */
  readonly retryAfterSeconds: number | undefined;

  constructor(details: ErrorDetails & { retryAfterSeconds?: number }) {
    super(details);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** 5xx, and any status the API does not document. Safe to retry later. */
export class APIError extends OrderProtectionError {
  override readonly name: string = 'APIError';
}

/** No answer arrived: the connection failed or was closed before a response was read. */
export class ConnectionError extends OrderProtectionError {
  override readonly name: string = 'ConnectionError';
}

/** No answer arrived within timeoutMs (or the call's deadlineMs). A ConnectionError, so one catch handles both. */
export class TimeoutError extends ConnectionError {
  override readonly name: string = 'TimeoutError';
}

/** An answer as the transport read it: the body is parsed JSON when it was JSON, else text. */
export interface ApiResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** The typed error for a non-2xx answer. `retryAfterMs` is the parsed Retry-After, if any. */
export function errorFromResponse(response: ApiResponse, retryAfterMs: number | undefined, idempotencyKey: string | undefined): OrderProtectionError {
  const { status, body } = response;
  const payload = errorPayload(body);
  const details: ErrorDetails = {
    status,
    // A code this SDK does not know yet is still passed on: the union is what it can promise.
    code: payload?.error_code as ErrorCode | undefined,
    message: payload?.error ?? `The API answered HTTP ${status} without an error body in its error format.`,
    fieldErrors: payload?.errors ?? [],
    requestId: response.headers.get('x-request-id') ?? undefined,
    idempotencyKey,
    raw: body,
    headers: headerRecord(response.headers),
  };
  switch (status) {
    case 400:
    case 413:
      return new InvalidRequestError(details);
    case 401:
      return new AuthenticationError(details);
    case 403:
      return new PermissionError(details);
    case 404:
      return new NotFoundError(details);
    case 409:
      return new ConflictError(details);
    case 422:
      return new UnprocessableError(details);
    case 429:
      return new RateLimitError({ ...details, retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000) });
    default:
      return new APIError(details);
  }
}

export function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** The API's error body ({error, error_code, errors}), read leniently so a new code still comes through. */
function errorPayload(body: unknown): { error: string; error_code: string; errors: FieldIssue[] } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { error, error_code, errors } = body as Record<string, unknown>;
  if (typeof error !== 'string' || typeof error_code !== 'string') return undefined;
  const fieldErrors = Array.isArray(errors)
    ? errors.filter(
        (item): item is FieldIssue =>
          typeof item === 'object' && item !== null && typeof item.field === 'string' && typeof item.message === 'string',
      )
    : [];
  return { error, error_code, errors: fieldErrors };
}
