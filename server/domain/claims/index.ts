// Claims: what other contexts, the front doors and the jobs may use. A claim is filed
// (file-claim.ts, file-shopper-claim.ts), decided (decide-claim.ts) and read (get-claim.ts); its
// shopper finds the order (find-shopper-order.ts) within the store's windows (claim-windows.ts) on
// the store's claim page (claim-page-settings.ts, update-claim-page.ts), with photos
// (upload-claim-photo.ts, claim-photos.ts).
export { toClaimPageResponse, logoPath } from './claim-page-payload.js';
export { claimPageSettings, storeLogo, type ClaimPageChange, type ClaimPageSettings } from './claim-page-settings.js';
export { claimPhotoUrl, toClaimResponse } from './claim-payload.js';
export { photosOfClaims, readClaimPhoto, sweepUnattachedPhotos, MAX_UNATTACHED_PHOTOS_PER_ORDER, UNATTACHED_PHOTO_HOURS, type ClaimPhotoRecord } from './claim-photos.js';
export {
  assertUniqueItems,
  CLAIM_TRANSITIONS,
  claimChannelOf,
  claimItems,
  hasOpenClaim,
  OPEN_CLAIM_STATUSES,
  openClaimExistsSql,
  type ClaimChannel,
  type ClaimInput,
  type ClaimReason,
  type ClaimRecord,
  type ClaimStatus,
} from './claim-record.js';
export { claimWindow, claimWindows, deliveredOn, lastScanOn, type ClaimWindow, type ClaimWindowSettings } from './claim-windows.js';
export { decideClaim } from './decide-claim.js';
export { fileClaim, type ClaimAttachments } from './file-claim.js';
export { fileShopperClaim, type ShopperClaimFiling } from './file-shopper-claim.js';
export { findOrderForShopper, NO_MATCHING_ORDER, recordOrderFound } from './find-shopper-order.js';
export { claimHistory, findClaimStore, getClaim, listClaims, listStoreClaims } from './get-claim.js';
export { postgresPhotoStore, type PhotoStore } from './photo-store.js';
export { shopperClaimView, type ShopperClaimView } from './shopper-claim-view.js';
export { carrierName, shopperOrderView, type ShopperOrderView, type ShopperParcel } from './shopper-order-view.js';
export { assertShopperOrder, sessionEnded, type ParcelItem } from './shopper-order.js';
export { removeStoreLogo, setStoreLogo, updateClaimPage } from './update-claim-page.js';
export { uploadClaimPhoto } from './upload-claim-photo.js';
