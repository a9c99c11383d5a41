// /claims/rules: the store's claim rules, which decide some claims on their own; under the claims'
// address (the queue links to it), though an area of its own. The router ranks this static path
// above /claims/$claimId.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { ClaimRulesPage } from './ClaimRulesPage';

export const claimRulesRoutes = {
  claimRules: createRoute({ getParentRoute: () => loggedInRoute, path: '/claims/rules', component: ClaimRulesPage }),
};
