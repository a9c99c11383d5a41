// Billing: the premium ledger (bookings, re-pricings, reversals), refunds from platforms, the
// monthly statement and the console's overview of a store's month.
export { billingStatement, type BillingStatementRecord, isoWeek, monthBounds, monthLedgerEntries } from './billing-statement.js';
export { dailyTotalsDrift, type DailyTotals, rebuildDailyTotals } from './daily-totals.js';
export { ledgerTotals, repricingAmountCents } from './ledger.js';
export { creditDate, type RefundAcknowledgement, type RefundCreated, RefundIdReusedError, reverseRefund } from './reverse-refund.js';
export { toBillingStatementResponse } from './statement-payload.js';
export { storeOverview } from './store-overview.js';
