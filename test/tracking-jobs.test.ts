// Tracking polls run as queue jobs: two server instances on one database share the work and poll
// each shipment exactly once per round, and each poll schedules the next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipmentToTrack, TrackingProvider } from '../server/domain/tracking.js';
import { createSandboxProvider } from '../server/tracking/sandbox.js';
import { call, orderBody } from './support/http.js';
import { createTestDatabase, seedStore, startService, type SeededStore, type TestService } from './support/service.js';

function countingProvider(counts: Map<string, number>): TrackingProvider {
  const sandbox = createSandboxProvider();
  return {
    name: 'sandbox',
    register: (shipment) => sandbox.register(shipment),
    fetch: async (shipment: ShipmentToTrack, now: Date) => {
      counts.set(shipment.trackingNumber, (counts.get(shipment.trackingNumber) ?? 0) + 1);
      return sandbox.fetch(shipment, now);
    },
  };
}

let first: TestService;
let second: TestService;
let shop: SeededStore;
const fetches = new Map<string, number>();

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  const options = { databaseUrl, work: true, pollIntervalSeconds: 3600, provider: countingProvider(fetches) };
  first = await startService(options);
  second = await startService(options);
  shop = await seedStore(first.db);
});
afterAll(async () => {
  await first?.close();
  await second?.close();
});

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('tracking jobs on two instances', () => {
  it('poll each shipment once, and schedule its next poll', async () => {
    const numbers = Array.from({ length: 8 }, (_, i) => `ZZJOB${Date.now()}${i}`);
    // Half the shipments are registered through each instance.
    await Promise.all(
      numbers.map(async (trackingNumber, i) => {
        const service = i % 2 === 0 ? first : second;
        const body = orderBody();
        expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
        const created = await call(service.baseUrl, 'POST', '/v1/shipments', {
          key: shop.liveKey,
          body: { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'ups' },
        });
        expect(created.status).toBe(201);
      }),
    );
    await until(async () => (await first.db.shipment.count({ where: { lastPolledAt: { not: null } } })) === numbers.length, 30_000);
    // Give a duplicate poll, if there were one, time to happen.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(Object.fromEntries(numbers.map((n) => [n, fetches.get(n)]))).toEqual(Object.fromEntries(numbers.map((n) => [n, 1])));

    const next = await first.db.$queryRawUnsafe<Array<{ n: bigint }>>(
      "SELECT count(*) AS n FROM pgboss.job WHERE name = 'tracking-poll' AND state = 'created' AND start_after > now() + interval '50 minutes'",
    );
    expect(Number(next[0]?.n)).toBe(numbers.length);
  }, 60_000);
});
