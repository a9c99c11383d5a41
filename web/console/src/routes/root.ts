// The two routes every page hangs from: the root (errors, not found), and the logged-in frame, whose
// guard sends anyone without a session to /login. Each area (routes/<area>/index.ts) adds its pages
// under loggedInRoute; router.tsx assembles them.
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, Outlet, redirect } from '@tanstack/react-router';
import { sessionQuery } from '../api';
import { ErrorPage } from '../pages/ErrorPage';
import { Layout } from '../pages/Layout';
import { NotFoundPage } from '../pages/NotFoundPage';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

/** Every page of a logged-in user: no session, no page. */
export const loggedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'logged-in',
  beforeLoad: async ({ context }) => {
    if (!(await context.queryClient.ensureQueryData(sessionQuery))) throw redirect({ to: '/login', replace: true });
  },
  component: Layout,
});
