// A claim's decision as the API and the console send it (ClaimStatusRequest), read into the one
// decision the domain takes: amounts in cents, the payout's date as an instant.
import type { z } from 'zod';
import type { ClaimStatusRequest } from '../../contract/claims.js';
import type { ClaimDecision } from '../domain/claims/index.js';

export function claimDecisionOf(body: z.output<typeof ClaimStatusRequest>): ClaimDecision {
  const { resolution, payout } = body;
  return {
    status: body.status,
    note: body.note,
    resolution: resolution === undefined ? undefined : { type: resolution.type, amountCents: resolution.amount, note: resolution.note },
    payout: payout === undefined ? undefined : { amountCents: payout.amount, paidOn: payout.paid_on === undefined ? undefined : new Date(payout.paid_on), reference: payout.reference },
  };
}
