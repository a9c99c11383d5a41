// What the page calls things, in the shopper's words: reasons, claim statuses, delivery statuses.
import { CLAIM_REASONS, CLAIM_STATUSES } from '../../../contract/claims.js';
import type { Claim, Shipment } from './api';

export type ClaimReason = (typeof CLAIM_REASONS)[number];
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** The reasons as the form offers them, in the contract's order. */
export const REASON_CHOICE: Record<ClaimReason, string> = {
  lost: 'It never arrived',
  damaged: 'It arrived damaged',
  stolen: 'It was delivered but stolen',
  missing_items: 'Items were missing',
  wrong_address: 'It went to the wrong address',
  other: 'Something else',
};

/** The reasons as a claim is named afterwards (lists, the status page). */
export const REASON_NAME: Record<ClaimReason, string> = {
  lost: 'Parcel never arrived',
  damaged: 'Parcel arrived damaged',
  stolen: 'Parcel stolen after delivery',
  missing_items: 'Items missing',
  wrong_address: 'Sent to the wrong address',
  other: 'Other problem',
};

export const STATUS_TEXT: Record<ClaimStatus, string> = {
  open: 'Received — the store will review it',
  in_review: 'Being reviewed',
  approved: 'Approved',
  denied: 'Declined',
  paid: 'Paid',
  closed: 'Closed',
};

export const DELIVERY_TEXT: Record<Shipment['status'], string> = {
  Active: 'On its way',
  Delivered: 'Delivered',
  Exception: 'Delivery problem',
  Cancelled: 'Cancelled',
};

export { CLAIM_REASONS };

/** The claim's status as a class suffix, for its colour. */
export const statusTone = (status: Claim['status']) =>
  status === 'approved' || status === 'paid' ? 'good' : status === 'denied' ? 'bad' : status === 'closed' ? 'done' : 'waiting';
