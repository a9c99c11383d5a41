// Request bodies and URLs, in two steps around the signature check, so that a caller who is not
// authenticated never makes us walk its body:
//   readRawBody    the bytes only: 1 MiB limit (413), JSON content type required when a body is
//                  sent, UTF-8 only (400). Signatures are checked on these bytes. A route whose
//                  policy reads an image takes any type up to 10 MiB: the route judges the bytes.
//                  WooCommerce's unsigned ping is read up to FORM_PING_MAX_BYTES and no further.
// Every surface decides who is calling (key, signature header, session and CSRF token) before
// readRawBody runs (server/app.ts), so an unauthenticated body is never buffered.
//   parseJsonBody  well-formed UTF-8, valid JSON, nesting within MAX_JSON_DEPTH, no duplicate key,
//                  no text PostgreSQL cannot store (U+0000, lone surrogates) in the body, the path
//                  or the query, and, where the route's policy says so (contract/policy.ts), cents
//                  written as integers. Every problem is a 400 naming its field, never a 500.
import type { Request, RequestHandler } from 'express';
import getRawBody from 'raw-body';
import { fieldPath, type FieldError } from '../../contract/errors.js';
import { AppError } from '../domain/kernel/index.js';
import type { BodyRule } from '../../contract/policy.js';
import { PHOTO_MAX_BYTES } from '../../contract/shopper/index.js';
import { inspectJsonText, MAX_JSON_DEPTH, unstorableText, type JsonPath } from './json-text.js';
import { routePolicy } from './route-policy.js';
import './request-types.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * The most an unsigned WooCommerce ping may hold. It is `webhook_id=<n>`, a few dozen bytes; a
 * longer form body is refused after reading this much at most.
 */
export const FORM_PING_MAX_BYTES = 256;

/**
 * The body's bytes, at most `limit`: a declared length over it is refused before anything is read,
 * and a chunked body as soon as it passes it. (body-parser would read off the rest of the request
 * before answering; here the answer goes at once and the connection is closed after it, see
 * http/errors.ts.)
 */
function readBytes(req: Request, limit: number, next: (error?: unknown) => void, tooLarge: () => AppError): void {
  getRawBody(req, { limit, length: req.get('content-length') }).then(
    (bytes) => {
      req.rawBody = bytes;
      next();
    },
    (error: unknown) => next((error as { status?: number }).status === 413 ? tooLarge() : error),
  );
}

const isImageRoute = (req: Request) => routePolicy(req)?.body === 'image';

/** An image upload: its bytes whatever the declared type (file-type judges them), at most 10 MiB. */
const readImageBody = (req: Request, next: (error?: unknown) => void) =>
  readBytes(req, PHOTO_MAX_BYTES, next, () => new AppError('payload_too_large', `The image is over the ${PHOTO_MAX_BYTES / 1024 / 1024} MiB limit.`));

function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/** The charset a JSON body declares; only UTF-8 is read. */
function declaredCharset(req: Request): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(req.get('content-type') ?? '');
  return match?.[1]?.toLowerCase() ?? null;
}

/** WooCommerce's ping: a form body (webhook_id=N), on the one route whose policy takes it. */
export function isFormPing(req: Request): boolean {
  return routePolicy(req)?.body === 'json_or_form_ping' && req.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
}

/** The ping's fields; anything but one webhook_id is refused as the contract sees it (no such shape). */
function formFields(raw: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw.toString('latin1'))) fields[name] = value;
  return fields;
}

export const readRawBody: RequestHandler = (req, _res, next) => {
  if (!hasBody(req)) {
    req.rawBody = Buffer.alloc(0);
    return next();
  }
  const encoding = req.get('content-encoding')?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    return next(new AppError('invalid_request', 'Request bodies are read as sent: compressed bodies (Content-Encoding) are not accepted.', [
      { field: 'Content-Encoding', message: 'must be absent or identity' },
    ]));
  }
  if (isImageRoute(req)) return readImageBody(req, next);
  if (!req.is(['application/json', 'application/*+json']) && !isFormPing(req)) {
    return next(new AppError('invalid_request', 'The body must be JSON, sent with Content-Type: application/json.'));
  }
  const charset = declaredCharset(req);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    return next(new AppError('invalid_request', 'The body must be UTF-8 JSON.'));
  }
  if (isFormPing(req)) {
    return readBytes(req, FORM_PING_MAX_BYTES, next, () => new AppError('unauthorized', `Only WooCommerce's ping (webhook_id=<n>, at most ${FORM_PING_MAX_BYTES} bytes) may come unsigned.`));
  }
  readBytes(req, BODY_LIMIT_BYTES, next, () => new AppError('payload_too_large', 'The body is over the 1 MiB limit.'));
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

const problems = {
  duplicateKeys: 'appears more than once in its object; send each field once',
  nulCharacters: 'must not contain the NUL character (U+0000)',
  illFormedUnicode: 'must be well-formed Unicode (a lone surrogate such as \\ud800 cannot be stored)',
  centsWithDecimals: 'must be an integer number of cents written without a decimal point (120.00 is refused)',
} as const;

function bodyValue(raw: Buffer, rule: BodyRule): unknown {
  if (raw.length === 0) return {};
  let text: string;
  try {
    // Strict: invalid UTF-8 is refused rather than replaced, so two different ids can never be
    // read as the same U+FFFD text. A leading byte order mark is dropped.
    text = utf8.decode(raw);
  } catch {
    throw new AppError('invalid_request', 'The body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    // V8's JSON.parse is iterative: deep nesting costs memory bounded by the 1 MiB limit, not stack.
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object') {
    throw new AppError('invalid_request', 'The body must be a JSON object.');
  }
  const findings = inspectJsonText(text);
  if (findings.tooDeep) {
    throw new AppError('invalid_request', `The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  const kinds = (Object.keys(problems) as Array<keyof typeof problems>).filter((kind) => kind !== 'centsWithDecimals' || rule === 'json_integer_cents');
  const fieldErrors: FieldError[] = kinds.flatMap((kind) =>
    findings[kind].map((path: JsonPath) => ({ field: fieldPath(path), message: problems[kind] })),
  );
  if (fieldErrors.length > 0) {
    throw new AppError('invalid_request', `The body has ${fieldErrors.length} field${fieldErrors.length === 1 ? '' : 's'} that cannot be accepted.`, fieldErrors);
  }
  return value;
}

/** The message for text PostgreSQL cannot store, or null when it can. */
function unstorable(value: string): string | null {
  const problem = unstorableText(value);
  return problem === null ? null : problems[problem];
}

/**
 * The field a query parameter names: `type` for `type[]` or `type[x]`. The plain query parser would
 * keep `type[]` as a name of its own, which no route knows, and the filter would be dropped
 * silently; such forms are refused instead, naming the field.
 */
const fieldOfQueryName = (name: string): string => {
  const bracket = name.search(/[[\]]/);
  return bracket <= 0 ? name : name.slice(0, bracket);
};
const ARRAY_OR_OBJECT_FORM = 'must be given once as name=value; array and object forms such as name[]= or name[key]= are not accepted';

/** Problems in the path parameters and the query string (Express decodes both). */
function urlFieldErrors(req: Request): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(req.params ?? {})) {
    const problem = unstorable(String(value));
    if (problem) errors.push({ field: name, message: problem });
  }
  // The query parser replaces bytes that are not UTF-8 with U+FFFD silently: decode strictly here.
  const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const [rawName = '', ...rest] = pair.split('=');
    const decode = (part: string): string | null => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return null;
      }
    };
    const name = decode(rawName);
    const value = decode(rest.join('='));
    const field = name !== null && unstorable(name) === null ? fieldOfQueryName(name) : 'query';
    if (name === null || value === null) errors.push({ field, message: 'must be valid percent-encoded UTF-8' });
    else {
      const problem = unstorable(name) ?? unstorable(value) ?? (field !== name ? ARRAY_OR_OBJECT_FORM : null);
      if (problem) errors.push({ field, message: problem });
    }
  }
  return errors;
}

export const parseJsonBody: RequestHandler = (req, _res, next) => {
  try {
    const urlErrors = urlFieldErrors(req);
    if (urlErrors.length > 0) throw new AppError('invalid_request', 'The URL holds text that cannot be accepted.', urlErrors);
    const raw = req.rawBody ?? Buffer.alloc(0);
    if (isImageRoute(req)) {
      req.body = raw;
      return next();
    }
    req.body = isFormPing(req) ? formFields(raw) : bodyValue(raw, routePolicy(req)?.body ?? 'json');
    next();
  } catch (error) {
    next(error);
  }
};
