import { initServer } from '@ts-rest/express';
import { claimsContract } from '../../contract/index.js';
import { getClaim, listClaims, readClaimPhoto, toClaimResponse } from '../domain/claims/index.js';


import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox/index.js';

const s = initServer();

export const claimsRouter = ({ db, clock, photos }: AppDeps) =>
  s.router(claimsContract, {
    create: async ({ body, req }) => {
      const scope = scopeOf(req);
      const claim = await commandsFor(scope.mode).fileClaim(db, scope, body, clock.now());
      return { status: 201, body: toClaimResponse(claim) };
    },
    get: async ({ params, req }) => {
      const claim = await getClaim(db, scopeOf(req), params.id);
      return { status: 200, body: toClaimResponse(claim) };
    },
    photo: async ({ params, req, res }) => {
      // The claim first: its 404 names the claim, and the photo must be one of its own.
      const claim = await getClaim(db, scopeOf(req), params.id);
      const jpeg = await readClaimPhoto(db, photos, params.photo_id, { storeId: claim.storeId, claimId: claim.id });
      res.setHeader('Cache-Control', 'private, no-store');
      return { status: 200, body: jpeg };
    },
    list: async ({ query, req }) => {
      const claims = await listClaims(db, scopeOf(req), query.source_order_id);
      return { status: 200, body: { data: claims.map(toClaimResponse) } };
    },
  });
