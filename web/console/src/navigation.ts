// Where the console goes: the page after login, and the navigation (an item only for the roles the
// server lets use its page).
import { consoleContract } from '../../../contract/console/index.js';
import type { ConsoleRole } from '../../../contract/policy.js';
import { mayCall } from './api';

/** The page a user lands on after logging in, and the console's root. */
export const HOME_PATH = '/overview';

/** The navigation, in order. Each area's line is uncommented when its pages exist. */
export const NAV_ITEMS = [
  { label: 'Overview', to: '/overview' },
  { label: 'Orders', to: '/orders' },
  { label: 'Shipments', to: '/shipments' },
  { label: 'Claims', to: '/claims' },
  { label: 'Claim rules', to: '/claims/rules' },
  { label: 'Billing', to: '/billing' },
  { label: 'Developers', to: '/developers' },
  { label: 'API keys', to: '/keys' },
  { label: 'Settings', to: '/settings' },
] as const;

/**
 * The items a role is offered: an area whose every route the server refuses the role is left out,
 * by the same policy as the API's (Developers: owners and admins).
 */
const NEEDS: Partial<Record<(typeof NAV_ITEMS)[number]['to'], ReadonlyArray<{ metadata?: unknown }>>> = {
  '/developers': Object.values(consoleContract.developers),
};

export const navItemsFor = (role: ConsoleRole) => NAV_ITEMS.filter((item) => (NEEDS[item.to] ?? []).every((route) => mayCall(route, role)));

export const PRODUCT_NAME = 'Merchant console';
