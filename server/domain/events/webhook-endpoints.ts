// A store's webhook endpoints (README, "Events and outbound webhooks"): where its events go, which
// types, and the secret that signs them. The secret is shown once, when made; a rotation answers a
// new one and keeps signing with the old one beside it for 24 hours.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { ALL_EVENTS } from '../../../contract/merchant-events.js';
import {
  ENDPOINT_SECRET_PREFIX,
  SECRET_ROTATION_OVERLAP_HOURS,
  type WebhookEndpointRequest,
  type WebhookEndpointUpdateRequest,
} from '../../../contract/webhook-endpoints.js';
import type { FieldError } from '../../../contract/errors.js';
import type { Database } from '../../db/client.js';
import { endpointUrlProblems } from './endpoint-urls.js';
import type { Scope } from '../access/index.js';
import { recordAudit } from '../access/index.js';
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
  createdAt: Date;
  updatedAt: Date;
}

const endpointSelect = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  disabledReason: true,
  failingSince: true,
  secretRotatedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** A store may have this many endpoints: enough for any integration, and a bound on the fan-out of each event. */
export const MAX_ENDPOINTS_PER_STORE = 16;

export const endpointNotFound = (id: string) => new AppError('not_found', `No webhook endpoint with id "${id}" in this store.`);

/** Whether an endpoint subscribed to `events` receives an event of this type. */
export const subscribesTo = (events: readonly string[], type: string) => events.includes(type) || events.includes(ALL_EVENTS);

/** The same rule in SQL, for the outbox's fan-out: an enabled endpoint (alias w) subscribed to the event type `typeSql`. */
export const receivesSql = (typeSql: string) => `w.enabled AND (${typeSql} = ANY (w.events) OR '${ALL_EVENTS}' = ANY (w.events))`;

/** A Standard Webhooks secret: the prefix and 32 random bytes in base64. */
export function newEndpointSecret(): string {
  return `${ENDPOINT_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function assertUrlAllowed(url: string, allowPrivateNetworks: boolean): void {
  const problems = endpointUrlProblems(url, { allowPrivateNetworks });
  if (problems.length > 0) {
    throw new AppError('invalid_request', 'The endpoint URL cannot receive events.', [{ field: 'url', message: problems.join('; ') }]);
  }
}

/** Each type once: ["*"] with others, or a repeat, is a mistake worth naming. */
function assertEventList(events: readonly string[]): void {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  events.forEach((type, index) => {
    if (seen.has(type)) errors.push({ field: `events[${index}]`, message: `repeats ${type}` });
    seen.add(type);
  });
  if (events.includes(ALL_EVENTS) && events.length > 1) errors.push({ field: 'events', message: `"${ALL_EVENTS}" already means every type; send it alone` });
  if (errors.length > 0) throw new AppError('unprocessable', 'The event list repeats itself.', errors);
}

export async function createEndpoint(
  db: Database,
  scope: Scope,
  input: EndpointInput,
  now: Date,
  settings: { allowPrivateNetworks: boolean },
): Promise<EndpointRecord & { secret: string }> {
  assertUrlAllowed(input.url, settings.allowPrivateNetworks);
  assertEventList(input.events);
  return db.$transaction(async (tx) => {
    // The store row lock makes the count and the insert one step across instances.
    await tx.$queryRaw`SELECT id FROM stores WHERE id = ${scope.store.id}::uuid FOR UPDATE`;
    const count = await tx.webhookEndpoint.count({ where: { storeId: scope.store.id } });
    if (count >= MAX_ENDPOINTS_PER_STORE) {
      throw new AppError('conflict', `A store can have at most ${MAX_ENDPOINTS_PER_STORE} webhook endpoints; delete one first.`);
    }
    const secret = newEndpointSecret();
    const row = await tx.webhookEndpoint.create({
      data: {
        storeId: scope.store.id,
        url: input.url,
        description: input.description ?? null,
        events: input.events,
        secret,
        createdAt: now,
        updatedAt: now,
      },
      select: endpointSelect,
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.created', subject: { type: 'webhook_endpoint', id: row.id }, at: now });
    return { ...row, secret };
  });
}

export async function listEndpoints(db: Database, scope: Scope): Promise<EndpointRecord[]> {
  return db.webhookEndpoint.findMany({ where: { storeId: scope.store.id }, select: endpointSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function getEndpoint(db: Database, scope: Scope, id: string): Promise<EndpointRecord> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, storeId: scope.store.id }, select: endpointSelect });
  if (!row) throw endpointNotFound(id);
  return row;
}

export async function updateEndpoint(
  db: Database,
  scope: Scope,
  id: string,
  patch: EndpointPatch,
  now: Date,
  settings: { allowPrivateNetworks: boolean },
): Promise<EndpointRecord> {
  if (patch.url !== undefined) assertUrlAllowed(patch.url, settings.allowPrivateNetworks);
  if (patch.events !== undefined) assertEventList(patch.events);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ enabled: boolean }>>`
      SELECT enabled FROM webhook_endpoints WHERE id = ${id} AND store_id = ${scope.store.id}::uuid FOR UPDATE`;
    const current = locked[0];
    if (current === undefined) throw endpointNotFound(id);
    const enabling = patch.enabled === true && !current.enabled;
    const row = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...(patch.url === undefined ? {} : { url: patch.url }),
        ...(patch.events === undefined ? {} : { events: patch.events }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled, disabledReason: patch.enabled ? null : 'merchant' }),
        // Re-enabled: its failing streak starts over.
        ...(enabling ? { failingSince: null } : {}),
        updatedAt: now,
      },
      select: endpointSelect,
    });
    await recordAudit(tx, scope.actor, {
      storeId: scope.store.id,
      action: 'webhook_endpoint.updated',
      subject: { type: 'webhook_endpoint', id },
      details: { fields: Object.keys(patch).filter((key) => patch[key as keyof EndpointPatch] !== undefined) },
      at: now,
    });
    return row;
  });
}

export async function deleteEndpoint(db: Database, scope: Scope, id: string, now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    const deleted = await tx.webhookEndpoint.deleteMany({ where: { id, storeId: scope.store.id } });
    if (deleted.count === 0) throw endpointNotFound(id);
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.deleted', subject: { type: 'webhook_endpoint', id }, at: now });
  });
}

/** A new secret; the current one keeps signing beside it for the overlap (a previous one still overlapping is dropped). */
export async function rotateEndpointSecret(
  db: Database,
  scope: Scope,
  id: string,
  now: Date,
): Promise<EndpointRecord & { secret: string; previousSecretExpiresAt: Date }> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ secret: string }>>`
      SELECT secret FROM webhook_endpoints WHERE id = ${id} AND store_id = ${scope.store.id}::uuid FOR UPDATE`;
    const current = locked[0];
    if (current === undefined) throw endpointNotFound(id);
    const secret = newEndpointSecret();
    const previousSecretExpiresAt = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_HOURS * 3600_000);
    const row = await tx.webhookEndpoint.update({
      where: { id },
      data: { secret, previousSecret: current.secret, previousSecretExpiresAt, secretRotatedAt: now, updatedAt: now },
      select: endpointSelect,
    });
    await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'webhook_endpoint.secret_rotated', subject: { type: 'webhook_endpoint', id }, at: now });
    return { ...row, secret, previousSecretExpiresAt };
  });
}
