// /shipments: the store's shipments, by status, carrier and days without a scan; /shipments/$trackingNumber:
// a shipment, its tracking timeline, and setting its carrier.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { ShipmentPage } from './ShipmentPage';
import { ShipmentsPage } from './ShipmentsPage';
import { validateShipmentsSearch } from './search-params';

export const shipmentsRoutes = {
  shipments: createRoute({ getParentRoute: () => loggedInRoute, path: '/shipments', validateSearch: validateShipmentsSearch, component: ShipmentsPage }),
  shipment: createRoute({ getParentRoute: () => loggedInRoute, path: '/shipments/$trackingNumber', component: ShipmentPage }),
};
