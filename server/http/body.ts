// Reads JSON bodies after authentication: 1 MiB limit (413), JSON content type required when a
// body is sent (400), and the raw bytes kept for signature and raw-text money checks.
import express, { type RequestHandler } from 'express';
import { AppError } from '../domain/errors.js';
import './request-types.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

const jsonParser = express.json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: () => true,
  verify: (req, _res, buf) => {
    (req as express.Request).rawBody = buf;
  },
});

function hasBody(req: express.Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

export const parseJsonBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req)) {
    req.body = {};
    return next();
  }
  if (!req.is(['application/json', 'application/*+json'])) {
    return next(new AppError('invalid_request', 'The body must be JSON, sent with Content-Type: application/json.'));
  }
  jsonParser(req, res, next);
};
