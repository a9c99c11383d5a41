// Reading an endpoint's deliveries, newest first, with each attempt's outcome.
import { type EventType } from '../../../contract/merchant-events.js';
import type { Database } from '../../db/client.js';
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

export const deliveryInclude = {
  event: { select: { type: true } },
  attempts: { orderBy: { id: 'desc' as const } },
};

export function toDeliveryRecord(row: {
  id: string;
  eventId: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  event: { type: string };
  attempts: DeliveryRecord['attempts'];
}): DeliveryRecord {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.event.type as EventType,
    status: row.status as DeliveryRecord['status'],
    attemptCount: row.attemptCount,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    attempts: row.attempts,
  };
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
    where: { endpointId, ...(before === undefined ? {} : { seq: { lt: before } }) },
    include: deliveryInclude,
    orderBy: { seq: 'desc' },
    take: page.limit + 1,
  });
  return { data: rows.slice(0, page.limit).map(toDeliveryRecord), hasMore: rows.length > page.limit };
}
