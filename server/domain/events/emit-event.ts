// Events to merchants (README, "Events and outbound webhooks"): the outbox. Every command that
// changes something a merchant hears about writes its event here, in its own transaction, with a
// delivery for each endpoint of the store subscribed to the type. A rolled-back change leaves no
// event; a committed one is never lost, because the delivery rows commit with it and the workers
// (server/jobs/event-delivery.ts) find them whenever they run. Test keys and test-mode messages
// write nothing, so they emit nothing.
import type { EventData, EventType } from '../../../contract/merchant-events.js';
import type { Transaction } from '../../db/client.js';
import { actorColumns, type Actor } from '../access/index.js';
import { receivesSql } from './endpoint-record.js';

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
            RETURNING id, seq, store_id, type, created_at, object_key`,
    /**
     * Reads the row the event insert returned. Due at once: by the database's clock too, should
     * the change be dated ahead of it (a poll applies a report as of its own time).
     */
    deliveries: `INSERT INTO webhook_deliveries (store_id, event_id, event_created_at, event_seq, endpoint_id, object_key, next_attempt_at, created_at, updated_at)
                 SELECT ${name}.store_id, ${name}.id, ${name}.created_at, ${name}.seq, w.id, ${name}.object_key, LEAST(${name}.created_at, now()), ${name}.created_at, ${name}.created_at
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
