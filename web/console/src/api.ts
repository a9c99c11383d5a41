// The console's typed client of its own API (contract/console): every request and answer is typed
// from the same contract the server implements. The session cookie is HttpOnly, so the page never
// sees it; it only keeps the session's CSRF token, which every change must carry.
import { initClient, tsRestFetchApi } from '@ts-rest/core';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { consoleContract, CSRF_HEADER, type ConsoleSession } from '../../../contract/console/index.js';
import { ErrorResponse, type FieldError } from '../../../contract/errors.js';
import { CONSOLE_ROLES, policyOf, type ConsoleRole } from '../../../contract/policy.js';

export type Session = z.infer<typeof ConsoleSession>;

let csrfToken: string | undefined;

/** Remembers the CSRF token of the session just read or opened, or forgets it at logout. */
export function rememberSession(session: Session | null): void {
  csrfToken = session?.csrf_token;
}

export const api = initClient(consoleContract, {
  baseUrl: '',
  credentials: 'same-origin',
  // An answer with a status the contract does not list is a fault, not data to show.
  throwOnUnknownStatus: true,
  // Changes carry the CSRF token; reads do not need it, so it never travels where it is not checked.
  api: (args) =>
    tsRestFetchApi(
      args.method === 'GET' || csrfToken === undefined ? args : { ...args, headers: { ...args.headers, [CSRF_HEADER.toLowerCase()]: csrfToken } },
    ),
});

/**
 * A change whose body is the raw bytes of a file (a logo), which the typed client cannot send: the
 * same request it would make, with the session's CSRF token, and the answer's JSON body (undefined
 * when it had none). The caller judges the body with the contract's schema.
 */
export async function sendBytes(method: 'PUT' | 'POST', path: string, file: Blob): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { 'content-type': file.type === '' ? 'application/octet-stream' : file.type };
  if (csrfToken !== undefined) headers[CSRF_HEADER.toLowerCase()] = csrfToken;
  const response = await fetch(path, { method, headers, body: file, credentials: 'same-origin' });
  const body: unknown = (response.headers.get('content-type') ?? '').includes('json') ? await response.json().catch(() => undefined) : undefined;
  return { status: response.status, body };
}

/**
 * The typed client puts path parameters into the URL as they are; an order id or a tracking number
 * may hold "/", "#", "?" or "%", so every path parameter is passed through this (the server decodes it).
 */
export const pathParam = (value: string) => encodeURIComponent(value);

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

/** What to tell the user about a failed request. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  // fetch rejects with a TypeError when the network or the server is unreachable.
  if (error instanceof TypeError) return 'The console could not reach the server. Check your connection and try again.';
  return 'Something went wrong. Reload the page and try again.';
}

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

/**
 * Whether a user of `role` may call a route, by the least role the contract declares for it: the
 * page hides what the server would refuse (and the server refuses it anyway).
 */
export function mayCall(route: { metadata?: unknown }, role: ConsoleRole): boolean {
  const needed = policyOf(route.metadata)?.role;
  return needed === undefined || CONSOLE_ROLES.indexOf(role) >= CONSOLE_ROLES.indexOf(needed);
}

/** Who is logged in, or null: the one place the page learns whether it has a session. */
export const sessionQuery = queryOptions({
  queryKey: ['session'] as const,
  queryFn: async (): Promise<Session | null> => {
    const response = await api.session.current();
    if (response.status === 401) {
      rememberSession(null);
      return null;
    }
    const session = bodyOf(response, 200);
    rememberSession(session);
    return session;
  },
  staleTime: 5 * 60_000,
});

/**
 * Forgets the session and everything read under it (after logout, or when the server says the
 * session ended). The session becomes null rather than unknown, so the login page does not ask again.
 */
export function forgetSession(queryClient: QueryClient): void {
  rememberSession(null);
  queryClient.setQueryData(sessionQuery.queryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQuery.queryKey[0] });
  queryClient.getMutationCache().clear();
}
