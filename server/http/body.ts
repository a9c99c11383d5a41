// Reads JSON bodies after authentication: 1 MiB limit (413), JSON content type required when a
// body is sent (400), and the raw bytes kept for signature and raw-text money checks.
import express, { type RequestHandler } from 'express';
import { fieldPath } from '../../contract/errors.js';
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

/** Paths of strings holding U+0000, which PostgreSQL text cannot store: refused as 400, not a 500. */
function nulCharacterPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return value.includes('\u0000') ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => nulCharacterPaths(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      ...(key.includes('\u0000') ? [[...path, key]] : []),
      ...nulCharacterPaths(item, [...path, key]),
    ]);
  }
  return [];
}

function refuseNulCharacters(req: express.Request): AppError | null {
  const inParams = Object.keys(req.params ?? {}).filter((name) => String(req.params[name]).includes('\u0000'));
  const inBody = nulCharacterPaths(req.body);
  if (inParams.length === 0 && inBody.length === 0) return null;
  return new AppError(
    'invalid_request',
    'Text must not contain the NUL character (U+0000).',
    [...inParams.map((name) => [name]), ...inBody].map((path) => ({ field: fieldPath(path), message: 'must not contain the NUL character (U+0000)' })),
  );
}

/** The charset a JSON body declares; the raw-text checks read UTF-8, so nothing else is taken. */
function declaredCharset(req: express.Request): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(req.get('content-type') ?? '');
  return match?.[1]?.toLowerCase() ?? null;
}

export const parseJsonBody: RequestHandler = (req, res, next) => {
  if (!hasBody(req)) {
    req.body = {};
    const refused = refuseNulCharacters(req);
    return next(refused ?? undefined);
  }
  if (!req.is(['application/json', 'application/*+json'])) {
    return next(new AppError('invalid_request', 'The body must be JSON, sent with Content-Type: application/json.'));
  }
  const charset = declaredCharset(req);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    return next(new AppError('invalid_request', 'The body must be UTF-8 JSON.'));
  }
  jsonParser(req, res, (error?: unknown) => {
    if (error) return next(error);
    next(refuseNulCharacters(req) ?? undefined);
  });
};
