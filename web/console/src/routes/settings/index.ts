// /settings: the store's declarations, pricing terms, and (owners) users.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { SettingsPage } from './SettingsPage';

export const settingsRoutes = {
  settings: createRoute({ getParentRoute: () => loggedInRoute, path: '/settings', component: SettingsPage }),
};
