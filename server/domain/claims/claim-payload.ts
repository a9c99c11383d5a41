// A claim as the API answers it, as its events carry it, and as the admin CLI prints it: built from
// the domain record with the contract's types, so that the three are one shape.
import type { z } from 'zod';
import type { ClaimResponse } from '../../../contract/index.js';
import { centsToMajorNumber } from '../../../contract/money.js';
import { evidenceValues } from './claim-evidence.js';
import type { ClaimHistoryRecord, ClaimRecord } from './claim-record.js';

/** Where the store's key downloads a claim's photo. */
export const claimPhotoUrl = (claimId: string, photoId: string) => `/v1/claims/${encodeURIComponent(claimId)}/photos/${encodeURIComponent(photoId)}`;

export function toClaimResponse(claim: ClaimRecord): z.input<typeof ClaimResponse> {
  return {
    id: claim.id,
    merchant_id: claim.storeId,
    source_order_id: claim.sourceOrderId,
    tracking_number: claim.trackingNumber,
    reason: claim.reason,
    description: claim.description,
    items: claim.items,
    status: claim.status,
    channel: claim.channel,
    photos: claim.photos.map((photo) => ({
      id: photo.id,
      url: claimPhotoUrl(claim.id, photo.id),
      width: photo.width,
      height: photo.height,
      bytes: photo.bytes,
    })),
    created_on: claim.createdOn.toISOString(),
    updated_on: claim.updatedOn.toISOString(),
    resolved_on: claim.resolvedOn?.toISOString() ?? null,
    reference: claim.reference,
    amount_claimed: centsToMajorNumber(claim.amountClaimedCents),
    currency: 'USD',
    resolution: claim.resolution === null ? null : { type: claim.resolution.type, amount: centsToMajorNumber(claim.resolution.amountCents), note: claim.resolution.note },
    payout:
      claim.payout === null ? null : { amount: centsToMajorNumber(claim.payout.amountCents), paid_on: claim.payout.paidOn.toISOString(), reference: claim.payout.reference },
    evidence: evidenceValues(claim.evidence),
    history: claim.history.map(toHistoryEntry),
  };
}

function toHistoryEntry(change: ClaimHistoryRecord): z.input<typeof ClaimResponse>['history'][number] {
  return {
    from_status: change.fromStatus,
    to_status: change.toStatus,
    note: change.note,
    changed_on: change.changedOn.toISOString(),
    by:
      change.by === null
        ? null
        : {
            kind: change.by.kind,
            id: change.by.id,
            // The evidence a rule read, as its history entry recorded it.
            rule: change.by.rule === null ? null : { ...change.by.rule, evidence: change.by.rule.evidence as z.input<typeof ClaimResponse>['evidence'] },
          },
  };
}
