// Events to merchants (README, "Events and outbound webhooks"): the outbox. Every command that
// changes something a merchant hears about writes its event here, in its own transaction, with a
// delivery for each endpoint of the store subscribed to the type. A rolled-back change leaves no
// event; a committed one is never lost, because the delivery rows commit with it and the workers
// (server/jobs/event-delivery.ts) find them whenever they run. Test keys and test-mode messages
// write nothing, so they emit nothing.
import type { EventData, EventType, MerchantEvent } from '../../../contract/merchant-events.js';
import type { Database, Transaction } from '../../db/client.js';
import { actorColumns, type Actor } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import { receivesSql } from './webhook-endpoints.js';
import type { Scope } from '../access/index.js';

/** An event about to be written: its type and its data, the object as the API returns it. */
export type NewEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

/** Typed construction, so each type's data is checked against the contract. */
export const newEvent = <T extends EventType>(type: T, data: EventData<T>): NewEvent => ({ type, data }) as NewEvent;

/** The SQL expressions an event row is made of, when a statement does not pass them as six parameters. */
export interface EventExpressions {
  storeId: string;
  type: string;
  actorKind: string;
  actorId: string;
  data: string;
  at: string;
}

/**
 * The event and its deliveries, as two parts of one statement. Given a number, the event's values
 * are the six parameters from it, in order: store id, type, actor kind, actor id, data (JSON text),
 * time. The order insert (orders/create-order.ts), which must stay a single statement, embeds them
 * with its own data expression and FROM; that is why this is SQL text. `name` is the event part's
 * name in the statement (`e` unless a statement writes two events); `where` makes it conditional.
 */
export const eventInsertSql = (values: number | EventExpressions, options: { data?: string; from?: string; where?: string; name?: string } = {}) => {
  const v = typeof values === 'number' ? positionalEventValues(values, options.data) : values;
  const name = options.name ?? 'e';
  return {
    event: `INSERT INTO events (store_id, type, mode, actor_kind, actor_id, data, created_at)
            SELECT ${v.storeId}, ${v.type}, 'live', ${v.actorKind}, ${v.actorId}, ${v.data}, ${v.at}
            ${options.from === undefined ? '' : `FROM ${options.from}`}
            ${options.where === undefined ? '' : `WHERE ${options.where}`}
            RETURNING id, seq, store_id, type, created_at`,
    /**
     * Reads the row the event insert returned. Due at once: by the database's clock too, should
     * the change be dated ahead of it (a poll applies a report as of its own time).
     */
    deliveries: `INSERT INTO webhook_deliveries (event_id, event_seq, endpoint_id, next_attempt_at, created_at, updated_at)
                 SELECT ${name}.id, ${name}.seq, w.id, LEAST(${name}.created_at, now()), ${name}.created_at, ${name}.created_at
                   FROM ${name} JOIN webhook_endpoints w ON w.store_id = ${name}.store_id AND ${receivesSql(`${name}.type`)}`,
  };
};

/** The six parameters from `first`, in eventParameters' order; `data` may replace the fifth's expression. */
function positionalEventValues(first: number, data: string | undefined): EventExpressions {
  const p = (offset: number) => `$${first + offset}`;
  return { storeId: `${p(0)}::uuid`, type: p(1), actorKind: `${p(2)}::actor_kind`, actorId: p(3), data: data ?? `${p(4)}::json`, at: `${p(5)}::timestamptz` };
}

const EMIT_SQL = (() => {
  const sql = eventInsertSql(1);
  return `WITH e AS (${sql.event}) ${sql.deliveries}`;
})();

/** The parameters of eventInsertSql, in its order. */
export function eventParameters(storeId: string, actor: Actor, event: NewEvent, at: Date): [string, string, string, string, string, Date] {
  const { actorKind, actorId } = actorColumns(actor);
  return [storeId, event.type, actorKind, actorId, JSON.stringify(event.data), at];
}

/** Writes an event and its deliveries inside the change's transaction. */
export async function emitEvent(tx: Transaction, actor: Actor, storeId: string, event: NewEvent, at: Date): Promise<void> {
  await tx.$executeRawUnsafe(EMIT_SQL, ...eventParameters(storeId, actor, event, at));
}

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
    where: { storeId, ...(query.type === undefined ? {} : { type: query.type }), ...(before === undefined ? {} : { seq: { lt: before } }) },
    orderBy: { seq: 'desc' },
    take: query.limit + 1,
  });
  return { data: rows.slice(0, query.limit).map(eventBody), hasMore: rows.length > query.limit };
}

export async function getEvent(db: Database, scope: Scope, id: string): Promise<MerchantEvent> {
  const row = await db.event.findFirst({ where: { id, storeId: scope.store.id } });
  if (!row) throw eventNotFound(id);
  return eventBody(row);
}

/** The ids of an event's store, for the resend (which queues deliveries; event-delivery.ts). */
export async function findEventOfStore(db: Database | Transaction, storeId: string, id: string): Promise<{ id: string; seq: bigint; type: string }> {
  const row = await db.event.findFirst({ where: { id, storeId }, select: { id: true, seq: true, type: true } });
  if (!row) throw eventNotFound(id);
  return row;
}

/** Events are kept this long (as Stripe keeps them): enough to page back and resend, no longer. */
export const EVENT_RETENTION_DAYS = 30;
/** Rows deleted per statement, so a sweep never holds a long lock. */
const SWEEP_BATCH = 5000;

/**
 * Deletes events older than the retention, their deliveries first (the attempts go with them).
 * Their data holds the objects as they were, shoppers' names included, so they are not kept.
 */
export async function sweepExpiredEvents(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const expired = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM events WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED`;
      if (expired.length === 0) return 0;
      const ids = expired.map((row) => row.id);
      await tx.webhookDelivery.deleteMany({ where: { eventId: { in: ids } } });
      const { count } = await tx.event.deleteMany({ where: { id: { in: ids } } });
      return count;
    });
    deleted += batch;
    if (batch < SWEEP_BATCH) return deleted;
  }
}
