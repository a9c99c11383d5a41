// /claims: the store's claims queue, by status or by reference; /claims/$claimId: one claim, with its
// evidence and decision. The order page links to a claim with `params: { claimId }`. The store's
// claim rules (/claims/rules) are an area of their own (routes/claim-rules).
import { createRoute } from '@tanstack/react-router';
import { cursorTrailOf } from '../../components/CursorPager';
import { loggedInRoute } from '../root';
import { ClaimPage } from './ClaimPage';
import { ClaimsQueuePage } from './ClaimsQueuePage';
import { claimStatusOf, referenceOf, type ClaimStatus } from './claims';

export const claimsRoutes = {
  claims: createRoute({
    getParentRoute: () => loggedInRoute,
    path: '/claims',
    // Anything but a known status (or no status) shows every claim. The key is always written:
    // the router lays a route's validated search over the raw one, so leaving it out would let
    // ?status=junk through.
    validateSearch: (search: Record<string, unknown>): { status?: ClaimStatus; cursors?: string[]; reference?: string } => ({
      status: claimStatusOf(search.status),
      cursors: cursorTrailOf(search.cursors),
      reference: referenceOf(search.reference),
    }),
    component: ClaimsQueuePage,
  }),
  claim: createRoute({ getParentRoute: () => loggedInRoute, path: '/claims/$claimId', component: ClaimPage }),
};
