// Prometheus metrics (prom-client): request counts and latency by route and status, rate-limit
// rejections, premium booked and reversed, refund anomalies, how late tracking polls run, and event deliveries by outcome and lag. One registry per app,
// so several apps in one process (tests) never share counters. Exposed at /metrics only when
// enabled, or on a separate port (server/main.ts).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.js';
import { deliveryLagSeconds, type AttemptOutcome } from '../domain/events/index.js';
import { TRACKING_POLL_QUEUE } from '../jobs/tracking-jobs.js';
import type { RateLimitObserver } from './rate-limit.js';

export interface Metrics extends RateLimitObserver {
  readonly registry: Registry;
  requestCompleted(route: string, method: string, status: number, seconds: number): void;
  premiumBooked(cents: number): void;
  premiumReversed(cents: number): void;
  /** A refund message reused a refund id of another order (refused, reversing nothing). */
  refundIdReused(): void;
  /** A full refund cancelled an order while a claim on it was open. */
  cancelledWithOpenClaim(): void;
  /** One attempt to deliver an event to a merchant's endpoint, by what followed. */
  eventDeliveryAttempted(outcome: AttemptOutcome): void;
  /** Orders whose personal data was erased: asked for (by the store, its platform or the operator), or past its retention. */
  personalDataErased(cause: 'request' | 'retention', orders: number): void;
  /** A privacy request received, by kind (a platform's redelivery is not counted again). */
  privacyRequestReceived(kind: 'customer_redact' | 'customer_data_request' | 'store_redact'): void;
}

export function createMetrics(db: Database, options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const rejections = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429, by limit.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const booked = new Counter({
    name: 'premium_booked_cents_total',
    help: 'Premium booked by new live orders (REST and platform pushes), in cents.',
    registers: [registry],
  });
  const reversed = new Counter({
    name: 'premium_reversed_cents_total',
    help: 'Premium reversed by refunds, in cents.',
    registers: [registry],
  });
  const reusedRefundIds = new Counter({
    name: 'refund_id_reused_total',
    help: 'Refund messages refused because their refund id was already used for another order of the store.',
    registers: [registry],
  });
  const cancelledWithClaim = new Counter({
    name: 'orders_cancelled_with_open_claim_total',
    help: 'Orders cancelled by a full refund of the protection line while a claim on them was open.',
    registers: [registry],
  });
  new Gauge({
    name: 'tracking_job_lag_seconds',
    help: 'How long the oldest due tracking poll has been waiting, in the queue or as a first poll not moved into it yet (0 when none is due).',
    registers: [registry],
    async collect() {
      // Read at scrape time from the queue and the first-poll outbox themselves, so it is the same
      // whichever instance answers, and a stuck mover shows as well as stuck workers.
      try {
        const rows = await db.$queryRaw<Array<{ lag: number | null }>>`
          SELECT GREATEST(
                   (SELECT EXTRACT(EPOCH FROM (now() - min(start_after)))
                      FROM pgboss.job WHERE name = ${TRACKING_POLL_QUEUE} AND state IN ('created', 'retry') AND start_after <= now()),
                   (SELECT EXTRACT(EPOCH FROM (now() - min(created_at))) FROM tracking_poll_outbox))::float8 AS lag`;
        this.set(Math.max(0, rows[0]?.lag ?? 0));
      } catch {
        this.set(0);
      }
    },
  });

  const deliveries = new Counter({
    name: 'event_delivery_attempts_total',
    help: "Attempts to deliver an event to a merchant's webhook endpoint, by outcome: succeeded, retrying (failed, another attempt is scheduled) or failed (the schedule is over).",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'event_delivery_lag_seconds',
    help: 'How long the oldest due event delivery to an enabled endpoint has been waiting (0 when none is due).',
    registers: [registry],
    async collect() {
      try {
        this.set(await deliveryLagSeconds(db, new Date()));
      } catch {
        this.set(0);
      }
    },
  });

  const erasures = new Counter({
    name: 'personal_data_erasures_total',
    help: "Orders whose shoppers' personal data was erased, by cause: request (the store, its platform or the operator asked) or retention (the daily job).",
    labelNames: ['cause'] as const,
    registers: [registry],
  });

  const privacyRequests = new Counter({
    name: 'privacy_requests_total',
    help: 'Privacy requests received, by kind: customer_redact, customer_data_request, store_redact.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });

  return {
    registry,
    requestCompleted(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    rejected(limit) {
      rejections.inc({ limit });
    },
    premiumBooked(cents) {
      if (cents > 0) booked.inc(cents);
    },
    premiumReversed(cents) {
      if (cents > 0) reversed.inc(cents);
    },
    refundIdReused() {
      reusedRefundIds.inc();
    },
    cancelledWithOpenClaim() {
      cancelledWithClaim.inc();
    },
    eventDeliveryAttempted(outcome) {
      deliveries.inc({ outcome });
    },
    personalDataErased(cause, orders) {
      if (orders > 0) erasures.inc({ cause }, orders);
    },
    privacyRequestReceived(kind) {
      privacyRequests.inc({ kind });
    },
  };
}
