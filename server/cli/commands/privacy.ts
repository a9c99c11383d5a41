// npm run admin -- privacy <list|cancel-store-redaction>: a merchant's privacy requests (erasures
// and data requests) listed, and a pending store erasure cancelled before it is due.
import type { Command } from 'commander';
import { cancelStoreRedaction, listPrivacyRequests, type PrivacyRequestRecord } from '../../domain/privacy/index.js';

import { PrivacyMerchantOptions } from '../options.js';
import { action, operatorOn, parseOptions, withDatabase, type Report } from '../shared.js';

/** A privacy request as the CLI prints it: ids, dates and counts (a request holds no personal data). */
function privacyRequestJson(request: PrivacyRequestRecord): Record<string, unknown> {
  return {
    id: request.id,
    kind: request.kind,
    status: request.status,
    actor: `${request.actorKind}:${request.actorId}`,
    source_request_id: request.sourceRequestId,
    received_at: request.receivedAt.toISOString(),
    due_at: request.dueAt?.toISOString() ?? null,
    completed_at: request.completedAt?.toISOString() ?? null,
    cancelled_at: request.cancelledAt?.toISOString() ?? null,
    orders_matched: request.ordersMatched,
    orders_erased: request.ordersErased,
    orders_withheld: request.ordersWithheld,
  };
}

const PRIVACY_LIST_LIMIT = 50;

async function privacyList(command: Command): Promise<Report> {
  const options = parseOptions(PrivacyMerchantOptions, command);
  const requests = await withDatabase(async (db) => listPrivacyRequests(db, await operatorOn(db, options.merchant), PRIVACY_LIST_LIMIT));
  return {
    json: { requests: requests.map(privacyRequestJson) },
    lines:
      requests.length === 0
        ? [`Merchant "${options.merchant}" has received no privacy request.`]
        : requests.map(
            (request) =>
              `${request.receivedAt.toISOString()}  ${request.kind.padEnd(21)} ${request.status.padEnd(9)} erased ${request.ordersErased}, withheld ${request.ordersWithheld}` +
              (request.status === 'pending' && request.dueAt ? `, due ${request.dueAt.toISOString()}` : '') +
              `  (${request.id})`,
          ),
  };
}

async function privacyCancelStoreRedaction(command: Command): Promise<Report> {
  const options = parseOptions(PrivacyMerchantOptions, command);
  const { request } = await withDatabase(async (db) => cancelStoreRedaction(db, await operatorOn(db, options.merchant), null, new Date()));
  return { json: { request: privacyRequestJson(request) }, lines: [`The erasure of merchant "${options.merchant}" is cancelled (${request.id}).`] };
}

/** privacy list and cancel-store-redaction. */
export function registerPrivacyCommands(program: Command): void {
  const privacy = program.command('privacy').description("merchants' privacy requests (erasures and data requests)");
  privacy
    .command('list')
    .description(`list a merchant's privacy requests, newest first (the last ${PRIVACY_LIST_LIMIT})`)
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .action(action(privacyList));
  privacy
    .command('cancel-store-redaction')
    .description("cancel a merchant's pending store erasure (its platform's store.redact) before it is due")
    .option('--merchant <slug>', 'slug of the merchant (required)')
    .action(action(privacyCancelStoreRedaction));
}
