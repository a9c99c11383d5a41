// A claim of the shopper's order as the claim page shows it: its items by name, and its history
// with the store's notes (never who wrote them).
import type { Database } from '../../db/client.js';
import type { Scope, ShopperActor } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import type { ClaimRecord, ClaimStatus } from './claim-record.js';
import { findClaimOfOrder } from './get-claim.js';
import { shopperOrderRef, type ParcelItem } from './shopper-order.js';

export interface ShopperClaimView {
  claim: ClaimRecord;
  orderNumber: string;
  items: ParcelItem[];
  /** Each change with the store's note; automatic when the store's rules made it. */
  history: Array<{ status: ClaimStatus; note: string | null; changedOn: Date; automatic: boolean }>;
}

/** A claim of the session's order, with its history (the store's notes included, never who wrote them). */
export async function shopperClaimView(db: Database, scope: Scope<ShopperActor>, claimId: string, now: Date): Promise<ShopperClaimView> {
  const order = await shopperOrderRef(db, scope);
  const claim = await findClaimOfOrder(db, order.id, claimId, now);
  if (claim === null) throw new AppError('not_found', 'No such claim on this order.');
  const names = new Map(order.lineItems.map((line) => [line.sourceId, line.name]));
  return {
    claim,
    orderNumber: order.sourceOrderNumber,
    items: claim.items.map((item) => ({ sourceId: item.source_id, name: names.get(item.source_id) ?? item.source_id, quantity: item.quantity })),
    history: claim.history.map((change) => ({ status: change.toStatus, note: change.note, changedOn: change.changedOn, automatic: change.by?.kind === 'rule' })),
  };
}

