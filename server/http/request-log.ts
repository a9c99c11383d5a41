// Records each answered request of a store's key in the store's request log (domain/access/request-log.ts).
import type { RequestHandler } from 'express';
import type { Clock } from '../domain/kernel/index.js';
import type { RequestLog } from '../domain/access/index.js';
import './request-types.js';

export function logKeyRequests(requestLog: RequestLog, clock: Clock): RequestHandler {
  return (req, res, next) => {
    const started = clock.now();
    res.on('finish', () => {
      const scope = req.scope;
      if (scope === undefined) return;
      requestLog.record({
        storeId: scope.store.id,
        at: started,
        mode: scope.mode,
        method: req.method,
        // The path without its query: ids of orders and shipments, never a body or a header.
        path: req.path,
        status: res.statusCode,
        requestId: req.requestId,
        durationMs: clock.now().getTime() - started.getTime(),
      });
    });
    next();
  };
}
