// Webhook endpoints and deliveries as the wire carries them.
import type { z } from 'zod';
import type { WebhookDelivery, WebhookEndpoint } from '../../contract/index.js';
import type { DeliveryRecord, EndpointRecord } from '../domain/events/index.js';


const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toWebhookEndpointResponse(endpoint: EndpointRecord): z.input<typeof WebhookEndpoint> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    status: endpoint.enabled ? 'enabled' : 'disabled',
    disabled_reason: endpoint.disabledReason as z.input<typeof WebhookEndpoint>['disabled_reason'],
    failing_since: iso(endpoint.failingSince),
    secret_rotated_on: iso(endpoint.secretRotatedAt),
    max_in_flight: endpoint.maxInFlight,
    created_on: endpoint.createdAt.toISOString(),
    updated_on: endpoint.updatedAt.toISOString(),
  };
}

export function toWebhookDeliveryResponse(delivery: DeliveryRecord): z.input<typeof WebhookDelivery> {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    next_attempt_on: iso(delivery.nextAttemptAt),
    created_on: delivery.createdAt.toISOString(),
    attempts: delivery.attempts.map((attempt) => ({
      attempted_on: attempt.attemptedAt.toISOString(),
      succeeded: attempt.succeeded,
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error: attempt.error,
      response_body: attempt.responseBody,
    })),
  };
}
