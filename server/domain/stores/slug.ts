// Store and platform slugs: the contract's one pattern (contract/slug.ts).
export { SLUG_PATTERN, SLUG_RULE } from '../../../contract/slug.js';
