// Idempotency-Key on the merchant API (README, Idempotency; the rules are server/domain/access/idempotency.ts).
// Runs after the key and the body's bytes are known, before validation: a request that fails
// validation gives its key back like any other 4xx.
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { acceptsIdempotencyKey, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../contract/policy.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../domain/kernel/index.js';
import { AppError } from '../domain/kernel/index.js';
import {
  claimIdempotencyKey,
  idempotencyKeyProblem,
  idempotencyRequestHash,
  IN_PROGRESS_RETRY_AFTER_SECONDS,
  settleIdempotentRun,
  type IdempotencyClaim,
} from '../domain/access/index.js';
import { setModeHeaders } from './request-context.js';
import './request-types.js';

export function idempotencyKeys(deps: { db: Database; clock: Clock; logger: Logger }): RequestHandler {
  return (req, res, next) => {
    const route = req.tsRestRoute;
    const key = req.get(IDEMPOTENCY_KEY_HEADER);
    if (route === undefined || !acceptsIdempotencyKey(route) || key === undefined) return next();
    const problem = idempotencyKeyProblem(key);
    if (problem !== null) return next(new AppError('invalid_request', `The ${IDEMPOTENCY_KEY_HEADER} header ${problem}.`, [{ field: IDEMPOTENCY_KEY_HEADER, message: problem }]));
    const scope = req.scope;
    // Test keys store nothing, keys included: the header is accepted and each request runs.
    if (scope === undefined || scope.mode === 'test') return next();

    const request = { storeId: scope.store.id, key, requestHash: idempotencyRequestHash(req.method, req.originalUrl, req.rawBody ?? new Uint8Array()) };
    claimIdempotencyKey(deps.db, request, deps.clock.now()).then((outcome) => {
      switch (outcome.kind) {
        case 'run':
          settleBeforeSending(res, outcome.claim, deps);
          return next();
        case 'replay':
          setModeHeaders(res, scope.mode);
          res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
          // The kept bytes, exactly: the same status and body as the first answer.
          res.status(outcome.status).type('application/json').send(outcome.bodyText);
          return undefined;
        case 'in_progress':
          res.setHeader('Retry-After', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
          return next(new AppError('conflict', `A request with ${IDEMPOTENCY_KEY_HEADER} "${key}" is still being processed; retry it in a moment.`));
        case 'different_request':
          return next(
            new AppError('unprocessable', `${IDEMPOTENCY_KEY_HEADER} "${key}" was used with a different request in the last 24 hours; use a new key for a new request.`, [
              { field: IDEMPOTENCY_KEY_HEADER, message: 'was used with a different request' },
            ]),
          );
      }
    }, next);
  };
}

/**
 * Settles the run (server/domain/access/idempotency.ts) before its answer is sent. Should that fail (the
 * database went away), the answer is still sent: the key then stays running until it is taken
 * over, and the retry meets the API's own duplicate rules (409).
 */
function settleBeforeSending(res: Response, claim: IdempotencyClaim, deps: { db: Database; logger: Logger }): void {
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    res.json = send;
    // The text sent is the text kept: serialised once, as res.json would (no replacer, no spaces).
    const text = body === undefined ? undefined : JSON.stringify(body);
    const sendText = () => (text === undefined ? send(body) : res.type('application/json').send(text));
    settleIdempotentRun(deps.db, claim, res.statusCode, text).then(sendText, (error: unknown) => {
      deps.logger.warn({ request_id: res.req.requestId, kind: 'idempotency_settle_failed', error_name: error instanceof Error ? error.name : typeof error }, 'idempotency key not settled');
      sendText();
    });
    return res;
  };
}
