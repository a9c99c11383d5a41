// Where the console goes: the page after login, and the navigation.

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

export const PRODUCT_NAME = 'Merchant console';
