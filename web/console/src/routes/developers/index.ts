// /developers: webhook endpoints, platform connections and the request log; and
// /developers/endpoints/$endpointId: one endpoint's delivery attempts.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { DevelopersPage } from './DevelopersPage';
import { EndpointDeliveriesPage } from './EndpointDeliveriesPage';

export const developersRoutes = {
  developers: createRoute({ getParentRoute: () => loggedInRoute, path: '/developers', component: DevelopersPage }),
  endpointDeliveries: createRoute({ getParentRoute: () => loggedInRoute, path: '/developers/endpoints/$endpointId', component: EndpointDeliveriesPage }),
};
