// The outbox survives a crash: the real server (server/main.ts in a child process) commits an
// order and its event, and is SIGKILLed before any delivery was attempted. Restarted on the same
// database, it delivers the event, once.
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../server/db/client.js';
import { call, orderBody } from './support/http.js';
import { startEventReceiver, verifiedWith, type EventReceiver, type ReceivedEvent } from './support/event-receiver.js';
import { freePort, spawnServer, type ServerProcess } from './support/server-process.js';
import { createTestDatabase, seedStore } from './support/service.js';

const servers: ServerProcess[] = [];
let receiver: EventReceiver | undefined;
afterAll(async () => {
  for (const server of servers) server.kill();
  await receiver?.close();
});

describe('an event committed just before a crash', () => {
  it('is delivered after the restart, exactly once', async () => {
    const databaseUrl = await createTestDatabase();
    const db = createDatabase(databaseUrl);
    const shop = await seedStore(db);
    await db.$disconnect();
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
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toEqual([]);
    first.process.kill('SIGKILL');
    await first.exited;

    const secondPort = await freePort();
    const second = spawnServer(env(secondPort, 200));
    servers.push(second);
    await second.waitFor('listening on', 45_000);
    await receiver.waitFor((received) => received.length >= 1, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery?.event).toMatchObject({ type: 'order.created', data: order.body });
    expect(delivery).toBeDefined();
    expect(verifiedWith(endpoint.body.secret as string, delivery as ReceivedEvent)).toEqual(delivery?.event);
    second.signal('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
