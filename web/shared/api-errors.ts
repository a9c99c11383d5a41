// What both browser apps (the console and the claim page) do with their API's answers: the error
// body in its documented shape, the expected answer's body, and messages for people. Each app's
// typed client lives in its own api.ts.
import { ErrorResponse, type FieldError } from '../../contract/errors.js';

/** An error answer of the API, in its documented shape (or a stand-in when the body was not one). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: readonly FieldError[];

  constructor(status: number, body: unknown) {
    const parsed = ErrorResponse.safeParse(body);
    super(parsed.success ? parsed.data.error : `The server answered ${status}. Try again in a moment.`);
    this.name = 'ApiError';
    this.status = status;
    this.code = parsed.success ? parsed.data.error_code : 'internal_error';
    this.fieldErrors = parsed.success ? parsed.data.errors : [];
  }
}

interface AnyResponse {
  status: number;
  body: unknown;
}

/** The body of the expected answer; any other answer becomes an ApiError. */
export function bodyOf<R extends AnyResponse, S extends R['status']>(response: R, status: S): Extract<R, { status: S }>['body'] {
  if (response.status !== status) throw new ApiError(response.status, response.body);
  return (response as Extract<R, { status: S }>).body;
}

/**
 * The typed clients put path parameters into the URL as they are; an order id, a tracking number
 * or an id from the address bar may hold "/", "#", "?" or "%", so every path parameter is passed
 * through this (the server decodes it).
 */
export const pathParam = (value: string) => encodeURIComponent(value);

/** A field error as a sentence: the API writes "must not be empty", the page "Must not be empty." */
export function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The message for one field, if the server named it. */
export function fieldError(error: unknown, field: string): string | undefined {
  const message = error instanceof ApiError ? error.fieldErrors.find((item) => item.field === field)?.message : undefined;
  return message === undefined ? undefined : sentence(message);
}

/** What to tell the person about a failed request; `app` names the page in the offline message. */
export function failureMessage(error: unknown, app: string): string {
  if (error instanceof ApiError) return sentence(error.message);
  // fetch rejects with a TypeError when the network or the server is unreachable.
  if (error instanceof TypeError) return `${app} could not reach the server. Check your connection and try again.`;
  return 'Something went wrong. Reload the page and try again.';
}

/** An error answer (4xx) will not change by asking again; only a network failure might. */
export const retryNetworkFailures = (failureCount: number, error: unknown) => !(error instanceof ApiError) && failureCount < 2;
