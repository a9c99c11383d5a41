import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { claimsContract, type ClaimResponse } from '../../contract/index.js';
import { createClaim, getClaim, listClaims, type ClaimRecord } from '../domain/claims.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from '../http/authenticate.js';

const s = initServer();

export function toClaimResponse(claim: ClaimRecord): z.input<typeof ClaimResponse> {
  return {
    id: claim.id,
    merchant_id: claim.storeId,
    source_order_id: claim.sourceOrderId,
    tracking_number: claim.trackingNumber,
    reason: claim.reason,
    description: claim.description,
    items: claim.items,
    status: claim.status,
    created_on: claim.createdOn.toISOString(),
    updated_on: claim.updatedOn.toISOString(),
    resolved_on: claim.resolvedOn?.toISOString() ?? null,
  };
}

export const claimsRouter = ({ db, clock }: AppDeps) =>
  s.router(claimsContract, {
    create: async ({ body, req }) => {
      const claim = await createClaim(db, callerOf(req), body, clock.now());
      return { status: 201, body: toClaimResponse(claim) };
    },
    get: async ({ params, req }) => {
      const claim = await getClaim(db, callerOf(req), params.id);
      return { status: 200, body: toClaimResponse(claim) };
    },
    list: async ({ query, req }) => {
      const claims = await listClaims(db, callerOf(req), query.source_order_id);
      return { status: 200, body: { data: claims.map(toClaimResponse) } };
    },
  });
