// Resolves the API key to its store once, for every key-authenticated route (SPEC.md §5). Runs
// before the body is read or validated: a bad key is 401 whatever the body.
import type { RequestHandler } from 'express';
import type { RouteAuth } from '../../contract/common.js';
import type { CallerCache } from '../domain/api-key-cache.js';
import { authenticateApiKey, type Caller } from '../domain/api-keys.js';
import { AppError } from '../domain/errors.js';
import type { Database } from '../db/client.js';
import { presentedKey } from './request-context.js';
import './request-types.js';

export function routeAuth(metadata: unknown): RouteAuth | undefined {
  return (metadata as { auth?: RouteAuth } | undefined)?.auth;
}

export function authenticateKey(db: Database, callers: CallerCache): RequestHandler {
  return (req, _res, next) => {
    if (routeAuth(req.tsRestRoute?.metadata) !== 'api_key') return next();
    authenticateApiKey(db, presentedKey(req), callers)
      .then((caller) => {
        if (caller.scope !== 'store') {
          throw new AppError('forbidden', 'This key is not scoped to a store; use a store key for this endpoint.');
        }
        req.caller = caller;
        next();
      })
      .catch(next);
  };
}

/** The authenticated caller of a key route; the middleware guarantees it is there. */
export function callerOf(req: { caller?: Caller }): Caller {
  if (!req.caller) throw new AppError('unauthorized', 'No API key.');
  return req.caller;
}
