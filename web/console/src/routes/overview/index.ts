// /overview: the store's month at a glance (the console's home page). ?month=YYYY-MM, this month
// when absent or not a month.
import { createRoute } from '@tanstack/react-router';
import { validateMonthSearch } from '../../components/calendar';
import { loggedInRoute } from '../root';
import { OverviewPage } from './OverviewPage';

export const overviewRoutes = {
  overview: createRoute({ getParentRoute: () => loggedInRoute, path: '/overview', validateSearch: validateMonthSearch, component: OverviewPage }),
};
