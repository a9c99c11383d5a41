// The claim page's routes, under /claims (Vite's base and the router's basepath): a store's lookup
// page, then, within a shopper's session, their order, the form for one parcel, and a claim's status.
// Anything else is "Page not found"; a store slug the server does not know is "No such store".
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { ClaimFormPage } from './pages/ClaimFormPage';
import { ClaimStatusPage } from './pages/ClaimStatusPage';
import { ErrorPage } from './pages/ErrorPage';
import { LookupPage } from './pages/LookupPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OrderPage } from './pages/OrderPage';
import { StoreLayout } from './pages/StoreLayout';

export interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

/** Every page of one store: its name, logo and colour around the page. */
const storeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/$storeSlug', component: StoreLayout });

const lookupRoute = createRoute({ getParentRoute: () => storeRoute, path: '/', component: LookupPage });
const orderRoute = createRoute({ getParentRoute: () => storeRoute, path: '/order', component: OrderPage });

export interface ClaimFormSearch {
  /** The parcel the claim is about. */
  tracking: string;
}

const claimFormRoute = createRoute({
  getParentRoute: () => storeRoute,
  path: '/order/claim',
  validateSearch: (search: Record<string, unknown>): ClaimFormSearch => ({
    // A number written as digits only arrives as a number: it is still the tracking number.
    tracking: typeof search.tracking === 'string' ? search.tracking : typeof search.tracking === 'number' ? String(search.tracking) : '',
  }),
  component: ClaimFormPage,
});

const claimRoute = createRoute({ getParentRoute: () => storeRoute, path: '/claims/$claimId', component: ClaimStatusPage });

const routeTree = rootRoute.addChildren([storeRoute.addChildren([lookupRoute, orderRoute, claimFormRoute, claimRoute])]);

export function createClaimsRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/claims',
    context: { queryClient },
    // The pages read their data with React Query; the router has nothing to preload.
    defaultPreload: false,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createClaimsRouter>;
  }
}
