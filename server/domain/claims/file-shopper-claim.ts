// Filing a shopper's claim from the claim page: through the one fileClaim, as the shopper.
import type { Database } from '../../db/client.js';
import type { Scope, ShopperActor } from '../access/index.js';
import type { ClaimInput, ClaimRecord } from './claim-record.js';
import { fileClaim } from './file-claim.js';
import { shopperOrderRef } from './shopper-order.js';

export interface ShopperClaimFiling {
  trackingNumber: string;
  reason: ClaimRecord['reason'];
  description: string;
  items: Array<{ source_id: string; quantity: number }>;
  photoIds: readonly string[];
}

/** Files the shopper's claim through the one fileClaim, as the shopper. */
export async function fileShopperClaim(db: Database, scope: Scope<ShopperActor>, filing: ShopperClaimFiling, now: Date): Promise<string> {
  const order = await shopperOrderRef(db, scope);
  const input: ClaimInput = {
    source_order_id: order.sourceOrderId,
    tracking_number: filing.trackingNumber,
    reason: filing.reason,
    description: filing.description,
    items: filing.items,
  };
  const claim = await fileClaim(db, scope, input, now, { photoIds: filing.photoIds });
  return claim.id;
}

