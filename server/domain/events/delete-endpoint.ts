// Removing a webhook endpoint; its deliveries still waiting go with it.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { endpointNotFound } from './endpoint-record.js';

export async function deleteEndpoint(db: Database, scope: Scope, id: string, now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    const deleted = await tx.webhookEndpoint.deleteMany({ where: { id, storeId: scope.store.id } });
    if (deleted.count === 0) throw endpointNotFound(id);
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.deleted', subject: { type: 'webhook_endpoint', id }, at: now });
  });
}
