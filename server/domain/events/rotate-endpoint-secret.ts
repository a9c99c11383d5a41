// Rotating an endpoint's signing secret: a new one answered once, the old one kept beside it for
// the overlap, so a receiver can switch without losing a delivery.
import { SECRET_ROTATION_OVERLAP_HOURS } from '../../../contract/webhook-endpoints.js';
import { storeRowKey, type Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { EndpointRecord, endpointNotFound, endpointSelect, newEndpointSecret } from './endpoint-record.js';

/** A new secret; the current one keeps signing beside it for the overlap (a previous one still overlapping is dropped). */
export async function rotateEndpointSecret(
  db: Database,
  scope: Scope,
  id: string,
  now: Date,
): Promise<EndpointRecord & { secret: string; previousSecretExpiresAt: Date }> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ secret: string }>>`
      SELECT secret FROM webhook_endpoints WHERE id = ${id} AND store_id = ${scope.store.id}::uuid FOR UPDATE`;
    const current = locked[0];
    if (current === undefined) throw endpointNotFound(id);
    const secret = newEndpointSecret();
    const previousSecretExpiresAt = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_HOURS * 3600_000);
    const row = await tx.webhookEndpoint.update({
      where: storeRowKey(scope.store.id, id),
      data: { secret, previousSecret: current.secret, previousSecretExpiresAt, secretRotatedAt: now, updatedAt: now },
      select: endpointSelect,
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.secret_rotated', subject: { type: 'webhook_endpoint', id }, at: now });
    return { ...row, secret, previousSecretExpiresAt };
  });
}
