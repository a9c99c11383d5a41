// Stores: a merchant's store, its pricing and integration declarations, and its slug.
export { SLUG_PATTERN, SLUG_RULE } from './slug.js';
export {
  CLIENT_PROFILES,
  type ClientProfile,
  createStore,
  findStoreById,
  findStoreBySlug,
  isUsableSku,
  MAX_RATE_BPS,
  MAX_RETENTION_DAYS,
  SKU_RULE,
  type StoreContext,
  type StoreRow,
  toStoreContext,
  updateStoreDeclarations,
} from './stores.js';
