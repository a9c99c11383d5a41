// /billing: a month's statement, its weekly credits and its CSV. ?month=YYYY-MM, this month when
// absent or not a month.
import { createRoute } from '@tanstack/react-router';
import { validateMonthSearch } from '../../components/calendar';
import { loggedInRoute } from '../root';
import { BillingPage } from './BillingPage';

export const billingRoutes = {
  billing: createRoute({ getParentRoute: () => loggedInRoute, path: '/billing', validateSearch: validateMonthSearch, component: BillingPage }),
};
