// Store and platform slugs: the names operators type, platform messages carry (`merchant`) and the
// claim page's address holds. The one pattern, for the contract and the domain.
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const SLUG_RULE = 'must be lowercase letters, digits and inner hyphens, at most 64 characters (e.g. "acme-shop")';
