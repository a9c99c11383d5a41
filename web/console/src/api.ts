// The console's typed client of its own API (contract/console): every request and answer is typed
// from the same contract the server implements, with the session's CSRF token on every change
// (../../shared/csrf-session).
import { initClient } from '@ts-rest/core';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { consoleContract, CSRF_HEADER, type ConsoleSession } from '../../../contract/console/index.js';
import { ApiError, bodyOf, failureMessage } from '../../shared/api-errors';
import { csrfSession } from '../../shared/csrf-session';
import { CONSOLE_ROLES, policyOf, type ConsoleRole } from '../../../contract/policy.js';

export type Session = z.infer<typeof ConsoleSession>;

const session = csrfSession(CSRF_HEADER);

export const rememberSession = session.remember;

export const api = initClient(consoleContract, session.clientOptions);

/**
 * A change whose body is the raw bytes of a file (a logo), which the typed client cannot send: the
 * same request it would make, with the session's CSRF token, and the answer's JSON body (undefined
 * when it had none). The caller judges the body with the contract's schema.
 */
export async function sendBytes(method: 'PUT' | 'POST', path: string, file: Blob): Promise<{ status: number; body: unknown }> {
  const headers = { 'content-type': file.type === '' ? 'application/octet-stream' : file.type, ...session.changeHeaders() };
  const response = await fetch(path, { method, headers, body: file, credentials: 'same-origin' });
  const body: unknown = (response.headers.get('content-type') ?? '').includes('json') ? await response.json().catch(() => undefined) : undefined;
  return { status: response.status, body };
}

export { ApiError, bodyOf, fieldError, pathParam, sentence } from '../../shared/api-errors';

/** What to tell the user about a failed request. */
export const errorMessage = (error: unknown) => failureMessage(error, 'The console');

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
