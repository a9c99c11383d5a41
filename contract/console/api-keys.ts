// The console's API keys page: list, create (the plaintext is answered once), revoke.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';

const c = initContract();

export const ConsoleApiKey = z.object({
  id: z.string(),
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
    body: z.object({ mode: z.enum(['live', 'test'], { errorMap: () => ({ message: 'must be live or test' }) }) }),
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
