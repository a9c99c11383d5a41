// Changing a webhook endpoint: its URL, events, description, deliveries in flight, or whether it is enabled.
import { storeRowKey, type Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { EndpointPatch, EndpointRecord, assertEventList, assertUrlAllowed, endpointNotFound, endpointSelect } from './endpoint-record.js';

export async function updateEndpoint(
  db: Database,
  scope: Scope,
  id: string,
  patch: EndpointPatch,
  now: Date,
  settings: { allowPrivateNetworks: boolean },
): Promise<EndpointRecord> {
  if (patch.url !== undefined) assertUrlAllowed(patch.url, settings.allowPrivateNetworks);
  if (patch.events !== undefined) assertEventList(patch.events);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ enabled: boolean }>>`
      SELECT enabled FROM webhook_endpoints WHERE id = ${id} AND store_id = ${scope.store.id}::uuid FOR UPDATE`;
    const current = locked[0];
    if (current === undefined) throw endpointNotFound(id);
    const enabling = patch.enabled === true && !current.enabled;
    const row = await tx.webhookEndpoint.update({
      where: storeRowKey(scope.store.id, id),
      data: {
        ...(patch.url === undefined ? {} : { url: patch.url }),
        ...(patch.events === undefined ? {} : { events: patch.events }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.max_in_flight === undefined ? {} : { maxInFlight: patch.max_in_flight }),
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled, disabledReason: patch.enabled ? null : 'merchant' }),
        // Re-enabled: its failing streak starts over.
        ...(enabling ? { failingSince: null } : {}),
        updatedAt: now,
      },
      select: endpointSelect,
    });
    await recordAudit(tx, scope.actor, {
      storeId: scope.store.id,
      action: 'webhook_endpoint.updated',
      subject: { type: 'webhook_endpoint', id },
      details: { fields: Object.keys(patch).filter((key) => patch[key as keyof EndpointPatch] !== undefined) },
      at: now,
    });
    return row;
  });
}
