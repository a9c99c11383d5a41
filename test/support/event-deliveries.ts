// When a store's event deliveries are over: for a test that counts what its receivers got and must
// know the count is final, rather than sleeping and hoping a duplicate would have shown up by then.
import { expect, vi } from 'vitest';
import type { Database } from '../../server/db/client.js';
import { EVENT_DELIVERY_QUEUE } from '../../server/jobs/event-delivery.js';

/**
 * Resolves once no delivery of the store is pending and no delivery job for one of its endpoints
 * is queued or running, read in one statement. Every attempt is made inside such a job (the
 * worker takes a pending delivery, posts it, records it), so from then on nothing more can reach
 * the store's receivers until something new is queued; rejects after `timeoutMs`.
 */
export async function deliveriesSettled(db: Database, storeId: string, timeoutMs = 15_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const [row] = await db.$queryRawUnsafe<Array<{ pending: number; jobs: number }>>(
        `SELECT (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
                  WHERE w.store_id = $1::uuid AND d.status = 'pending') AS pending,
                (SELECT count(*)::int FROM pgboss.job j
                  WHERE j.name = $2 AND j.state IN ('created', 'retry', 'active')
                    AND j.singleton_key IN (SELECT id FROM webhook_endpoints WHERE store_id = $1::uuid)) AS jobs`,
        storeId,
        EVENT_DELIVERY_QUEUE,
      );
      expect(row, 'deliveries still pending, or delivery jobs still queued or running').toEqual({ pending: 0, jobs: 0 });
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
