// /developers: webhook endpoints (added and managed here), platform connections and the request log,
// a page at a time; and /developers/endpoints/$endpointId: one endpoint, managed, with a test event
// and its deliveries a page at a time. Owners and admins only.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { DevelopersPage } from './DevelopersPage';
import { EndpointPage } from './EndpointPage';
import { validateDevelopersSearch, validateEndpointSearch } from './search-params';

export const developersRoutes = {
  developers: createRoute({ getParentRoute: () => loggedInRoute, path: '/developers', validateSearch: validateDevelopersSearch, component: DevelopersPage }),
  endpoint: createRoute({
    getParentRoute: () => loggedInRoute,
    path: '/developers/endpoints/$endpointId',
    validateSearch: validateEndpointSearch,
    component: EndpointPage,
  }),
};
