// Delivering events (README, "Events and outbound webhooks"): at least once, signed, retried with
// exponential backoff and jitter for about three days, then the endpoint is disabled.
//
// Ordering: one endpoint's deliveries are attempted one at a time, oldest event first (the job
// queue runs at most one worker per endpoint, and a lease on the delivery row keeps a second one
// off it). A failed attempt waits for its retry while later events go ahead, so an event being
// retried can arrive after newer ones: that is the only reordering, and receivers should use
// created_at (or read the object) when order matters.
import { Webhook } from 'standardwebhooks';
import { EVENT_ID_HEADER, EVENT_SIGNATURE_HEADER, EVENT_TIMESTAMP_HEADER } from '../../../contract/merchant-events.js';
import type { Database, Transaction } from '../../db/client.js';
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
  endpointId: string;
  url: string;
  secrets: string[];
  attemptCount: number;
  eventId: string;
  body: string;
}

/**
 * Takes the endpoint's oldest due delivery for one attempt, under a lease (a crashed worker's
 * lease runs out and another takes it), or null when none is due or the endpoint is disabled.
 */
export async function takeDueDelivery(db: Database, endpointId: string, now: Date): Promise<DueDelivery | null> {
  const taken = await db.$queryRaw<Array<{ id: string; event_id: string; attempt_count: number }>>`
    UPDATE webhook_deliveries d SET leased_until = ${new Date(now.getTime() + DELIVERY_LEASE_MS)}
     WHERE d.id = (SELECT id FROM webhook_deliveries
                    WHERE endpoint_id = ${endpointId} AND status = 'pending' AND next_attempt_at <= ${now}
                      AND (leased_until IS NULL OR leased_until < ${now})
                    ORDER BY event_seq LIMIT 1 FOR UPDATE SKIP LOCKED)
       AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.id = d.endpoint_id AND w.enabled)
     RETURNING d.id, d.event_id, d.attempt_count`;
  const row = taken[0];
  if (row === undefined) return null;
  const [event, endpoint] = await Promise.all([
    db.event.findUniqueOrThrow({ where: { id: row.event_id } }),
    db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } }),
  ]);
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now) {
    secrets.push(endpoint.previousSecret);
  }
  return {
    id: row.id,
    endpointId,
    url: endpoint.url,
    secrets,
    attemptCount: row.attempt_count,
    eventId: event.id,
    body: JSON.stringify(eventBody(event)),
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
 * Records an attempt and decides what follows: done, a retry after the schedule's next wait, or,
 * when the schedule is over, failed, with the endpoint disabled for failing (its other pending
 * deliveries fail with it; the store sees it in the endpoint's status and can resend events).
 */
export async function recordAttempt(
  db: Database,
  delivery: Pick<DueDelivery, 'id' | 'endpointId' | 'eventId' | 'body'>,
  result: AttemptResult,
  attemptedAt: Date,
  settings: Pick<EventDeliverySettings, 'retryScheduleSeconds'>,
): Promise<AttemptOutcome> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ attempt_count: number; status: string }>>`
      SELECT attempt_count, status FROM webhook_deliveries WHERE id = ${delivery.id} FOR UPDATE`;
    const current = locked[0];
    // Deleted with its endpoint meanwhile, or finished by a worker whose lease ran out: nothing to add.
    if (current === undefined || current.status !== 'pending') return current?.status === 'succeeded' ? 'succeeded' : 'failed';
    const attempts = current.attempt_count + 1;
    // The receiver may have echoed what it was sent. If the event was erased meanwhile (an order's
    // personal data), its answer is not kept; the event row's lock orders this with the erasure.
    await tx.$queryRaw`SELECT 1 FROM events WHERE id = ${delivery.eventId} FOR SHARE`;
    const event = await tx.event.findUnique({ where: { id: delivery.eventId } });
    const stillAsSent = event !== null && JSON.stringify(eventBody(event)) === delivery.body;
    await tx.webhookDeliveryAttempt.create({
      data: {
        deliveryId: delivery.id,
        attemptedAt,
        succeeded: result.succeeded,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        responseBody: stillAsSent ? result.responseBody : null,
      },
    });
    const now = new Date(attemptedAt.getTime() + result.durationMs);
    if (result.succeeded) {
      await tx.webhookDelivery.update({
        where: { id: delivery.id },
        data: { status: 'succeeded', attemptCount: attempts, nextAttemptAt: null, leasedUntil: null, updatedAt: now },
      });
      await tx.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, failingSince: { not: null } }, data: { failingSince: null } });
      return 'succeeded';
    }
    await tx.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, failingSince: null }, data: { failingSince: attemptedAt } });
    const delay = retryDelayMs(settings.retryScheduleSeconds, attempts);
    if (delay !== null) {
      await tx.webhookDelivery.update({
        where: { id: delivery.id },
        data: { attemptCount: attempts, nextAttemptAt: new Date(now.getTime() + delay), leasedUntil: null, updatedAt: now },
      });
      return 'retrying';
    }
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: 'failed', attemptCount: attempts, nextAttemptAt: null, leasedUntil: null, updatedAt: now },
    });
    await disableFailingEndpoint(tx, delivery.endpointId, now);
    return 'failed';
  });
}

async function disableFailingEndpoint(tx: Transaction, endpointId: string, now: Date): Promise<void> {
  const endpoint = await tx.webhookEndpoint.update({
    where: { id: endpointId },
    data: { enabled: false, disabledReason: 'failing', updatedAt: now },
    select: { storeId: true },
  });
  await tx.webhookDelivery.updateMany({
    where: { endpointId, status: 'pending' },
    data: { status: 'failed', nextAttemptAt: null, leasedUntil: null, updatedAt: now },
  });
  const system: Actor = { kind: 'system', job: 'event-delivery' };
  await recordAudit(tx, system, { storeId: endpoint.storeId, action: 'webhook_endpoint.disabled', subject: { type: 'webhook_endpoint', id: endpointId }, details: { reason: 'failing' }, at: now });
}

/** Endpoints with a delivery due now: what the dispatcher hands to the workers. */
export async function endpointsWithDueDeliveries(db: Database, now: Date, limit = 1000): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ endpoint_id: string }>>`
    SELECT DISTINCT d.endpoint_id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
     WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND (d.leased_until IS NULL OR d.leased_until < ${now})
     LIMIT ${limit}`;
  return rows.map((row) => row.endpoint_id);
}

/** Seconds the oldest due delivery of an enabled endpoint has waited (0 when none): the queue's lag. */
export async function deliveryLagSeconds(db: Database, now: Date): Promise<number> {
  const rows = await db.$queryRaw<Array<{ oldest: Date | null }>>`
    SELECT min(d.next_attempt_at) AS oldest FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
     WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}`;
  const oldest = rows[0]?.oldest ?? null;
  return oldest === null ? 0 : Math.max(0, (now.getTime() - oldest.getTime()) / 1000);
}
