// Retention of personal data (README, "Personal data"): each store keeps its shoppers' personal
// data for personal_data_retention_days (730 unless set) after an order's last activity, the latest
// of its creation, its cancellation, its shipments delivered or cancelled and its claims resolved.
// Then the daily job erases it, order by order, each in a short transaction of its own (the same
// erasure a store asks for: orders/redact-order.ts). An order with an open claim waits.
import type { Database } from '../../db/client.js';
import { actingFor, type Scope, type ServiceScope } from '../access/index.js';
import { findStoreById } from '../stores/index.js';
import { OPEN_CLAIM_STATUSES } from '../claims/index.js';
import { AppError } from '../kernel/index.js';
import { redactOrder } from '../orders/index.js';
import { HOLDS_PERSONAL_DATA } from './personal-data.js';

/** Orders looked up at a time. */
export const RETENTION_BATCH = 200;

/** Orders whose personal data outlived their store's retention at `now`, oldest first. */
export async function ordersPastRetention(db: Database, now: Date, limit: number): Promise<Array<{ store_id: string; source_order_id: string }>> {
  return db.$queryRawUnsafe(
    `SELECT o.store_id, o.source_order_id
       FROM orders o JOIN stores s ON s.id = o.store_id
      WHERE (${HOLDS_PERSONAL_DATA})
        AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.order_id = o.id AND c.store_id = o.store_id AND c.status::text = ANY ($3::text[]))
        AND GREATEST(
              o.created_on,
              o.cancelled_on,
              (SELECT max(COALESCE(sh.cancelled_on, CASE WHEN sh.delivery_status = 'Delivered' THEN sh.updated_on END))
                 FROM shipments sh WHERE sh.order_id = o.id AND sh.store_id = o.store_id),
              (SELECT max(c.resolved_on) FROM claims c WHERE c.order_id = o.id AND c.store_id = o.store_id)
            ) < $1::timestamptz - make_interval(days => s.personal_data_retention_days)
      ORDER BY o.created_on
      LIMIT $2`,
    now,
    limit,
    [...OPEN_CLAIM_STATUSES],
  );
}

/** Erases every order past its retention, in batches; returns how many were erased. */
export async function erasePersonalDataPastRetention(db: Database, service: ServiceScope, now: Date): Promise<number> {
  let erased = 0;
  const scopes = new Map<string, Scope>();
  const scopeOf = async (storeId: string) => scopes.get(storeId) ?? scopes.set(storeId, actingFor(service, await findStoreById(db, storeId))).get(storeId) as Scope;
  const skipped = new Set<string>();
  for (;;) {
    const due = (await ordersPastRetention(db, now, RETENTION_BATCH + skipped.size)).filter(
      (order) => !skipped.has(`${order.store_id}/${order.source_order_id}`),
    );
    if (due.length === 0) return erased;
    for (const order of due) {
      try {
        await redactOrder(db, await scopeOf(order.store_id), order.source_order_id, now);
        erased += 1;
      } catch (error) {
        // A claim opened since the lookup: the order waits for it, as a store's request would.
        if (!(error instanceof AppError && error.code === 'conflict')) throw error;
        skipped.add(`${order.store_id}/${order.source_order_id}`);
      }
    }
  }
}
