// Reading an endpoint's deliveries, newest first, with each attempt's outcome.
import { type EventType } from '../../../contract/merchant-events.js';
import type { Database, Transaction } from '../../db/client.js';
import type { Scope } from '../access/index.js';

import { AppError } from '../kernel/index.js';
import { type Page } from './list-events.js';
import { endpointNotFound } from './endpoint-record.js';

/** A delivery with its attempts, as the API answers it. */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  eventType: EventType;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  attempts: Array<{ attemptedAt: Date; succeeded: boolean; statusCode: number | null; durationMs: number; error: string | null; responseBody: string | null }>;
}

/** The columns a delivery record is made from; its event's type and its attempts are read beside it. */
export const deliverySelect = { id: true, eventId: true, eventCreatedAt: true, status: true, attemptCount: true, nextAttemptAt: true, createdAt: true } as const;

type DeliveryRow = { id: string; eventId: string; eventCreatedAt: Date; status: string; attemptCount: number; nextAttemptAt: Date | null; createdAt: Date };

/**
 * The deliveries as records, with their events' types and their attempts (newest first). The
 * three tables are partitioned by the event's day, and each lookup names the days, so it reads
 * only theirs.
 */
export async function toDeliveryRecords(db: Database | Transaction, rows: readonly DeliveryRow[]): Promise<DeliveryRecord[]> {
  if (rows.length === 0) return [];
  const eventTimes = [...new Set(rows.map((row) => row.eventCreatedAt.getTime()))].map((time) => new Date(time));
  const events = await db.event.findMany({ where: { id: { in: rows.map((row) => row.eventId) }, createdAt: { in: eventTimes } }, select: { id: true, type: true } });
  const attempts = await db.webhookDeliveryAttempt.findMany({
    where: { deliveryId: { in: rows.map((row) => row.id) }, eventCreatedAt: { in: eventTimes } },
    orderBy: { id: 'desc' },
    select: { deliveryId: true, attemptedAt: true, succeeded: true, statusCode: true, durationMs: true, error: true, responseBody: true },
  });
  const typeOf = new Map(events.map((event) => [event.id, event.type as EventType]));
  // A delivery whose day the retention sweep dropped meanwhile, event and all, is not shown.
  return rows.flatMap((row) => {
    const eventType = typeOf.get(row.eventId);
    if (eventType === undefined) return [];
    const own = attempts.filter((attempt) => attempt.deliveryId === row.id).map(({ deliveryId: _delivery, ...attempt }) => attempt);
    const { id, eventId, attemptCount, nextAttemptAt, createdAt } = row;
    return [{ id, eventId, eventType, status: row.status as DeliveryRecord['status'], attemptCount, nextAttemptAt, createdAt, attempts: own }];
  });
}

export async function listDeliveries(
  db: Database,
  scope: Scope,
  endpointId: string,
  page: { limit: number; startingAfter?: string },
): Promise<Page<DeliveryRecord>> {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, storeId: scope.store.id }, select: { id: true } });
  if (!endpoint) throw endpointNotFound(endpointId);
  let before: bigint | undefined;
  if (page.startingAfter !== undefined) {
    const cursor = await db.webhookDelivery.findFirst({ where: { id: page.startingAfter, endpoint: { storeId: scope.store.id } }, select: { seq: true } });
    if (!cursor) throw new AppError('invalid_request', 'starting_after names no delivery of this store.', [{ field: 'starting_after', message: 'is not a delivery of this store' }]);
    before = cursor.seq;
  }
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId, storeId: scope.store.id, ...(before === undefined ? {} : { seq: { lt: before } }) },
    select: deliverySelect,
    orderBy: { seq: 'desc' },
    take: page.limit + 1,
  });
  return { data: await toDeliveryRecords(db, rows.slice(0, page.limit)), hasMore: rows.length > page.limit };
}
