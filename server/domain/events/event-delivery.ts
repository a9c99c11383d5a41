// Delivering events (README, "Events and outbound webhooks"): at least once, signed, retried with
// exponential backoff and jitter for about three days, then the endpoint is disabled.
//
// Ordering (docs/events.md): an endpoint has up to its max_in_flight attempts at once, taken
// oldest event first, but never two about the same object (one order, one shipment, one claim):
// a delivery waits while an older delivery of its object to the same endpoint is pending (in
// flight, or waiting for its retry). So one object's events arrive oldest first, retries
// included, while different objects' events go out side by side. A lease on the delivery row
// keeps a second worker off it.
import { Webhook } from 'standardwebhooks';
import { EVENT_ID_HEADER, EVENT_SIGNATURE_HEADER, EVENT_TIMESTAMP_HEADER } from '../../../contract/merchant-events.js';
import { MAX_IN_FLIGHT_LIMIT } from '../../../contract/webhook-endpoints.js';
import { hotQuery, lazyStatement, storeRowKey, type Database, type Transaction } from '../../db/client.js';
import type { Actor } from '../access/index.js';

import { recordAudit } from '../access/index.js';
import { eventBody } from './list-events.js';

/**
 * Waits after each failed attempt, in seconds: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h,
 * 24 h. Ten attempts over about 66 hours (2.7 days), like Stripe's three days.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [60, 300, 1800, 7200, 18_000, 36_000, 36_000, 50_400, 86_400];

export interface EventDeliverySettings {
  /** Lets endpoints use http and private addresses: local development and tests only. */
  allowPrivateNetworks: boolean;
  retryScheduleSeconds: readonly number[];
  /** How often each instance looks for due deliveries. */
  dispatchIntervalMs: number;
}

/** How long an attempt may hold its delivery: the 10 s request, with room to spare. */
export const DELIVERY_LEASE_MS = 60_000;

/** The wait before the next attempt after `failedAttempts` failures, ±10% so retries do not march in step. */
export function retryDelayMs(schedule: readonly number[], failedAttempts: number, random: () => number = Math.random): number | null {
  const base = schedule[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * 1000 * (0.9 + 0.2 * random()));
}

/** A delivery taken for one attempt: what to send and where. */
export interface DueDelivery {
  id: string;
  /** The delivery's store and its event's day: with the id, its whole key, so recording the attempt reads one partition. */
  storeId: string;
  eventCreatedAt: Date;
  endpointId: string;
  url: string;
  secrets: string[];
  attemptCount: number;
  eventId: string;
  body: string;
  /** md5 of the event's data as stored (json keeps its text) when taken: whether it is still what was sent, when the answer is recorded. */
  dataDigest: string;
}

/**
 * SQL: the delivery `alias` may be attempted now (`now` names the parameter holding the time):
 * pending, due, held by no worker, and the oldest pending delivery of its object to its endpoint
 * (the one rule of per-object order, which the take, the dispatcher and the job's last look share).
 *
 * `probeEachRow` is for a statement that wants the first few rows in order (the take, the look for
 * one): the older-delivery check then runs per row, one probe of the pending-object index. Left to
 * itself the planner may join against every pending delivery of the endpoint at once (it did, on a
 * young partition whose statistics said it was empty), which costs as much as the backlog on each
 * take. `OFFSET 0` keeps PostgreSQL from turning the NOT EXISTS into such a join; it changes no
 * result. The dispatcher, which reads every due delivery anyway, keeps the join.
 */
const takeable = (alias: string, now: string, { probeEachRow }: { probeEachRow: boolean }) => `
  ${alias}.status = 'pending' AND ${alias}.next_attempt_at <= ${now}
  AND (${alias}.leased_until IS NULL OR ${alias}.leased_until < ${now})
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries older
                   WHERE older.endpoint_id = ${alias}.endpoint_id AND older.store_id = ${alias}.store_id AND older.object_key = ${alias}.object_key
                     AND older.status = 'pending'
                     AND (older.event_seq, older.seq) < (${alias}.event_seq, ${alias}.seq)${probeEachRow ? '\n                   OFFSET 0' : ''})`;

// The take and the record run once per attempt, so they are hot statements (prepared per
// connection, without Prisma's layer): at 80 attempts a second Prisma's interactive transaction
// alone took a core's worth of milliseconds, and the lanes queued for the pool behind it.
// One statement: the take, and what the attempt needs of its event and endpoint. Ordered by the
// event alone, so the partial index on (endpoint_id, event_seq) gives the order without a sort.
const TAKE_DUE_DELIVERY = lazyStatement(
  'take_due_delivery',
  () => `
    WITH taken AS (
      UPDATE webhook_deliveries d SET leased_until = $4
       WHERE (d.id, d.event_created_at) = (SELECT c.id, c.event_created_at FROM webhook_deliveries c
                      WHERE c.endpoint_id = $1 AND c.store_id = $2::uuid AND ${takeable('c', '$3::timestamptz', { probeEachRow: true })}
                      ORDER BY c.event_seq LIMIT 1 FOR UPDATE SKIP LOCKED)
         AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = d.endpoint_id AND w.store_id = d.store_id AND w.enabled)
       RETURNING d.id, d.store_id, d.event_id, d.event_created_at, d.attempt_count)
    SELECT t.id, t.store_id::text AS store_id, t.attempt_count, e.id AS event_id, e.type, e.mode, e.data, md5(e.data::text) AS data_digest, e.created_at,
           w.url, w.secret, w.previous_secret, w.previous_secret_expires_at
      FROM taken t JOIN events e ON e.id = t.event_id AND e.created_at = t.event_created_at AND e.store_id = t.store_id
      JOIN webhook_endpoints w ON w.id = $1 AND w.store_id = t.store_id`,
);

/**
 * Takes the endpoint's oldest due delivery whose object has no older delivery pending to this
 * endpoint, for one attempt, under a lease (a crashed worker's lease runs out and another takes
 * it); null when none is due or the endpoint is disabled. Several workers may take at once: SKIP
 * LOCKED hands each a different row, and the older pending delivery of an object keeps every newer
 * one of it back until it is settled (succeeded, or failed for good).
 */
export async function takeDueDelivery(db: Database, endpoint: EndpointKey, now: Date): Promise<DueDelivery | null> {
  const { id: endpointId, storeId } = endpoint;
  const taken = await hotQuery<{
    id: string;
    store_id: string;
    attempt_count: number;
    event_id: string;
    type: string;
    mode: string;
    data: unknown;
    data_digest: string;
    created_at: Date;
    url: string;
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | null;
  }>(db, TAKE_DUE_DELIVERY, [endpointId, storeId, now, new Date(now.getTime() + DELIVERY_LEASE_MS)]);
  const row = taken[0];
  if (row === undefined) return null;
  const secrets = [row.secret];
  if (row.previous_secret !== null && row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now) secrets.push(row.previous_secret);
  return {
    id: row.id,
    storeId: row.store_id,
    eventCreatedAt: row.created_at,
    endpointId,
    url: row.url,
    secrets,
    attemptCount: row.attempt_count,
    eventId: row.event_id,
    body: JSON.stringify(eventBody({ id: row.event_id, type: row.type, mode: row.mode, data: row.data, createdAt: row.created_at })),
    dataDigest: row.data_digest,
  };
}

/**
 * The Standard Webhooks headers of one attempt: the event id, the time, and a v1 signature per
 * secret (two during a rotation's overlap), made by the standardwebhooks library.
 */
export function signedHeaders(delivery: Pick<DueDelivery, 'eventId' | 'secrets' | 'body'>, at: Date): Record<string, string> {
  const signatures = delivery.secrets.map((secret) => new Webhook(secret).sign(delivery.eventId, at, delivery.body));
  return {
    [EVENT_ID_HEADER]: delivery.eventId,
    [EVENT_TIMESTAMP_HEADER]: String(Math.floor(at.getTime() / 1000)),
    [EVENT_SIGNATURE_HEADER]: signatures.join(' '),
  };
}

/** What one attempt gave. */
export interface AttemptResult {
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed';

/**
 * SQL: the delivery of an attempt ($1 its id, $2 its event's time, $3 its store) locked, and its
 * event share-locked, with whether the event is still as it was sent ($4 the digest taken with it).
 * The receiver may have echoed what it was sent, and if the event was erased meanwhile (an order's
 * personal data) its answer is not kept; the event row's lock orders this with the erasure. Both
 * records of an attempt, success and failure, read the delivery through it.
 */
const LOCKED_DELIVERY = `
  SELECT d.id, d.store_id, d.event_created_at, d.attempt_count, d.status::text AS status, md5(e.data::text) = $4 AS as_sent
    FROM webhook_deliveries d JOIN events e ON e.id = d.event_id AND e.created_at = $2 AND e.store_id = d.store_id
   WHERE d.id = $1 AND d.event_created_at = $2 AND d.store_id = $3::uuid
     FOR UPDATE OF d FOR SHARE OF e`;

/**
 * A successful attempt recorded in one statement: the delivery locked (LOCKED_DELIVERY), the
 * attempt, the delivery done and the endpoint's failing streak over. Nothing is written unless the
 * delivery is still pending (deleted with its endpoint meanwhile, or finished by a worker whose
 * lease ran out); the status it had is returned, or no row when it is gone.
 */
const RECORD_SUCCESS = lazyStatement(
  'record_delivery_success',
  () => `
    WITH current AS (${LOCKED_DELIVERY}),
    attempt AS (
      INSERT INTO webhook_delivery_attempts (delivery_id, store_id, event_created_at, attempted_at, succeeded, status_code, duration_ms, error, response_body)
      SELECT c.id, c.store_id, c.event_created_at, $5, true, $6, $7, NULL, CASE WHEN c.as_sent THEN $8 END FROM current c WHERE c.status = 'pending'),
    done AS (
      UPDATE webhook_deliveries d SET status = 'succeeded', attempt_count = c.attempt_count + 1, next_attempt_at = NULL, leased_until = NULL, updated_at = $9
        FROM current c WHERE d.id = $1 AND d.event_created_at = $2 AND d.store_id = $3::uuid AND c.status = 'pending'),
    streak_over AS (
      UPDATE webhook_endpoints w SET failing_since = NULL
       WHERE w.id = $10 AND w.store_id = $3::uuid AND w.failing_since IS NOT NULL AND EXISTS (SELECT 1 FROM current c WHERE c.status = 'pending'))
    SELECT status FROM current`,
);

/** What a finished delivery's status says of an attempt that found it no longer pending. */
const settledOutcome = (status: string | undefined): AttemptOutcome => (status === 'succeeded' ? 'succeeded' : 'failed');

/**
 * Records an attempt and decides what follows: done, a retry after the schedule's next wait, or,
 * when the schedule is over, failed, with the endpoint disabled for failing (its other pending
 * deliveries fail with it; the store sees it in the endpoint's status and can resend events).
 */
export async function recordAttempt(
  db: Database,
  delivery: Pick<DueDelivery, 'id' | 'storeId' | 'eventCreatedAt' | 'endpointId' | 'dataDigest'>,
  result: AttemptResult,
  attemptedAt: Date,
  settings: Pick<EventDeliverySettings, 'retryScheduleSeconds'>,
): Promise<AttemptOutcome> {
  const now = new Date(attemptedAt.getTime() + result.durationMs);
  if (result.succeeded) {
    const rows = await hotQuery<{ status: string }>(db, RECORD_SUCCESS, [
      delivery.id,
      delivery.eventCreatedAt,
      delivery.storeId,
      delivery.dataDigest,
      attemptedAt,
      result.statusCode,
      result.durationMs,
      result.responseBody,
      now,
      delivery.endpointId,
    ]);
    const status = rows[0]?.status;
    return status === 'pending' ? 'succeeded' : settledOutcome(status);
  }
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRawUnsafe<Array<{ attempt_count: number; status: string; as_sent: boolean }>>(
      LOCKED_DELIVERY,
      delivery.id,
      delivery.eventCreatedAt,
      delivery.storeId,
      delivery.dataDigest,
    );
    const current = locked[0];
    if (current === undefined || current.status !== 'pending') return settledOutcome(current?.status);
    const attempts = current.attempt_count + 1;
    await tx.webhookDeliveryAttempt.create({
      data: {
        deliveryId: delivery.id,
        storeId: delivery.storeId,
        eventCreatedAt: delivery.eventCreatedAt,
        attemptedAt,
        succeeded: false,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        responseBody: current.as_sent ? result.responseBody : null,
      },
    });
    await tx.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, storeId: delivery.storeId, failingSince: null }, data: { failingSince: attemptedAt } });
    const delay = retryDelayMs(settings.retryScheduleSeconds, attempts);
    const key = { id: delivery.id, eventCreatedAt: delivery.eventCreatedAt, storeId: delivery.storeId };
    if (delay !== null) {
      await tx.webhookDelivery.updateMany({ where: key, data: { attemptCount: attempts, nextAttemptAt: new Date(now.getTime() + delay), leasedUntil: null, updatedAt: now } });
      return 'retrying';
    }
    await tx.webhookDelivery.updateMany({ where: key, data: { status: 'failed', attemptCount: attempts, nextAttemptAt: null, leasedUntil: null, updatedAt: now } });
    await disableFailingEndpoint(tx, delivery.storeId, delivery.endpointId, now);
    return 'failed';
  });
}

async function disableFailingEndpoint(tx: Transaction, storeId: string, endpointId: string, now: Date): Promise<void> {
  await tx.webhookEndpoint.update({ where: storeRowKey(storeId, endpointId), data: { enabled: false, disabledReason: 'failing', updatedAt: now } });
  await tx.webhookDelivery.updateMany({
    where: { endpointId, storeId, status: 'pending' },
    data: { status: 'failed', nextAttemptAt: null, leasedUntil: null, updatedAt: now },
  });
  const system: Actor = { kind: 'system', job: 'event-delivery' };
  await recordAudit(tx, system, { storeId, action: 'webhook_endpoint.disabled', subject: { type: 'webhook_endpoint', id: endpointId }, details: { reason: 'failing' }, at: now });
}

/** An endpoint with its store: what a delivery job names, so each of its queries reads one store's rows. */
export interface EndpointKey {
  id: string;
  storeId: string;
}

/** What a delivery job names: the endpoint with its store (absent in jobs queued before it was carried). */
export interface EndpointJob {
  endpointId: string;
  storeId?: string;
}

/**
 * The endpoint a job names, with how many attempts it may have in flight at once; null once it is
 * gone. Jobs queued before they carried the store name the endpoint alone, and are found by it.
 */
export async function deliveryEndpoint(db: Database, job: EndpointJob): Promise<{ endpoint: EndpointKey; lanes: number } | null> {
  const row = await db.webhookEndpoint.findFirst({
    where: { id: job.endpointId, ...(job.storeId === undefined ? {} : { storeId: job.storeId }) },
    select: { id: true, storeId: true, maxInFlight: true },
  });
  return row === null ? null : { endpoint: { id: row.id, storeId: row.storeId }, lanes: Math.min(MAX_IN_FLIGHT_LIMIT, Math.max(1, row.maxInFlight)) };
}

const HAS_DUE_DELIVERY = lazyStatement(
  'has_due_delivery',
  () => `
    SELECT EXISTS (SELECT 1 FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.store_id = d.store_id AND w.enabled
                    WHERE d.endpoint_id = $1 AND d.store_id = $2::uuid AND ${takeable('d', '$3::timestamptz', { probeEachRow: true })}) AS due`,
);

/** Whether the endpoint has a delivery a lane could take now. */
export async function hasDueDelivery(db: Database, endpoint: EndpointKey, now: Date): Promise<boolean> {
  const rows = await hotQuery<{ due: boolean }>(db, HAS_DUE_DELIVERY, [endpoint.id, endpoint.storeId, now]);
  return rows[0]?.due === true;
}

const ENDPOINTS_WITH_DUE_DELIVERIES = lazyStatement(
  'endpoints_with_due_deliveries',
  () => `
    SELECT DISTINCT d.endpoint_id, d.store_id::text AS store_id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.store_id = d.store_id AND w.enabled
     WHERE ${takeable('d', '$1::timestamptz', { probeEachRow: false })}
     LIMIT $2`,
);

/** Endpoints with a delivery due now: what the dispatcher hands to the workers. */
export async function endpointsWithDueDeliveries(db: Database, now: Date, limit = 1000): Promise<EndpointKey[]> {
  const rows = await hotQuery<{ endpoint_id: string; store_id: string }>(db, ENDPOINTS_WITH_DUE_DELIVERIES, [now, limit]);
  return rows.map((row) => ({ id: row.endpoint_id, storeId: row.store_id }));
}

/** Seconds the oldest due delivery of an enabled endpoint has waited (0 when none): the queue's lag. */
export async function deliveryLagSeconds(db: Database, now: Date): Promise<number> {
  const rows = await db.$queryRaw<Array<{ oldest: Date | null }>>`
    SELECT min(d.next_attempt_at) AS oldest FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.store_id = d.store_id AND w.enabled
     WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}`;
  const oldest = rows[0]?.oldest ?? null;
  return oldest === null ? 0 : Math.max(0, (now.getTime() - oldest.getTime()) / 1000);
}
