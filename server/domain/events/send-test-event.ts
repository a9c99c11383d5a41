// A test event: the console's "Send test event", so a merchant can try a receiver before a real
// change reaches it. It goes through the same outbox, signing, retries and delivery log as every
// event, to the one endpoint named, with mode "test" and sample data (the sandbox builds it).
// GET /v1/events lists what happened in the store, so it leaves test events out.
import { EVENT_TYPES, type EventType } from '../../../contract/merchant-events.js';
import type { Database } from '../../db/client.js';
import { actorColumns, recordAudit, type Scope } from '../access/index.js';
import type { NewEvent } from './emit-event.js';
import { assertEndpointTakes, endpointNotFound, subscribesTo } from './endpoint-record.js';
import { type DeliveryRecord, deliverySelect, toDeliveryRecords } from './list-deliveries.js';

/**
 * Queues a test event of `type` (by default the first type the endpoint receives) to this endpoint
 * only. `sample` builds the event's data for the type chosen.
 */
export async function sendTestEvent(
  db: Database,
  scope: Scope,
  endpointId: string,
  type: EventType | undefined,
  sample: (type: EventType) => Promise<NewEvent>,
  now: Date,
): Promise<DeliveryRecord> {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, storeId: scope.store.id }, select: { id: true, enabled: true, events: true } });
  if (endpoint === null) throw endpointNotFound(endpointId);
  // By default the first type it receives; an endpoint always receives one (its list is never empty).
  const chosen = type ?? EVENT_TYPES.find((candidate) => subscribesTo(endpoint.events, candidate)) ?? EVENT_TYPES[0];
  assertEndpointTakes(endpoint, chosen, { endpoint: 'id', type: 'type' });
  const event = await sample(chosen);
  const { actorKind, actorId } = actorColumns(scope.actor);
  return db.$transaction(async (tx) => {
    // The endpoint may be deleted or disabled meanwhile: lock it, and queue nothing if so.
    const locked = await tx.$queryRaw<Array<{ enabled: boolean }>>`SELECT enabled FROM webhook_endpoints WHERE id = ${endpoint.id} FOR UPDATE`;
    if (locked[0]?.enabled !== true) throw endpointNotFound(endpointId);
    const stored = await tx.event.create({
      data: { storeId: scope.store.id, type: event.type, mode: 'test', actorKind, actorId, data: event.data, createdAt: now },
      select: { id: true, seq: true, objectKey: true, createdAt: true },
    });
    const delivery = await tx.webhookDelivery.create({
      data: { storeId: scope.store.id, eventId: stored.id, eventCreatedAt: stored.createdAt, eventSeq: stored.seq, endpointId: endpoint.id, objectKey: stored.objectKey, nextAttemptAt: now, createdAt: now, updatedAt: now },
      select: deliverySelect,
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.test_sent', subject: { type: 'webhook_endpoint', id: endpoint.id }, details: { type: event.type }, at: now });
    const [record] = await toDeliveryRecords(tx, [delivery]);
    if (record === undefined) throw new Error('the delivery just written is not there');
    return record;
  });
}
