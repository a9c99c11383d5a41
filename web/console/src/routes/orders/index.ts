// /orders: search the store's orders; /orders/$sourceOrderId: one order and its history.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { OrderPage } from './order-page/OrderPage';
import { OrdersPage } from './OrdersPage';
import { validateOrdersSearch } from './search-params';

export const ordersRoutes = {
  orders: createRoute({ getParentRoute: () => loggedInRoute, path: '/orders', validateSearch: validateOrdersSearch, component: OrdersPage }),
  order: createRoute({ getParentRoute: () => loggedInRoute, path: '/orders/$sourceOrderId', component: OrderPage }),
};
