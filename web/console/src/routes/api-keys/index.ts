// /keys: the store's API keys.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { ApiKeysPage } from './ApiKeysPage';

export const apiKeysRoutes = {
  keys: createRoute({ getParentRoute: () => loggedInRoute, path: '/keys', component: ApiKeysPage }),
};
