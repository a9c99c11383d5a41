// The console manages a store's webhook endpoints through real HTTP on PostgreSQL, with the same
// domain operations as the API (docs/console.md, Developers): add one (its secret answered once),
// change it, disable and enable it, rotate its secret, send it a test event and resend an event
// from its delivery log (both delivered, signed, to a local receiver that the standardwebhooks
// package verifies), delete it. Owners and admins only; another store's admin finds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../contract/merchant-events.js';
import { deliveriesSettled } from './support/event-deliveries.js';
import { startEventReceiver, verifiedWith, type EventReceiver } from './support/event-receiver.js';
import { call, orderBody } from './support/http.js';
import { consoleCall, loggedIn, rival, service, shop, startConsoleApiService, stopConsoleApiService } from './support/console-api.js';

const HOUR_MS = 3_600_000;
let receiver: EventReceiver;

beforeAll(async () => {
  await startConsoleApiService({ events: { workers: true, retryScheduleSeconds: [1, 1, 1], dispatchIntervalMs: 50 } });
  receiver = await startEventReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stopConsoleApiService();
});

describe('webhook endpoints in the console', () => {
  it('an admin adds, edits, disables, enables, rotates, tests, resends and deletes an endpoint', async () => {
    const { browser } = await loggedIn(shop, 'admin');
    // Add: the secret comes once, in this answer only.
    const added = await consoleCall(browser, 'POST', '/console/api/webhook_endpoints', { url: receiver.url, events: ['order.created', 'claim.created'], description: 'Fulfilment app' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const id = added.body.id as string;
    const secret = added.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(added.body).toMatchObject({ url: receiver.url, events: ['order.created', 'claim.created'], description: 'Fulfilment app', status: 'enabled' });
    const listed = await consoleCall(browser, 'GET', '/console/api/webhook_endpoints');
    expect(listed.body.data).toEqual([expect.objectContaining({ id })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // The same endpoint over the API: one store, one set of endpoints.
    expect((await call(service.baseUrl, 'GET', `/v1/webhook_endpoints/${id}`, { key: shop.liveKey })).body).toMatchObject({ id, description: 'Fulfilment app' });

    // Bad input: every bad field named, nothing written.
    const bad = await consoleCall(browser, 'POST', '/console/api/webhook_endpoints', { url: 'not a url', events: [] });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as Array<{ field: string }>).map((error) => error.field).sort()).toEqual(['events', 'url']);
    expect(await service.db.webhookEndpoint.count({ where: { storeId: shop.store.id } })).toBe(1);

    // Edit the events and the description.
    const edited = await consoleCall(browser, 'PATCH', `/console/api/webhook_endpoints/${id}`, { events: ['order.created'], description: null });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ events: ['order.created'], description: null });

    // A test event: the first type it receives, mode "test", sample data, signed with its secret.
    const tested = await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/test`, {});
    expect(tested.status, JSON.stringify(tested.body)).toBe(202);
    expect(tested.body).toMatchObject({ event_type: 'order.created', status: 'pending' });
    await receiver.waitFor((received) => received.length === 1);
    const delivered = receiver.received[0]!;
    expect(verifiedWith(secret, delivered)).toMatchObject({ id: tested.body.event_id, type: 'order.created', mode: 'test' });
    expect(delivered.event.data).toMatchObject({ source_order_id: 'test_1001', source_order_number: '#1001', insurance_selected: true });
    expect(String(delivered.event.data.id)).toMatch(/^test_/);
    // A type it does not receive is refused, and so is a type that is not one.
    const wrongType = await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/test`, { type: 'claim.created' });
    expect(wrongType.status).toBe(409);
    expect(wrongType.body.error_code).toBe('conflict');
    expect((await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/test`, { type: 'order.exploded' })).status).toBe(400);
    // What happened in the store leaves the test event out.
    const events = await call(service.baseUrl, 'GET', '/v1/events', { key: shop.liveKey });
    expect((events.body.data as Array<{ id: string }>).map((event) => event.id)).not.toContain(tested.body.event_id);

    // A real event, then resent from the delivery log: the same event id, delivered twice.
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody() })).status).toBe(201);
    await receiver.waitFor((received) => received.length === 2);
    const real = receiver.received[1]!;
    expect(real.event).toMatchObject({ type: 'order.created', mode: 'live' });
    const resent = await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/resend`, { event_id: real.event.id });
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ event_id: real.event.id, status: 'pending' });
    await receiver.waitFor((received) => received.length === 3);
    expect(receiver.received[2]!.event.id).toBe(real.event.id);
    expect((await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/resend`, { event_id: 'evt_nothing' })).status).toBe(404);

    // Rotate: a new secret once; both sign for the overlap, which the answer dates.
    const rotated = await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).not.toBe(secret);
    const overlap = new Date(rotated.body.previous_secret_expires_on as string).getTime() - service.clock.now().getTime();
    expect(Math.abs(overlap - 24 * HOUR_MS)).toBeLessThan(60_000);
    await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/test`, {});
    await receiver.waitFor((received) => received.length === 4);
    expect(verifiedWith(newSecret, receiver.received[3]!)).toMatchObject({ mode: 'test' });
    expect(verifiedWith(secret, receiver.received[3]!)).toMatchObject({ mode: 'test' });

    // Disable: nothing is sent, and a test is refused until it is enabled again.
    const disabled = await consoleCall(browser, 'PATCH', `/console/api/webhook_endpoints/${id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: 'merchant' });
    expect((await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/test`, {})).status).toBe(409);
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody() })).status).toBe(201);
    expect((await consoleCall(browser, 'PATCH', `/console/api/webhook_endpoints/${id}`, { enabled: true })).body).toMatchObject({ status: 'enabled', disabled_reason: null });
    await deliveriesSettled(service.db, shop.store.id);
    expect(receiver.received).toHaveLength(4);

    // The delivery log shows every one: three test or resent, one real, newest first.
    const log = await consoleCall(browser, 'GET', `/console/api/webhook_endpoints/${id}/deliveries`);
    expect((log.body.data as Array<{ status: string }>).map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);

    // Delete: gone for the console and for the API.
    const deleted = await consoleCall(browser, 'DELETE', `/console/api/webhook_endpoints/${id}`);
    expect(deleted.body).toEqual({ id, deleted: true });
    expect((await call(service.baseUrl, 'GET', `/v1/webhook_endpoints/${id}`, { key: shop.liveKey })).status).toBe(404);
    const audit = await service.db.auditEvent.findMany({ where: { storeId: shop.store.id, subjectId: id }, orderBy: { id: 'asc' }, select: { action: true, actorKind: true } });
    expect(audit.map((row) => row.action)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.test_sent',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.test_sent',
      'webhook_endpoint.updated',
      'webhook_endpoint.updated',
      'webhook_endpoint.deleted',
    ]);
    expect(new Set(audit.map((row) => row.actorKind))).toEqual(new Set(['console_user']));
  });

  it('sends a test event of every type, each with the shape of a real one', async () => {
    const store = shop;
    const { browser } = await loggedIn(store, 'owner');
    const added = await consoleCall(browser, 'POST', '/console/api/webhook_endpoints', { url: receiver.url, events: ['*'] });
    const id = added.body.id as string;
    const before = receiver.received.length;
    for (const type of EVENT_TYPES) expect((await consoleCall(browser, 'POST', `/console/api/webhook_endpoints/${id}/test`, { type })).status).toBe(202);
    await receiver.waitFor((received) => received.length === before + EVENT_TYPES.length);
    const types = receiver.received.slice(before).map((delivery) => delivery.event.type);
    expect([...types].sort()).toEqual([...EVENT_TYPES].sort());
    const byType = new Map(receiver.received.slice(before).map((delivery) => [delivery.event.type, delivery.event.data]));
    expect(byType.get('shipment.created')).toMatchObject({ tracking_number: '1Z999AA10123456784', courier: 'ups' });
    expect(byType.get('shipment.delivery_status_changed')).toMatchObject({ delivery_status: 'Delivered', latest_checkpoint: expect.objectContaining({ status: 'Delivered' }) });
    expect(byType.get('claim.status_changed')).toMatchObject({ status: 'in_review', status_change: { from_status: 'open', to_status: 'in_review' } });
    expect(byType.get('premium.reversed')).toMatchObject({ paid_to_insure: 0, reversal: expect.objectContaining({ premium_remaining: 0 }) });
    await consoleCall(browser, 'DELETE', `/console/api/webhook_endpoints/${id}`);
  });

  it('refuses a viewer (403) and finds nothing of another store (404)', async () => {
    const { browser: owner } = await loggedIn(shop, 'owner');
    const added = await consoleCall(owner, 'POST', '/console/api/webhook_endpoints', { url: receiver.url, events: ['order.created'] });
    const id = added.body.id as string;
    const { browser: viewer } = await loggedIn(shop, 'viewer');
    for (const [method, path, body] of [
      ['GET', '/console/api/webhook_endpoints', undefined],
      ['POST', '/console/api/webhook_endpoints', { url: receiver.url, events: ['order.created'] }],
      ['PATCH', `/console/api/webhook_endpoints/${id}`, { enabled: false }],
      ['DELETE', `/console/api/webhook_endpoints/${id}`, undefined],
      ['POST', `/console/api/webhook_endpoints/${id}/rotate_secret`, undefined],
      ['POST', `/console/api/webhook_endpoints/${id}/test`, {}],
      ['GET', `/console/api/webhook_endpoints/${id}/deliveries`, undefined],
      ['GET', '/console/api/request_log', undefined],
    ] as const) {
      const answer = await consoleCall(viewer, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    const { browser: stranger } = await loggedIn(rival, 'admin');
    expect((await consoleCall(stranger, 'PATCH', `/console/api/webhook_endpoints/${id}`, { enabled: false })).status).toBe(404);
    expect((await consoleCall(stranger, 'DELETE', `/console/api/webhook_endpoints/${id}`)).status).toBe(404);
    expect((await consoleCall(stranger, 'POST', `/console/api/webhook_endpoints/${id}/rotate_secret`)).status).toBe(404);
    expect((await consoleCall(stranger, 'POST', `/console/api/webhook_endpoints/${id}/test`, {})).status).toBe(404);
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody() })).status).toBe(201);
    const ownEvent = await service.db.event.findFirstOrThrow({ where: { storeId: shop.store.id, mode: 'live' }, select: { id: true } });
    expect((await consoleCall(stranger, 'POST', `/console/api/webhook_endpoints/${id}/resend`, { event_id: ownEvent.id })).status).toBe(404);
    const unchanged = await service.db.webhookEndpoint.findFirstOrThrow({ where: { id } });
    expect(unchanged.enabled).toBe(true);
    expect(unchanged.secretRotatedAt).toBeNull();
    await consoleCall(owner, 'DELETE', `/console/api/webhook_endpoints/${id}`);
  });
});
