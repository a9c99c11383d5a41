// The console's front door (docs/console.md): a session cookie, never an API key. Every console
// route declares the least role it needs (contract/console); a change (any method but GET) must
// also carry the session's CSRF token and come from this origin. Login and password setup open a
// session, so they need neither, but the origin rule still holds for them.
import { parseCookie } from 'cookie';
import type { Request, RequestHandler, Response } from 'express';
import { SESSION_COOKIE, CSRF_HEADER } from '../../contract/console/index.js';
import { type ConsoleSessionRecord, csrfTokenMatches, findSession, roleAllows } from '../domain/access/index.js';
import type { Clock } from '../domain/kernel/index.js';
import { AppError } from '../domain/kernel/index.js';

import type { Database } from '../db/client.js';
import { routePolicy } from './route-policy.js';
import { setSessionCookieOf } from './session-cookie.js';
import './request-types.js';


/** The session token the browser presented, if any. */
export function presentedSessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header === undefined ? undefined : parseCookie(header)[SESSION_COOKIE];
}

/** The session cookie: SameSite=Lax, scoped to /console (http/session-cookie.ts for the rest). */
export function setSessionCookie(req: Request, res: Response, session: Pick<ConsoleSessionRecord, 'token' | 'expiresAt'> | null): void {
  setSessionCookieOf(req, res, { name: SESSION_COOKIE, path: '/console', sameSite: 'lax' }, session);
}

/** A change must come from the console's own origin: a browser always sends Origin on one. */
export function sameOrigin(req: Request): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return req.headers['sec-fetch-site'] === undefined || req.headers['sec-fetch-site'] === 'same-origin';
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export function consoleSession(deps: { db: Database; clock: Clock }): RequestHandler {
  return (req, _res, next) => {
    const policy = routePolicy(req);
    if (policy === undefined) return next();
    const changes = req.method !== 'GET' && req.method !== 'HEAD';
    if (changes && !sameOrigin(req)) return next(new AppError('forbidden', 'Console changes must come from the console itself.'));
    if (policy.auth !== 'session') return next();
    const token = presentedSessionToken(req);
    if (token === undefined || token === '') return next(new AppError('unauthorized', 'Not logged in.'));
    findSession(deps.db, token, deps.clock.now())
      .then((session) => {
        if (session === null) return next(new AppError('unauthorized', 'The session has ended; log in again.'));
        if (changes && !csrfTokenMatches(token, req.header(CSRF_HEADER))) {
          return next(new AppError('forbidden', `Missing or wrong ${CSRF_HEADER}: reload the console.`));
        }
        if (policy.role !== undefined && !roleAllows(session.user.role, policy.role)) {
          return next(new AppError('forbidden', `This needs the ${policy.role} role; yours is ${session.user.role}.`));
        }
        // Live data only (the console shows the store's real orders), the user as the actor.
        req.console = { session, scope: { store: session.store, actor: { kind: 'console_user', userId: session.user.id }, mode: 'live' } };
        next();
      })
      .catch(next);
  };
}

/** The console session of an authenticated console route; the middleware guarantees it. */
export function consoleOf(req: Request): NonNullable<Request['console']> {
  if (!req.console) throw new AppError('unauthorized', 'Not logged in.');
  return req.console;
}
