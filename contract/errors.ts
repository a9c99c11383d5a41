// The error response (README, Concepts, "Errors"), shared by every route and status.
import { extendApi } from '@anatine/zod-openapi';
import { z, type ZodIssue } from 'zod';

export const ErrorCode = z.enum([
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unprocessable',
  'rate_limited',
  'internal_error',
  'order_not_yet_ingested',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldError = z.object({
  field: z.string().describe('Path of the bad field from the body root, e.g. line_items[0].price.'),
  message: z.string().describe('What is wrong with it, in plain words.'),
});
export type FieldError = z.infer<typeof FieldError>;

export const ErrorResponse = extendApi(
  z.object({
    error: z.string().describe('Human-readable summary.'),
    error_code: ErrorCode.describe('Stable code; safe to branch on.'),
    errors: z.array(FieldError).describe('One element per bad field, all of them; empty when no field is at fault.'),
  }),
  {
    title: 'Error',
    example: {
      error: 'The request has 2 invalid fields.',
      error_code: 'invalid_request',
      errors: [
        { field: 'subtotal', message: 'is required' },
        { field: 'line_items[0].price', message: 'must have at most two decimal places (a third decimal is rejected, not rounded)' },
      ],
    },
  },
);
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** What each error status means; the OpenAPI builder uses these as response descriptions. */
export const errorDescriptions = {
  400: 'invalid_request: missing or malformed fields, a third decimal place, a non-USD currency, malformed JSON or a non-JSON body.',
  401: 'unauthorized: missing, malformed, revoked or unknown key.',
  403: 'forbidden: a valid key that cannot be used here (not scoped to a store).',
  404: "not_found: no such object in the key's store, or a read, update or cancel with a test key.",
  409: 'conflict: the object already exists, or its state forbids the change, or a request with the same Idempotency-Key still runs (retry after Retry-After).',
  413: 'payload_too_large: the body is over 1 MiB.',
  422: "unprocessable: a duplicate id within the request itself, an Idempotency-Key already used with a different request, or a claim's resolution or payout over what it may be.",
  429: 'rate_limited: retry with exponential backoff.',
  500: 'internal_error: service fault; safe to retry.',
} as const;
export type ErrorStatus = keyof typeof errorDescriptions;

/** Error responses by status, so a route lists exactly the ones it can answer. */
export function pickErrors<S extends ErrorStatus>(...statuses: S[]): Record<S, typeof ErrorResponse> {
  const picked = {} as Record<S, typeof ErrorResponse>;
  for (const status of statuses) picked[status] = ErrorResponse;
  return picked;
}

/** ['line_items', 0, 'price'] -> 'line_items[0].price'; the body root itself is 'body'. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? 'body' : out;
}

function issueMessage(issue: ZodIssue): string {
  if (issue.code === 'invalid_type') {
    if (issue.received === 'undefined') return 'is required';
    if (issue.message.startsWith('Expected ')) {
      return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}, not ${issue.received}`;
    }
  }
  return issue.message;
}

/**
 * Validation issues as wire field errors: one element per bad field, several broken
 * rules of one field joined, paths rooted at the body (optionally under a prefix).
 */
export function fieldErrorsFromIssues(issues: readonly ZodIssue[], prefix: ReadonlyArray<string | number> = []): FieldError[] {
  const byField = new Map<string, string[]>();
  // A field this object does not have is named itself, not the object around it.
  const named = issues.flatMap((issue): ZodIssue[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ ...issue, path: [...issue.path, key], message: issue.message.startsWith('Unrecognized key') ? 'is not a field of this object' : issue.message }))
      : [issue],
  );
  for (const issue of named) {
    const field = fieldPath([...prefix, ...issue.path]);
    const messages = byField.get(field) ?? [];
    const message = issueMessage(issue);
    if (!messages.includes(message)) messages.push(message);
    byField.set(field, messages);
  }
  return [...byField].map(([field, messages]) => ({ field, message: messages.join('; ') }));
}
