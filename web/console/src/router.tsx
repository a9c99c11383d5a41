// The console's routes, in code: /login and /setup for anyone, and the pages of a logged-in user
// inside the layout, whose guard sends everyone else to /login.
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, Outlet, redirect } from '@tanstack/react-router';
import { sessionQuery } from './api';
import { HOME_PATH } from './navigation';
import { ApiKeysPage } from './pages/ApiKeysPage';
import { Layout } from './pages/Layout';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SetupPage } from './pages/SetupPage';
import { ErrorPage } from './pages/ErrorPage';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  // Already logged in: straight to the console.
  beforeLoad: async ({ context }) => {
    if (await context.queryClient.ensureQueryData(sessionQuery)) throw redirect({ to: HOME_PATH, replace: true });
  },
  component: LoginPage,
});

const setupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/setup',
  validateSearch: (search: Record<string, unknown>): { token: string } => ({ token: typeof search.token === 'string' ? search.token : '' }),
  component: SetupPage,
});

/** Every page of a logged-in user: no session, no page. */
const loggedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'logged-in',
  beforeLoad: async ({ context }) => {
    if (!(await context.queryClient.ensureQueryData(sessionQuery))) throw redirect({ to: '/login', replace: true });
  },
  component: Layout,
});

const indexRoute = createRoute({
  getParentRoute: () => loggedInRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: HOME_PATH, replace: true });
  },
});

const keysRoute = createRoute({
  getParentRoute: () => loggedInRoute,
  path: '/keys',
  component: ApiKeysPage,
});

const routeTree = rootRoute.addChildren([loginRoute, setupRoute, loggedInRoute.addChildren([indexRoute, keysRoute])]);

export function createConsoleRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/console',
    context: { queryClient },
    defaultPreload: 'intent',
    // The router's loaders are cheap guards; freshness is React Query's business.
    defaultPreloadStaleTime: 0,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createConsoleRouter>;
  }
}
