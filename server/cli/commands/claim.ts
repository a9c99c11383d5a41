// npm run admin -- claim <create|set-status>: a claim filed for a shopper by the operator, and moved
// along its statuses; printed as the API prints a claim.
import type { Command } from 'commander';
import { CLAIM_REASONS, CLAIM_STATUSES, RESOLUTION_TYPES } from '../../../contract/claims.js';
import { actingFor } from '../../domain/access/index.js';
import { decideClaim, fileClaim, findClaimStore, toClaimResponse } from '../../domain/claims/index.js';
import { systemClock } from '../../domain/kernel/index.js';
import { ClaimCreateOptions, ClaimSetStatusOptions } from '../options.js';
import { action, operator, operatorOn, parseOptions, withDatabase, type Report } from '../shared.js';

async function claimCreate(command: Command): Promise<Report> {
  const options = parseOptions(ClaimCreateOptions, command);
  const claim = await withDatabase(async (db) => {
    const input = {
      source_order_id: options.order,
      reason: options.reason,
      ...(options.trackingNumber === undefined ? {} : { tracking_number: options.trackingNumber }),
      ...(options.description === undefined ? {} : { description: options.description }),
    };
    return fileClaim(db, await operatorOn(db, options.merchant), input, new Date());
  });
  return { json: { claim: toClaimResponse(claim) }, lines: [`Filed claim ${claim.id} on order "${claim.sourceOrderId}" (${claim.reason}).`] };
}

async function claimSetStatus(command: Command): Promise<Report> {
  const options = parseOptions(ClaimSetStatusOptions, command);
  const decision = {
    status: options.status,
    note: options.note,
    resolution: options.resolution === undefined ? undefined : { type: options.resolution, amountCents: options.amount },
    payout: options.payout === undefined ? undefined : { amountCents: options.payout, reference: options.payoutReference },
  };
  const claim = await withDatabase(async (db) => decideClaim(db, actingFor(operator(), await findClaimStore(db, options.id)), options.id, decision, systemClock));
  return {
    json: { claim: toClaimResponse(claim) },
    lines: [`Claim ${claim.id} on order "${claim.sourceOrderId}" is ${claim.status}.`],
  };
}

/** claim create and set-status. */
export function registerClaimCommands(program: Command): void {
  const claim = program.command('claim').description("manage shoppers' claims");
  claim
    .command('create')
    .description('file a claim on a protected order for a shopper (as the operator; no claim windows apply)')
    .option('--merchant <slug>', 'the merchant (required)')
    .option('--order <source_order_id>', 'the order (required)')
    .option('--reason <reason>', `what went wrong: ${CLAIM_REASONS.join(', ')} (required)`)
    .option('--tracking-number <number>', 'the parcel, when the claim is about one')
    .option('--description <text>', 'what happened')
    .action(action(claimCreate));
  claim
    .command('set-status')
    .description(`move a claim to a new status (${CLAIM_STATUSES.join(', ')}); denied and closed are final`)
    .option('--id <id>', 'id of the claim (required)')
    .option('--status <status>', 'the new status (required)')
    .option('--note <text>', 'why, kept in the claim history')
    .option('--resolution <type>', `to approve: ${RESOLUTION_TYPES.join(', ')}`)
    .option('--amount <amount>', "the resolution's amount in USD (amount_claimed when absent)")
    .option('--payout <amount>', 'to mark paid: the amount paid out, in USD')
    .option('--payout-reference <reference>', 'your own reference for the payout, e.g. a refund id')
    .action(action(claimSetStatus));
}
