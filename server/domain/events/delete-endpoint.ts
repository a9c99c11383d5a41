// Removing a webhook endpoint; its deliveries go with it (their foreign key cascades), and their
// attempts, which have no foreign key (the partitioned tables, migration 20261127210000), first.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { endpointNotFound } from './endpoint-record.js';

export async function deleteEndpoint(db: Database, scope: Scope, id: string, now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`
      DELETE FROM webhook_delivery_attempts a USING webhook_deliveries d, webhook_endpoints w
       WHERE w.id = ${id} AND w.store_id = ${scope.store.id}::uuid AND d.endpoint_id = w.id AND d.store_id = w.store_id
         AND a.delivery_id = d.id AND a.event_created_at = d.event_created_at AND a.store_id = d.store_id`;
    const deleted = await tx.webhookEndpoint.deleteMany({ where: { id, storeId: scope.store.id } });
    if (deleted.count === 0) throw endpointNotFound(id);
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.deleted', subject: { type: 'webhook_endpoint', id }, at: now });
  });
}
