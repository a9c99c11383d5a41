// First middleware on every request: request id and the mode headers (README, Concepts, "Keys and modes"), so that every
// response, errors and unknown routes included, carries them.
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { modeOfPresentedKey } from '../domain/access/index.js';
import type { Metrics } from './metrics.js';
import './request-types.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The key a request presents: the `token` header, else `Authorization: Bearer <key>`. */
export function presentedKey(req: Request): string | undefined {
  const token = req.get('token');
  if (token !== undefined && token !== '') return token.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return bearer?.[1];
}

export function setModeHeaders(res: { setHeader(name: string, value: string): unknown }, mode: 'live' | 'test'): void {
  res.setHeader('X-Service-Mode', mode);
  res.setHeader('X-Legacy-Mode', mode);
}

export function requestContext(logger: Logger, metrics?: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const incoming = req.get('x-request-id');
    req.requestId = incoming !== undefined && REQUEST_ID_PATTERN.test(incoming) ? incoming : `req_${randomUUID()}`;
    res.setHeader('X-Request-Id', req.requestId);
    setModeHeaders(res, modeOfPresentedKey(presentedKey(req)));
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // Route pattern rather than URL, and never headers or bodies: no key or personal data in logs.
      const route = req.tsRestRoute?.path ?? (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      logger.info(
        {
          request_id: req.requestId,
          method: req.method,
          route,
          status: res.statusCode,
          duration_ms: durationMs,
          mode: res.getHeader('X-Service-Mode'),
        },
        'request',
      );
      metrics?.requestCompleted(route, req.method, res.statusCode, durationMs / 1000);
    });
    next();
  };
}
