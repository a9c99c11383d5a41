// /settings: the claim page, (owners) the users, the integration declarations and the pricing terms.
import { createRoute } from '@tanstack/react-router';
import { loggedInRoute } from '../root';
import { SettingsPage } from './SettingsPage';

export const settingsRoutes = {
  settings: createRoute({ getParentRoute: () => loggedInRoute, path: '/settings', component: SettingsPage }),
};
