// Adding a webhook endpoint to a store: its URL checked, its events named once, its secret made.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import { EndpointInput, EndpointRecord, MAX_ENDPOINTS_PER_STORE, assertEventList, assertUrlAllowed, endpointSelect, newEndpointSecret } from './endpoint-record.js';

export async function createEndpoint(
  db: Database,
  scope: Scope,
  input: EndpointInput,
  now: Date,
  settings: { allowPrivateNetworks: boolean },
): Promise<EndpointRecord & { secret: string }> {
  assertUrlAllowed(input.url, settings.allowPrivateNetworks);
  assertEventList(input.events);
  return db.$transaction(async (tx) => {
    // The store row lock makes the count and the insert one step across instances.
    await tx.$queryRaw`SELECT id FROM stores WHERE id = ${scope.store.id}::uuid FOR UPDATE`;
    const count = await tx.webhookEndpoint.count({ where: { storeId: scope.store.id } });
    if (count >= MAX_ENDPOINTS_PER_STORE) {
      throw new AppError('conflict', `A store can have at most ${MAX_ENDPOINTS_PER_STORE} webhook endpoints; delete one first.`);
    }
    const secret = newEndpointSecret();
    const row = await tx.webhookEndpoint.create({
      data: {
        storeId: scope.store.id,
        url: input.url,
        description: input.description ?? null,
        events: input.events,
        ...(input.max_in_flight === undefined ? {} : { maxInFlight: input.max_in_flight }),
        secret,
        createdAt: now,
        updatedAt: now,
      },
      select: endpointSelect,
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.created', subject: { type: 'webhook_endpoint', id: row.id }, at: now });
    return { ...row, secret };
  });
}
