// The console's routes, in code: /login and /setup for anyone, and the pages of a logged-in user
// inside the layout (routes/root.ts), one folder per area under routes/.
import type { QueryClient } from '@tanstack/react-query';
import { createRoute, createRouter, redirect } from '@tanstack/react-router';
import { sessionQuery } from './api';
import { HOME_PATH } from './navigation';
import { LoginPage } from './pages/LoginPage';
import { SetupPage } from './pages/SetupPage';
import { apiKeysRoutes } from './routes/api-keys';
import { billingRoutes } from './routes/billing';
import { claimRulesRoutes } from './routes/claim-rules';
import { claimsRoutes } from './routes/claims';
import { developersRoutes } from './routes/developers';
import { ordersRoutes } from './routes/orders';
import { overviewRoutes } from './routes/overview';
import { loggedInRoute, rootRoute } from './routes/root';
import { settingsRoutes } from './routes/settings';
import { shipmentsRoutes } from './routes/shipments';

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

const indexRoute = createRoute({
  getParentRoute: () => loggedInRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: HOME_PATH, replace: true });
  },
});

const routeTree = rootRoute.addChildren({
  loginRoute,
  setupRoute,
  loggedInRoute: loggedInRoute.addChildren({
    indexRoute,
    ...overviewRoutes,
    ...ordersRoutes,
    ...shipmentsRoutes,
    ...claimsRoutes,
    ...claimRulesRoutes,
    ...billingRoutes,
    ...developersRoutes,
    ...apiKeysRoutes,
    ...settingsRoutes,
  }),
});

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
