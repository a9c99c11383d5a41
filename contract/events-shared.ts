// What the events and the webhook-endpoint resources (merchant-events.ts, webhook-endpoints.ts)
// share: a page of a list, the errors their routes answer, and the note that only live keys reach
// them. A module of its own, which contract/index.ts does not re-export: none of it is the API's.
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { string } from './common.js';
import { pickErrors } from './errors.js';

/** How many objects a page holds when the request does not say. */
export const DEFAULT_PAGE_LIMIT = 20;

/** The query of a page: how many, and after which object (an id of the store's: the last of the previous page). */
export const pageQuery = (cursorExample: string) =>
  z.object({
    limit: extendApi(z.string().regex(/^(100|[1-9][0-9]?)$/, 'must be a whole number from 1 to 100'), { example: '20' })
      .optional()
      .describe(`How many to answer, 1 to 100 (default ${DEFAULT_PAGE_LIMIT}).`),
    starting_after: extendApi(string(100, z.string(), { description: 'The id of the last object of the previous page: the page after it.' }), {
      example: cursorExample,
    }).optional(),
  });

export const readErrors = pickErrors(400, 401, 403, 404, 429, 500);
export const writeErrors = pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500);
export const liveOnly = 'Live keys only: test keys write nothing and cause no event, so they answer 404.';
