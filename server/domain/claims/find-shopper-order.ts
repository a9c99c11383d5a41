// Finding an order for a shopper on the claim page (docs/shopper-claims.md): by its number and the
// email it was placed with, in constant time, answering the same whatever the reason it fails.
import { timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { Scope, ShopperActor } from '../access/index.js';
import { recordAudit } from '../access/index.js';

/** The one answer to a lookup that finds nothing, whatever the reason. */
export const NO_MATCHING_ORDER = 'No order matches that order number and email. Check both against your order confirmation.';

/**
 * An order number as the lookup compares it: whitespace removed, then any leading '#', then lower
 * case, so "1002", "#1002" and " 10 02 " are one number, as are "ab-12" and "AB-12". The database
 * applies the same rule, order_number_key() (migration 20261127120000_order_number_lookup; orders
 * are indexed by it since 20261127150000_console_order_search), and that one decides the match; this twin keys the lookup rate limits, so
 * that a guesser gains no tries by retyping one number. test/shopper-claims.test.ts checks they agree.
 */
export function orderNumberKey(orderNumber: string): string {
  return orderNumber.replace(/[ \t\n\v\f\r]+/g, '').replace(/^#+/, '').toLowerCase();
}

/** What an HMAC-SHA256 is compared with when the number names no order: the same work either way. */
const NO_HASH = Buffer.alloc(32);

/**
 * The order a shopper means, or null. One statement whatever the input: the presented email's keyed
 * hash (the same one the orders keep, computed by the database) and every order of the store whose
 * number has the presented one's order_number_key (an index probe: orders are indexed on store_id
 * and order_number_key(source_order_number)), compared in constant time, with a stand-in when there
 * is none. An order whose personal data was erased has no hash, so it is never found.
 */
export async function findOrderForShopper(db: Database, storeId: string, orderNumber: string, email: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ presented: Uint8Array | null; id: string | null; stored: Uint8Array | null }>>`
    SELECT email_lookup_hash(${email}) AS presented, o.id::text AS id, o.customer_email_lookup AS stored
      FROM (SELECT 1) AS one
      LEFT JOIN orders o ON o.store_id = ${storeId}::uuid AND order_number_key(o.source_order_number) = order_number_key(${orderNumber})
     ORDER BY o.created_on DESC NULLS LAST`;
  const presented = Buffer.from(rows[0]?.presented ?? NO_HASH);
  let found: string | null = null;
  for (const row of rows) {
    const stored = row.stored === null ? NO_HASH : Buffer.from(row.stored);
    const matches = stored.length === presented.length && timingSafeEqual(stored, presented) && row.stored !== null;
    if (matches && found === null && row.id !== null) found = row.id;
  }
  return found;
}

/** Records a successful lookup, for the store's audit log (the shopper is named by the order). */
export async function recordOrderFound(db: Database, scope: Scope<ShopperActor>, now: Date): Promise<void> {
  await recordAudit(db, scope.actor, { storeId: scope.store.id, action: 'shopper.order_found', subject: { type: 'order', id: scope.actor.orderId }, at: now });
}

