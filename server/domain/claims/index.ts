// Claims: what other contexts, the front doors and the jobs may use. A claim is filed
// (file-claim.ts, file-shopper-claim.ts), decided (decide-claim.ts) and read (get-claim.ts); its
// shopper finds the order (find-shopper-order.ts) within the store's windows (claim-windows.ts) on
// the store's claim page (claim-page-settings.ts, update-claim-page.ts), with photos
// (upload-claim-photo.ts, claim-photos.ts).
export { logoPath, toClaimPageResponse } from './claim-page-payload.js';
export { type ClaimPageChange, claimPageSettings, type ClaimPageSettings, storeLogo } from './claim-page-settings.js';
export { claimPhotoUrl, toClaimResponse } from './claim-payload.js';
export {
  type ClaimPhotoRecord,
  MAX_UNATTACHED_PHOTOS_PER_ORDER,
  photosOfClaims,
  readClaimPhoto,
  sweepUnattachedPhotos,
  UNATTACHED_PHOTO_HOURS,
} from './claim-photos.js';
export {
  assertUniqueItems,
  CLAIM_TRANSITIONS,
  type ClaimChannel,
  claimChannelOf,
  type ClaimInput,
  claimItems,
  type ClaimReason,
  type ClaimRecord,
  type ClaimStatus,
  hasOpenClaim,
  OPEN_CLAIM_STATUSES,
  openClaimExistsSql,
} from './claim-record.js';
export { type ClaimWindow, claimWindow, claimWindows, type ClaimWindowSettings, deliveredOn, lastScanOn } from './claim-windows.js';
export { applyClaimRulesIn, rerunClaimRules, ruleDecision } from './apply-claim-rules.js';
export { amountClaimedCents } from './claim-amount.js';
export { evidenceOfClaims, evidenceValues, type ClaimEvidence } from './claim-evidence.js';
export { newClaimReference, normalizedReference } from './claim-reference.js';
export { getClaimRules, putClaimRules, type ClaimRule, type ClaimRuleSet } from './claim-rules.js';
export { CLAIM_RULES_ACTOR, decideClaim, type ClaimDecision } from './decide-claim.js';
export { firstMatchingRule, ruleMatches, type RuleFacts } from './evaluate-claim-rules.js';
export { type ClaimAttachments, fileClaim } from './file-claim.js';
export { fileShopperClaim, type ShopperClaimFiling } from './file-shopper-claim.js';
export { findOrderForShopper, NO_MATCHING_ORDER, orderNumberKey, recordOrderFound } from './find-shopper-order.js';
export { claimHistory, findClaimByReference, findClaimStore, getClaim, listClaims, listStoreClaims } from './get-claim.js';
export { type PhotoStore, postgresPhotoStore } from './photo-store.js';
export { type ShopperClaimView, shopperClaimView } from './shopper-claim-view.js';
export { assertShopperOrder, type ParcelItem, sessionEnded } from './shopper-order.js';
export { carrierName, shopperOrderView, type ShopperOrderView, type ShopperParcel } from './shopper-order-view.js';
export { removeStoreLogo, setStoreLogo, updateClaimPage } from './update-claim-page.js';
export { uploadClaimPhoto } from './upload-claim-photo.js';
export { toClaimRulesResponse, toDryRunResponse } from './claim-rules-payload.js';
export { dryRunClaimRules, type DryRunResult } from './dry-run-claim-rules.js';
