// Store and platform slugs: the names operators type and platform messages carry (`merchant`).
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const SLUG_RULE = 'must be lowercase letters, digits and inner hyphens, at most 64 characters (e.g. "acme-shop")';
