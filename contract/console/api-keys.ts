// The console's API keys page: list, create (the plaintext is answered once), revoke.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';

const c = initContract();

export const API_KEY_NAME_MAX_LENGTH = 100;

/**
 * A key's name ("Production server"): trimmed, then 1 to 100 characters and no control characters.
 * The one rule for every door: the console's form, the console's API, the admin CLI and the domain.
 */
export const ApiKeyName = z
  .string({ invalid_type_error: 'must be a text' })
  .trim()
  .min(1, 'must not be blank')
  .max(API_KEY_NAME_MAX_LENGTH, `must be at most ${API_KEY_NAME_MAX_LENGTH} characters`)
  .refine((name) => !/\p{Cc}/u.test(name), 'must not contain control characters (such as a line break or a tab)')
  .describe('A name to tell the key apart, e.g. "Production server": 1 to 100 characters, trimmed.');

export const ConsoleApiKey = z.object({
  id: z.string(),
  name: z.string().nullable().describe('The name given at creation; null if none was given.'),
  mode: z.enum(['live', 'test']),
  last4: z.string().describe('The last four characters, to tell keys apart.'),
  created_at: DateTime,
  last_used_at: DateTime.nullable().describe('To the minute; null if never used.'),
  revoked_at: DateTime.nullable(),
});

export const ConsoleApiKeyCreated = ConsoleApiKey.extend({
  secret: z.string().describe('The key itself: shown this once, never stored.'),
});

export const consoleApiKeysContract = c.router({
  list: {
    method: 'GET',
    path: '/console/api/keys',
    responses: { 200: z.object({ data: z.array(ConsoleApiKey) }), ...pickErrors(401, 500) },
    metadata: sessionRoute('viewer'),
    summary: "The store's keys, newest first",
  },
  create: {
    method: 'POST',
    path: '/console/api/keys',
    body: z.object({
      mode: z.enum(['live', 'test'], { errorMap: () => ({ message: 'must be live or test' }) }),
      name: ApiKeyName.optional(),
    }),
    responses: { 201: ConsoleApiKeyCreated, ...pickErrors(400, 401, 403, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Create a key; its secret is answered once',
  },
  revoke: {
    method: 'POST',
    path: '/console/api/keys/:id/revoke',
    pathParams: z.object({ id: z.string().uuid('must be a key id') }),
    body: c.noBody(),
    responses: { 200: ConsoleApiKey, ...pickErrors(400, 401, 403, 404, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Revoke a key: every instance refuses it at once',
  },
});
