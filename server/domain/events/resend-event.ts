// Sending an event again to one endpoint, or to every endpoint subscribed to it.
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';

import { recordAudit } from '../access/index.js';
import { findEventOfStore } from './list-events.js';
import { assertEndpointTakes, endpointNotFound, subscribesTo } from './endpoint-record.js';
import { type DeliveryRecord, deliverySelect, toDeliveryRecords } from './list-deliveries.js';

/**
 * Queues the event again, with its id, to one endpoint or to every enabled endpoint subscribed to
 * its type. The receiver's duplicate check on webhook-id still applies.
 */
export async function resendEvent(db: Database, scope: Scope, eventId: string, endpointId: string | undefined, now: Date): Promise<DeliveryRecord[]> {
  return db.$transaction(async (tx) => {
    const event = await findEventOfStore(tx, scope.store.id, eventId);
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { storeId: scope.store.id, ...(endpointId === undefined ? { enabled: true } : { id: endpointId }) },
      select: { id: true, enabled: true, events: true },
      orderBy: { createdAt: 'asc' },
    });
    if (endpointId !== undefined) {
      const named = endpoints[0];
      if (named === undefined) throw endpointNotFound(endpointId);
      assertEndpointTakes(named, event.type, { endpoint: 'endpoint_id', type: 'endpoint_id' });
    }
    const targets = endpoints.filter((endpoint) => subscribesTo(endpoint.events, event.type));
    const created = [];
    for (const target of targets) {
      created.push(
        await tx.webhookDelivery.create({
          data: { storeId: scope.store.id, eventId: event.id, eventCreatedAt: event.createdAt, eventSeq: event.seq, endpointId: target.id, objectKey: event.objectKey, nextAttemptAt: now, createdAt: now, updatedAt: now },
          select: deliverySelect,
        }),
      );
    }
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'event.resent', subject: { type: 'event', id: event.id }, details: { deliveries: created.length }, at: now });
    return toDeliveryRecords(tx, created);
  });
}
