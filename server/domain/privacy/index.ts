// Privacy: a shopper's personal data erased or exported on request, a store's erasure after an
// uninstall, and the retention that erases it once it is no longer needed.
export { type CustomerDataResult, type CustomerRedactionResult, exportCustomerData, redactCustomer } from './customer-data.js';
export { hasPersonalData, HOLDS_PERSONAL_DATA, PERSONAL_DATA_WIRE_KEYS } from './personal-data.js';
export { erasePersonalDataPastRetention } from './personal-data-retention.js';
export { listPrivacyRequests, type PrivacyRequestRecord } from './privacy-requests.js';
export { cancelStoreRedaction, runDuePrivacyRequests, scheduleStoreRedaction } from './store-redaction.js';
