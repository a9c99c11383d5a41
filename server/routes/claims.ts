import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { claimsContract, type ClaimResponse } from '../../contract/index.js';
import { getClaim, listClaims, type ClaimRecord } from '../domain/claims.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox.js';

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
      const scope = scopeOf(req);
      const claim = await commandsFor(scope.mode).createClaim(db, scope, body, clock.now());
      return { status: 201, body: toClaimResponse(claim) };
    },
    get: async ({ params, req }) => {
      const claim = await getClaim(db, scopeOf(req), params.id);
      return { status: 200, body: toClaimResponse(claim) };
    },
    list: async ({ query, req }) => {
      const claims = await listClaims(db, scopeOf(req), query.source_order_id);
      return { status: 200, body: { data: claims.map(toClaimResponse) } };
    },
  });
