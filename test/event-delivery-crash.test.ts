// The outbox survives a crash: the real server (server/main.ts in a child process) commits an
// order and its event, and is SIGKILLed before any delivery was attempted. Restarted on the same
// database, it delivers the event, once.
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../server/db/client.js';
import { call, orderBody } from './support/http.js';
import { deliveriesSettled } from './support/event-deliveries.js';
import { startEventReceiver, verifiedWith, type EventReceiver, type ReceivedEvent } from './support/event-receiver.js';
import { freePort, spawnServer, type ServerProcess } from './support/server-process.js';
import { createTestDatabase, seedStore } from './support/service.js';

const servers: ServerProcess[] = [];
let receiver: EventReceiver | undefined;
let db: Database | undefined;
afterAll(async () => {
  for (const server of servers) server.kill();
  await receiver?.close();
  await db?.$disconnect();
});

/** The store's deliveries, read from the database the servers share. */
const deliveriesOf = (database: Database, storeId: string) =>
  database.$queryRawUnsafe<Array<{ event_id: string; status: string; attempt_count: number; leased_until: Date | null; attempts: number }>>(
    `SELECT d.event_id, d.status, d.attempt_count, d.leased_until,
            (SELECT count(*)::int FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
      WHERE w.store_id = $1::uuid ORDER BY d.seq`,
    storeId,
  );

describe('an event committed just before a crash', () => {
  it('is delivered after the restart, exactly once', async () => {
    const databaseUrl = await createTestDatabase();
    const database = createDatabase(databaseUrl);
    db = database;
    const shop = await seedStore(database);
    receiver = await startEventReceiver();
    const env = (port: number, dispatchIntervalMs: number) => ({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMITS_ENABLED: 'false',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: String(dispatchIntervalMs),
    });

    // The first server looks for due deliveries once, at start, and then not for a minute: the
    // event it commits waits in the outbox when the process is killed.
    const firstPort = await freePort();
    const first = spawnServer(env(firstPort, 60_000));
    servers.push(first);
    await first.waitFor('listening on', 45_000);
    const base = `http://127.0.0.1:${firstPort}`;
    const endpoint = await call(base, 'POST', '/v1/webhook_endpoints', { key: shop.liveKey, body: { url: receiver.url, events: ['order.created'] } });
    expect(endpoint.status).toBe(201);
    const order = await call(base, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody() });
    expect(order.status).toBe(201);
    first.process.kill('SIGKILL');
    await first.exited;
    // Not a sleep to see nothing arrive: the dead server never took the delivery. A worker leases a
    // delivery before it posts it, and this one was never leased nor attempted, so nothing was sent.
    expect(await deliveriesOf(database, shop.store.id)).toEqual([{ event_id: expect.any(String), status: 'pending', attempt_count: 0, leased_until: null, attempts: 0 }]);
    expect(receiver.received).toEqual([]);

    const secondPort = await freePort();
    const second = spawnServer(env(secondPort, 200));
    servers.push(second);
    await second.waitFor('listening on', 45_000);
    await receiver.waitFor((received) => received.length >= 1, 20_000);
    // Not a sleep for a duplicate to show up: once nothing is pending and no delivery job is queued
    // or running, no attempt can still be on its way.
    await deliveriesSettled(database, shop.store.id);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(await deliveriesOf(database, shop.store.id)).toEqual([{ event_id: delivery?.event.id, status: 'succeeded', attempt_count: 1, leased_until: null, attempts: 1 }]);
    expect(delivery?.event).toMatchObject({ type: 'order.created', data: order.body });
    expect(delivery).toBeDefined();
    expect(verifiedWith(endpoint.body.secret as string, delivery as ReceivedEvent)).toEqual(delivery?.event);
    // Positive control: a second delivery of the event, made on purpose (a resend), is seen by the
    // same wait and the same count, so a duplicate from the restart would have been.
    const resent = await call(`http://127.0.0.1:${secondPort}`, 'POST', `/v1/events/${delivery?.event.id}/resend`, { key: shop.liveKey, body: {} });
    expect(resent.status).toBe(202);
    await deliveriesSettled(database, shop.store.id);
    expect(receiver.received.map((received) => received.event.id)).toEqual([delivery?.event.id, delivery?.event.id]);
    second.signal('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
