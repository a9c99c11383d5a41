// Resolves the API key to its store once, for every route whose policy says api_key (README,
// Concepts): before the body is read or validated, so a bad key is 401 whatever the body. The
// request then carries the store scope every handler passes to the domain.
import type { RequestHandler } from 'express';
import type { CallerCache, KeyUseRecorder } from '../domain/access/index.js';
import { authenticateApiKey } from '../domain/access/index.js';

import type { Clock } from '../domain/kernel/index.js';
import { AppError } from '../domain/kernel/index.js';
import type { Database } from '../db/client.js';
import { presentedKey } from './request-context.js';
import { routePolicy } from './route-policy.js';
import './request-types.js';

export function authenticateKey(db: Database, callers: CallerCache, keyUse?: { recorder: KeyUseRecorder; clock: Clock }): RequestHandler {
  return (req, _res, next) => {
    if (routePolicy(req)?.auth !== 'api_key') return next();
    authenticateApiKey(db, presentedKey(req), callers)
      .then((caller) => {
        if (caller.scope !== 'store') {
          throw new AppError('forbidden', 'This key is not scoped to a store; use a store key for this endpoint.');
        }
        req.scope = { store: caller.store, mode: caller.mode, actor: { kind: 'api_key', keyId: caller.keyId } };
        keyUse?.recorder.used(caller.keyId, keyUse.clock.now());
        next();
      })
      .catch(next);
  };
}
