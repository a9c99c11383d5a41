import { initServer } from '@ts-rest/express';
import { claimsContract } from '../../contract/index.js';
import { decideClaim, findClaimByReference, getClaim, listClaims, normalizedReference, readClaimPhoto, toClaimResponse } from '../domain/claims/index.js';
import { AppError } from '../domain/kernel/index.js';
import { commandsFor } from '../domain/sandbox/index.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { claimDecisionOf } from '../wire/claim-decision.js';

const s = initServer();

export const claimsRouter = ({ db, clock, photos }: AppDeps) =>
  s.router(claimsContract, {
    create: async ({ body, req }) => {
      const scope = scopeOf(req);
      const claim = await commandsFor(scope.mode).fileClaim(db, scope, body, clock.now());
      return { status: 201, body: toClaimResponse(claim) };
    },
    get: async ({ params, req }) => {
      const claim = await getClaim(db, scopeOf(req), params.id, clock.now());
      return { status: 200, body: toClaimResponse(claim) };
    },
    photo: async ({ params, req, res }) => {
      // The claim first: its 404 names the claim, and the photo must be one of its own.
      const claim = await getClaim(db, scopeOf(req), params.id, clock.now());
      const jpeg = await readClaimPhoto(db, photos, params.photo_id, { storeId: claim.storeId, claimId: claim.id });
      res.setHeader('Cache-Control', 'private, no-store');
      return { status: 200, body: jpeg };
    },
    list: async ({ query, req }) => {
      const scope = scopeOf(req);
      if (query.reference === undefined && query.source_order_id === undefined) {
        const message = 'send source_order_id, reference, or both';
        throw new AppError('invalid_request', 'Name the order or the reference.', [{ field: 'source_order_id', message }, { field: 'reference', message }]);
      }
      // Both narrow: the order's claims (its 404 included) with that reference, read once.
      const claims =
        query.source_order_id === undefined
          ? await findClaimByReference(db, scope, query.reference ?? '', clock.now())
          : (await listClaims(db, scope, query.source_order_id, clock.now())).filter(
              (claim) => query.reference === undefined || claim.reference === normalizedReference(query.reference),
            );
      return { status: 200, body: { data: claims.map(toClaimResponse) } };
    },
    setStatus: async ({ params, body, req }) => {
      const claim = await decideClaim(db, scopeOf(req), params.id, claimDecisionOf(body), clock);
      return { status: 200, body: toClaimResponse(claim) };
    },
  });
