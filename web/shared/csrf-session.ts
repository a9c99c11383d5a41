// What both browser apps' typed clients share about their session: the session cookie is HttpOnly,
// so the page never sees it; it keeps only the session's CSRF token in memory, which every change
// carries. Reads do not need it, so it never travels where it is not checked.
import { tsRestFetchApi, type ApiFetcherArgs } from '@ts-rest/core';

export interface CsrfSession {
  /** Remembers the token of the session just opened or read, or forgets it (logout, expiry). */
  remember(session: { csrf_token: string } | null): void;
  /** The header a change made outside the typed client adds (an upload of raw bytes). */
  changeHeaders(): Record<string, string>;
  /** The typed client's options: same-origin cookies, the token on changes, unknown statuses as faults. */
  readonly clientOptions: {
    baseUrl: '';
    credentials: 'same-origin';
    throwOnUnknownStatus: true;
    api: (args: ApiFetcherArgs) => ReturnType<typeof tsRestFetchApi>;
  };
}

export function csrfSession(headerName: string): CsrfSession {
  const header = headerName.toLowerCase();
  let token: string | undefined;
  const changeHeaders = (): Record<string, string> => (token === undefined ? {} : { [header]: token });
  return {
    remember: (session) => {
      token = session?.csrf_token;
    },
    changeHeaders,
    clientOptions: {
      baseUrl: '',
      credentials: 'same-origin',
      // An answer with a status the contract does not list is a fault, not data to show.
      throwOnUnknownStatus: true,
      api: (args) => tsRestFetchApi(args.method === 'GET' ? args : { ...args, headers: { ...args.headers, ...changeHeaders() } }),
    },
  };
}
