// Where the console goes: the page after login, and the navigation. Add a page here when it exists.

/** The page a user lands on after logging in, and the console's root. The overview, once it exists. */
export const HOME_PATH = '/keys';

/** The navigation, in order. Overview, Orders, Claims, Billing, Developers and Settings come later. */
export const NAV_ITEMS = [{ label: 'API keys', to: '/keys' }] as const;

export const PRODUCT_NAME = 'Merchant console';
