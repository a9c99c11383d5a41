// Reading a store's events, newest first, as GET /v1/events answers them: what happened in the
// store, so not the test events the console sends (send-test-event.ts), which only their
// endpoint's delivery log shows.
import type { EventType, MerchantEvent } from '../../../contract/merchant-events.js';
import type { Database, Transaction } from '../../db/client.js';
import { AppError } from '../kernel/index.js';
import type { Scope } from '../access/index.js';

/** An event as the API and every delivery carry it. */
export function eventBody(row: { id: string; type: string; mode: string; data: unknown; createdAt: Date }): MerchantEvent {
  return { id: row.id, type: row.type, created_at: row.createdAt.toISOString(), mode: row.mode, data: row.data } as MerchantEvent;
}

const eventNotFound = (id: string) => new AppError('not_found', `No event with id "${id}" in this store.`);

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

export async function listEvents(
  db: Database,
  scope: Scope,
  query: { type?: EventType; limit: number; startingAfter?: string },
): Promise<Page<MerchantEvent>> {
  const storeId = scope.store.id;
  let before: bigint | undefined;
  if (query.startingAfter !== undefined) {
    const cursor = await db.event.findFirst({ where: { id: query.startingAfter, storeId }, select: { seq: true } });
    if (!cursor) throw new AppError('invalid_request', 'starting_after names no event of this store.', [{ field: 'starting_after', message: 'is not an event of this store' }]);
    before = cursor.seq;
  }
  const rows = await db.event.findMany({
    where: { storeId, mode: 'live', ...(query.type === undefined ? {} : { type: query.type }), ...(before === undefined ? {} : { seq: { lt: before } }) },
    orderBy: { seq: 'desc' },
    take: query.limit + 1,
  });
  return { data: rows.slice(0, query.limit).map(eventBody), hasMore: rows.length > query.limit };
}

export async function getEvent(db: Database, scope: Scope, id: string): Promise<MerchantEvent> {
  const row = await db.event.findFirst({ where: { id, storeId: scope.store.id, mode: 'live' } });
  if (!row) throw eventNotFound(id);
  return eventBody(row);
}

/** The ids of an event's store, for the resend (which queues deliveries; event-delivery.ts). */
export async function findEventOfStore(db: Database | Transaction, storeId: string, id: string): Promise<{ id: string; seq: bigint; type: string; objectKey: string; createdAt: Date }> {
  const row = await db.event.findFirst({ where: { id, storeId }, select: { id: true, seq: true, type: true, objectKey: true, createdAt: true } });
  if (!row) throw eventNotFound(id);
  return row;
}
