// WooCommerce's native order webhooks, as Route's WooCommerce plugin registers them
// (docs/route-compatibility.md): who may sign them, and what a delivered order does. The order is
// read into the documented order request by server/wire/woocommerce-order.ts; here it meets the
// same order operations as REST: create, update, cancel.
import type { Database } from '../../db/client.js';
import type { Actor, Mode, Scope } from '../access/index.js';
import type { Clock } from '../kernel/index.js';
import { AppError, isUuid } from '../kernel/index.js';

import { cancelOrder, getOrder, upsertOrder, type OrderCreateInput, type OrderUpdateInput } from '../orders/index.js';
import { toStoreContext, type StoreContext } from '../stores/index.js';

/** A secret a delivery may be signed with, and who signing with it is. */
export interface WooCommerceSigner {
  secret: string;
  mode: Mode;
  actor: Actor;
}

/**
 * The store a delivery URL names (/webhooks/{store id}) and the secrets its deliveries may carry:
 * the one derived from each of its unrevoked keys, and the one it declared. Null for no such store.
 */
export async function wooCommerceSigners(db: Database, merchantId: string): Promise<{ store: StoreContext; signers: WooCommerceSigner[] } | null> {
  if (!isUuid(merchantId)) return null;
  const row = await db.store.findUnique({
    where: { id: merchantId },
    include: { apiKeys: { where: { revokedAt: null, scope: 'store', woocommerceWebhookSecret: { not: null } }, select: { id: true, mode: true, woocommerceWebhookSecret: true } } },
  });
  if (!row) return null;
  const { apiKeys, woocommerceWebhookSecret, ...store } = row;
  const signers: WooCommerceSigner[] = apiKeys.flatMap((key) =>
    key.woocommerceWebhookSecret === null ? [] : [{ secret: key.woocommerceWebhookSecret, mode: key.mode, actor: { kind: 'api_key', keyId: key.id } as const }],
  );
  if (woocommerceWebhookSecret !== null) {
    signers.push({ secret: woocommerceWebhookSecret, mode: 'live', actor: { kind: 'platform', platform: 'woocommerce' } });
  }
  return { store: toStoreContext(store), signers };
}

/** The signer whose secret signs the body, comparing every candidate in constant time. */
export function matchingSigner(signers: readonly WooCommerceSigner[], signatureMatches: (secret: string) => boolean): WooCommerceSigner | null {
  let found: WooCommerceSigner | null = null;
  for (const signer of signers) if (signatureMatches(signer.secret) && found === null) found = signer;
  return found;
}

/** Statuses that book an order, and that cancel it, when the plugin stamped none on the order. */
const DEFAULT_PROTECTED_STATUSES = ['processing', 'completed'];
const DEFAULT_CANCEL_STATUSES = ['cancelled', 'refunded'];

/**
 * What an order's WooCommerce status asks for: the statuses the plugin stamped on the order
 * (_routeapp_included_order_statuses, _routeapp_cancel_order_statuses) when it did, else
 * processing and completed book it, cancelled and refunded cancel it, and any other status
 * (pending, on-hold, failed) does neither.
 */
export function wooCommerceStatusAction(
  status: string,
  stamped: { protectedStatuses?: readonly string[] | undefined; cancelStatuses?: readonly string[] | undefined },
): 'book' | 'cancel' | 'ignore' {
  if ((stamped.cancelStatuses ?? DEFAULT_CANCEL_STATUSES).includes(status)) return 'cancel';
  if ((stamped.protectedStatuses ?? DEFAULT_PROTECTED_STATUSES).includes(status)) return 'book';
  return 'ignore';
}

/** What a delivered order asks for, once read. */
export type WooCommerceOrderEvent =
  | { kind: 'upsert'; sourceOrderId: string; whole: { input: OrderCreateInput } | { problems: AppError['fieldErrors'] }; patch: OrderUpdateInput }
  | { kind: 'cancel'; sourceOrderId: string; reason: string }
  | { kind: 'ignore'; sourceOrderId: string; reason: string };

export interface WooCommerceOutcome {
  action: 'created' | 'updated' | 'cancelled' | 'ignored' | 'validated';
  orderId: string;
  reason?: string;
}

/** The delivered order as a whole order, or the reasons it cannot be read as one (400). */
export function readableWholeOrder(event: Extract<WooCommerceOrderEvent, { kind: 'upsert' }>): { input: OrderCreateInput } {
  if ('problems' in event.whole) throw new AppError('invalid_request', 'The WooCommerce order cannot be read as an order.', event.whole.problems);
  return event.whole;
}

/**
 * Applies one delivery. Idempotent: a redelivered order updates nothing that is already so, a
 * second cancel keeps the first, and a create that races another becomes an update. A test-key
 * signature goes to the sandbox (domain/sandbox/sandbox.ts): it validates and books nothing.
 */
export async function applyWooCommerceEvent(db: Database, scope: Scope, event: WooCommerceOrderEvent, clock: Clock): Promise<WooCommerceOutcome> {
  const orderId = event.sourceOrderId;
  if (event.kind === 'ignore') return { action: 'ignored', orderId, reason: event.reason };
  if (event.kind === 'cancel') {
    try {
      await cancelOrder(db, scope, orderId, clock);
      return { action: 'cancelled', orderId };
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return { action: 'ignored', orderId, reason: `${event.reason}, and the order was never registered` };
      throw error;
    }
  }
  const whole = readableWholeOrder(event);
  const existing = await getOrder(db, scope, orderId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'not_found') return null;
    throw error;
  });
  // A cancelled order stays cancelled: a later delivery of it (a note added, a status moved back)
  // changes nothing, where an update would refuse to re-price it.
  if (existing?.status === 'cancelled') return { action: 'ignored', orderId, reason: 'the order is cancelled' };
  const { created } = await upsertOrder(db, scope, orderId, event.patch, () => whole, clock);
  return { action: created ? 'created' : 'updated', orderId };
}
