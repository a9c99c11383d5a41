// The console's claims: a queue by status, the claim with its evidence and history, a decision
// along the allowed transitions with its resolution or payout (the same domain operation and body
// as POST /v1/claims/{id}/status), and the store's claim rules with their dry run.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ClaimRulesDryRunRequest, ClaimRulesDryRunResponse, ClaimRulesRequest, ClaimRulesResponse } from '../claim-rules.js';
import { CLAIM_ACTOR_KINDS, CLAIM_STATUSES, ClaimResponse, ClaimStatusRequest } from '../claims.js';
import { DateTime, string, oneOf } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';
import { CONSOLE_PAGE_LIMIT, ConsoleOrderContact } from './orders.js';

const c = initContract();

const Status = oneOf(CLAIM_STATUSES);

export const ConsoleClaimDetail = z.object({
  claim: ClaimResponse,
  history: z.array(
    z.object({
      from_status: z.enum(CLAIM_STATUSES).nullable(),
      to_status: z.enum(CLAIM_STATUSES),
      note: z.string().nullable(),
      created_at: DateTime,
      by: z
        .object({
          kind: z.enum(CLAIM_ACTOR_KINDS),
          label: z.string().describe("A console user's email, a key's mode and last four, a platform's slug, the operator's name, or the shopper."),
        })
        .nullable()
        .describe('Who made the change; null for changes recorded before the service kept it.'),
    }),
  ),
  next_statuses: z.array(z.enum(CLAIM_STATUSES)).describe('Where it may move from here.'),
  contact: ConsoleOrderContact.nullable().describe("The shopper's contact from the order, for the roles that decide claims; null once erased, and for viewers."),
});

export const consoleClaimsContract = c.router({
  list: {
    method: 'GET',
    path: '/console/api/claims',
    query: z.object({ status: Status.optional(), cursor: string(200).optional(), reference: string(20).optional().describe('Only the claim with this reference, typed in any case.') }),
    responses: {
      200: z.object({ data: z.array(ClaimResponse), next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.') }),
      ...pickErrors(400, 401, 500),
    },
    metadata: sessionRoute('viewer'),
    summary: `The store's claims, oldest first (the queue), by status, ${CONSOLE_PAGE_LIMIT} a page`,
  },
  get: {
    method: 'GET',
    path: '/console/api/claims/:id',
    pathParams: z.object({ id: z.string().uuid('must be a claim id') }),
    responses: { 200: ConsoleClaimDetail, ...pickErrors(400, 401, 404, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'A claim, its history, and where it may go',
  },
  photo: {
    method: 'GET',
    path: '/console/api/claims/:id/photos/:photo_id',
    pathParams: z.object({ id: z.string().uuid('must be a claim id'), photo_id: z.string().uuid('must be a photo id') }),
    responses: { 200: c.otherResponse({ contentType: 'image/jpeg', body: z.unknown() }), ...pickErrors(400, 401, 404, 500) },
    metadata: sessionRoute('viewer'),
    summary: "A claim's photo (JPEG)",
  },
  setStatus: {
    method: 'POST',
    path: '/console/api/claims/:id/status',
    pathParams: z.object({ id: z.string().uuid('must be a claim id') }),
    body: ClaimStatusRequest,
    responses: { 200: ConsoleClaimDetail, ...pickErrors(400, 401, 403, 404, 409, 422, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Decide a claim: an allowed transition, a note, and the resolution or payout it needs',
  },
});

export const consoleClaimRulesContract = c.router({
  get: {
    method: 'GET',
    path: '/console/api/claim-rules',
    responses: { 200: ClaimRulesResponse, ...pickErrors(400, 401, 500) },
    metadata: sessionRoute('viewer'),
    summary: "The store's claim rules",
  },
  put: {
    method: 'PUT',
    path: '/console/api/claim-rules',
    body: ClaimRulesRequest,
    responses: { 200: ClaimRulesResponse, ...pickErrors(400, 401, 403, 409, 413, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Replace the rules (a new version)',
  },
  dryRun: {
    method: 'POST',
    path: '/console/api/claim-rules/dry-run',
    body: ClaimRulesDryRunRequest,
    responses: { 200: ClaimRulesDryRunResponse, ...pickErrors(400, 401, 403, 413, 500) },
    metadata: sessionRoute('admin'),
    summary: 'What a rule list would have done to the store\'s past claims',
  },
});
