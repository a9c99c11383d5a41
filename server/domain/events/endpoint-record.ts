// A store's webhook endpoints (README, "Events and outbound webhooks"): where its events go, which
// types, and the secret that signs them. The secret is shown once, when made; a rotation answers a
// new one and keeps signing with the old one beside it for 24 hours. This file holds what every
// endpoint operation shares; each operation has its own file.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { ALL_EVENTS } from '../../../contract/merchant-events.js';
import { ENDPOINT_SECRET_PREFIX, type WebhookEndpointRequest, type WebhookEndpointUpdateRequest } from '../../../contract/webhook-endpoints.js';
import type { FieldError } from '../../../contract/errors.js';
import { endpointUrlProblems } from './endpoint-urls.js';
import { AppError } from '../kernel/index.js';

export type EndpointInput = z.output<typeof WebhookEndpointRequest>;

export type EndpointPatch = z.output<typeof WebhookEndpointUpdateRequest>;

export interface EndpointRecord {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  secretRotatedAt: Date | null;
  maxInFlight: number;
  createdAt: Date;
  updatedAt: Date;
}

export const endpointSelect = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  disabledReason: true,
  failingSince: true,
  secretRotatedAt: true,
  maxInFlight: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** A store may have this many endpoints: enough for any integration, and a bound on the fan-out of each event. */
export const MAX_ENDPOINTS_PER_STORE = 16;

export const endpointNotFound = (id: string) => new AppError('not_found', `No webhook endpoint with id "${id}" in this store.`);

/** Whether an endpoint subscribed to `events` receives an event of this type. */
export const subscribesTo = (events: readonly string[], type: string) => events.includes(type) || events.includes(ALL_EVENTS);

/**
 * 409 unless the named endpoint may be sent an event of `type` now: enabled, and subscribed to it.
 * `fields` name the request's fields for the endpoint and the type.
 */
export function assertEndpointTakes(endpoint: { id: string; enabled: boolean; events: readonly string[] }, type: string, fields: { endpoint: string; type: string }): void {
  if (!endpoint.enabled) throw new AppError('conflict', `Endpoint "${endpoint.id}" is disabled; enable it first.`, [{ field: fields.endpoint, message: 'is disabled' }]);
  if (!subscribesTo(endpoint.events, type)) {
    throw new AppError('conflict', `Endpoint "${endpoint.id}" does not receive ${type} events.`, [{ field: fields.type, message: `does not receive ${type}` }]);
  }
}

/** The same rule in SQL, for the outbox's fan-out: an enabled endpoint (alias w) subscribed to the event type `typeSql`. */
export const receivesSql = (typeSql: string) => `w.enabled AND (${typeSql} = ANY (w.events) OR '${ALL_EVENTS}' = ANY (w.events))`;

/** A Standard Webhooks secret: the prefix and 32 random bytes in base64. */
export function newEndpointSecret(): string {
  return `${ENDPOINT_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function assertUrlAllowed(url: string, allowPrivateNetworks: boolean): void {
  const problems = endpointUrlProblems(url, { allowPrivateNetworks });
  if (problems.length > 0) {
    throw new AppError('invalid_request', 'The endpoint URL cannot receive events.', [{ field: 'url', message: problems.join('; ') }]);
  }
}

/** Each type once: ["*"] with others, or a repeat, is a mistake worth naming. */
export function assertEventList(events: readonly string[]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  events.forEach((type, index) => {
    if (seen.has(type)) errors.push({ field: `events[${index}]`, message: `repeats ${type}` });
    seen.add(type);
  });
  if (events.includes(ALL_EVENTS) && events.length > 1) errors.push({ field: 'events', message: `"${ALL_EVENTS}" already means every type; send it alone` });
  if (errors.length > 0) throw new AppError('unprocessable', 'The event list repeats itself.', errors);
}
