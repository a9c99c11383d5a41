// /shipments/$trackingNumber: a shipment, its tracking timeline, and setting its carrier.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { ShipmentPage } from './ShipmentPage';

export const shipmentsRoutes = {
  shipment: createRoute({ getParentRoute: () => loggedInRoute, path: '/shipments/$trackingNumber', component: ShipmentPage }),
};
