// Access: who acts and how they prove it. API keys (issued, revoked, authenticated, cached),
// console users and their sessions, shoppers' claim-page sessions, the Scope every operation takes
// (actor.ts), the audit log, idempotency keys and the request log.
export {
  actingFor,
  type Actor,
  actorColumns,
  type ConsoleUserActor,
  type Mode,
  type PlatformActor,
  type Scope,
  type ServiceScope,
  type ShopperActor,
  systemScope,
} from './actor.js';
export { withActorLabels } from './actor-labels.js';
export { type ApiKeyCache, type CallerCache, createCallerCache, createChangeCache, type PlatformCaches, startApiKeyCache } from './api-key-cache.js';
export { createKeyUseRecorder, type KeyUseRecorder } from './api-key-use.js';
export {
  authenticateApiKey,
  type Caller,
  derivedWooCommerceSecret,
  findApiKeyStore,
  issueApiKey,
  type IssuedKey,
  listApiKeys,
  modeOfPresentedKey,
  revokeApiKey,
} from './api-keys.js';
export { recordAudit } from './audit.js';
export {
  type ConsoleSessionRecord,
  csrfTokenMatches,
  csrfTokenOf,
  deleteExpiredSessions,
  destroySession,
  findSession,
  openSession,
} from './console-sessions.js';
export {
  ABANDONED_AFTER_SECONDS,
  claimIdempotencyKey,
  type IdempotencyClaim,
  idempotencyKeyProblem,
  idempotencyRequestHash,
  IN_PROGRESS_RETRY_AFTER_SECONDS,
  settleIdempotentRun,
  sweepExpiredIdempotencyKeys,
} from './idempotency.js';
export {
  changePassword,
  createMerchantUser,
  disableMerchantUser,
  enableMerchantUser,
  listMerchantUsers,
  type MerchantUser,
  type MerchantUserRole,
  normalizedEmail,
  roleAllows,
  checkSetupToken,
  setPasswordWithToken,
  SETUP_LINK_TTL_MS,
  verifyLogin,
} from './merchant-users.js';
export { createRequestLog, deleteExpiredRequestLog, listRequestLog, type RequestLog } from './request-log.js';
export { type IssuedShopperSession, type ShopperSession, shopperSessions, type ShopperSessions } from './shopper-sessions.js';
