// The claim page's front door (docs/shopper-claims.md): no key and no account. Every shopper
// route's answer is kept by no cache; a change must come from this origin; a session route needs
// the shopper-session cookie, and a change its CSRF token too. The cookie is HttpOnly,
// SameSite=Strict and scoped to one store's API path, so a browser never sends it elsewhere.
import { parseCookie } from 'cookie';
import type { Request, RequestHandler, Response } from 'express';
import { SHOPPER_CSRF_HEADER, SHOPPER_SESSION_COOKIE, shopperApiBase } from '../../contract/shopper/index.js';
import type { Database } from '../db/client.js';
import type { IssuedShopperSession, Scope, ShopperActor, ShopperSessions } from '../domain/access/index.js';
import type { Clock } from '../domain/kernel/index.js';
import { findStoreBySlug } from '../domain/stores/index.js';
import { AppError } from '../domain/kernel/index.js';

import { sameOrigin } from './console-session.js';
import { setSessionCookieOf } from './session-cookie.js';
import { routePolicy } from './route-policy.js';
import './request-types.js';

const presentedToken = (req: Request): string | undefined => {
  const header = req.headers.cookie;
  return header === undefined ? undefined : parseCookie(header)[SHOPPER_SESSION_COOKIE];
};

/** Sets the session cookie for the store's API path, or clears it (null). */
export function setShopperCookie(req: Request, res: Response, storeSlug: string, session: Pick<IssuedShopperSession, 'token' | 'expiresAt'> | null): void {
  setSessionCookieOf(req, res, { name: SHOPPER_SESSION_COOKIE, path: shopperApiBase(storeSlug), sameSite: 'strict' }, session);
}

export function shopperSession(deps: { db: Database; shopperSessions: ShopperSessions; clock: Clock }): RequestHandler {
  return (req, res, next) => {
    const policy = routePolicy(req);
    if (policy === undefined) return next();
    // A shopper's order and claims are personal data: no shared cache keeps them.
    res.setHeader('Cache-Control', 'no-store');
    const changes = req.method !== 'GET' && req.method !== 'HEAD';
    if (changes && !sameOrigin(req)) return next(new AppError('forbidden', 'Changes must come from the claim page itself.'));
    if (policy.auth !== 'shopper_session') return next();
    const token = presentedToken(req);
    if (token === undefined || token === '') return next(new AppError('unauthorized', 'Look up your order first, with its number and email.'));
    const slug = String(req.params.store_slug ?? '');
    deps.shopperSessions
      .check(token, deps.clock.now())
      .then(async (checked) => {
        // A session of one store is worth nothing at another.
        const store = checked.status === 'valid' ? await findStoreBySlug(deps.db, slug).catch(unknownStoreAsNull) : null;
        if (checked.status !== 'valid' || store?.id !== checked.session.storeId || store === null) {
          setShopperCookie(req, res, slug, null);
          return next(new AppError('unauthorized', 'Your session has ended. Look up your order again.'));
        }
        if (changes && !(await deps.shopperSessions.csrfMatches(token, req.header(SHOPPER_CSRF_HEADER)))) {
          return next(new AppError('forbidden', `Missing or wrong ${SHOPPER_CSRF_HEADER}: reload the page.`));
        }
        // The shopper, named by the order they found, acting on live data of the session's store.
        const scope: Scope<ShopperActor> = { store, actor: { kind: 'shopper', orderId: checked.session.orderId }, mode: 'live' };
        req.shopper = { session: checked.session, token, scope };
        next();
      })
      .catch(next);
  };
}

const unknownStoreAsNull = (error: unknown) => {
  if (error instanceof AppError && error.code === 'not_found') return null;
  throw error;
};

/** The session of an authenticated shopper route; the middleware guarantees it. */
export function shopperOf(req: Request): NonNullable<Request['shopper']> {
  if (!req.shopper) throw new AppError('unauthorized', 'Look up your order first, with its number and email.');
  return req.shopper;
}
