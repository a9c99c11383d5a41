// The response headers of the OpenAPI document (contract/openapi.ts), defined once as components,
// which of them each response carries, and the Idempotency-Key request header: what the document
// says of the headers around every operation, apart from the operations themselves.
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENT_REPLAYED_HEADER,
  type RouteAuth,
} from './policy.js';

/** Response headers of the contract, defined once and referenced by every response that carries them. */
export const HEADERS = {
  'X-Service-Mode': {
    description: 'live, or test when the request presented a test key (or a platform message declared test mode).',
    schema: { type: 'string', enum: ['live', 'test'] },
  },
  'X-Legacy-Mode': { description: 'The same value as X-Service-Mode, for integrations built before the rename.', schema: { type: 'string', enum: ['live', 'test'] } },
  'X-Request-Id': { description: 'The request id: the X-Request-Id sent, when well-formed, else one generated. Support asks for it.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed in the window of the tightest limit that applies.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until that window resets.', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': {
    description:
      'Seconds to wait before retrying: on 429, on 500 while the database is away for a moment, and on 409 while an earlier ' +
      'request with the same Idempotency-Key still runs.',
    schema: { type: 'integer', minimum: 1 },
  },
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: 'true when this answer is the stored answer of an earlier request with the same Idempotency-Key (nothing ran again).',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

/** The request header of every POST and PATCH of the merchant API (contract/policy.ts, acceptsIdempotencyKey). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first request with a key runs and its successful answer is kept for 24 hours; the same key with ' +
    'the same request (method, path and body bytes) gets that answer again, marked Idempotent-Replayed: true. The same key ' +
    'with another request is 422; while the first still runs, 409 with Retry-After. Failed requests (4xx, 5xx) are not kept. ' +
    'Test keys accept it and keep nothing. Live keys only; 1 to 255 visible ASCII characters, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN.source },
  example: '5f0c6a2e-8d4b-4b8e-9a51-3c2d7e6f1a90',
} as const;

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The headers a response of an operation carries, by its authentication and its status. */
export function responseHeaders(auth: RouteAuth | undefined, status: string, idempotent: boolean): Record<string, { $ref: string }> {
  const headers: Record<string, { $ref: string }> = {
    'X-Service-Mode': headerRef('X-Service-Mode'),
    'X-Legacy-Mode': headerRef('X-Legacy-Mode'),
    'X-Request-Id': headerRef('X-Request-Id'),
  };
  // Limits are counted once the key is known: every answer after that carries them.
  if (auth === 'api_key' && status !== '401' && status !== '403') {
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const) headers[name] = headerRef(name);
  }
  if (status === '429' || status === '500' || (idempotent && status === '409')) headers['Retry-After'] = headerRef('Retry-After');
  if (idempotent && status.startsWith('2')) headers[IDEMPOTENT_REPLAYED_HEADER] = headerRef(IDEMPOTENT_REPLAYED_HEADER);
  return headers;
}
