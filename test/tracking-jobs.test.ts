// Tracking polls run as queue jobs: two server instances on one database share the work and poll
// each shipment exactly once per round, and each poll schedules the next.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShipmentToTrack, TrackingProvider } from '../server/domain/shipments/index.js';
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

/** The tracking-poll jobs of each shipment, by state, with whether the job is due within the round. */
interface PollJobs {
  shipmentId: string;
  /** The shipment's store, carried by the job so its queries find the shipment by its whole key. */
  storeId: string | null;
  state: string;
  dueLater: boolean;
}
async function pollJobs(service: TestService, shipmentIds: string[]): Promise<PollJobs[]> {
  return service.db.$queryRawUnsafe<PollJobs[]>(
    `SELECT data->>'shipmentId' AS "shipmentId", data->>'storeId' AS "storeId", state::text AS state, start_after > now() + interval '50 minutes' AS "dueLater"
       FROM pgboss.job WHERE name = 'tracking-poll' AND data->>'shipmentId' = ANY($1::text[])
      ORDER BY 1, 2`,
    shipmentIds,
  );
}

describe('tracking jobs on two instances', () => {
  // No fixed sleep: the test waits for the queue itself to say the round is over, then stops the
  // workers (which waits for any handler still running) before it counts the provider's fetches.
  // Mutation-checked: fails (in about 2 s, not at the timeout) when pollShipment schedules the next
  // poll with no start_after (due at once), and when schedulePoll sends each job twice on a queue
  // whose policy is 'standard' instead of 'stately' (every shipment polled twice).
  it('poll each shipment once, and schedule its next poll', async () => {
    const numbers = Array.from({ length: 8 }, (_, i) => `ZZJOB${Date.now()}${i}`);
    // Half the shipments are registered through each instance.
    const shipmentIds = await Promise.all(
      numbers.map(async (trackingNumber, i) => {
        const service = i % 2 === 0 ? first : second;
        const body = orderBody();
        const order = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body });
        expect(order.status, JSON.stringify(order.body)).toBe(201);
        const created = await call(service.baseUrl, 'POST', '/v1/shipments', {
          key: shop.liveKey,
          body: { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'ups' },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return created.body.id as string;
      }),
    );

    // The round is over when every shipment's first poll job is completed and its next one waits,
    // not due for an hour, and nothing else is queued, running or retrying for it: from then on no
    // worker can take a poll of these shipments before the hour is up.
    const settled = shipmentIds.flatMap((id) => [
      { shipmentId: id, storeId: shop.store.id, state: 'completed', dueLater: false },
      { shipmentId: id, storeId: shop.store.id, state: 'created', dueLater: true },
    ]);
    await vi.waitFor(
      async () => {
        const jobs = await pollJobs(first, shipmentIds);
        // A duplicate poll shows in the counts before the queue settles: fail at once, not at the timeout.
        if (numbers.some((n) => (fetches.get(n) ?? 0) > 1)) return;
        expect(jobs).toEqual(expect.arrayContaining(settled));
        expect(jobs).toHaveLength(settled.length);
      },
      { timeout: 30_000, interval: 50 },
    );
    // Wait out a handler that would still be running (stop() lets the jobs in hand finish), so a
    // duplicate poll that had started cannot land after the count.
    await Promise.all([first.jobs.stop(), second.jobs.stop()]);

    expect(Object.fromEntries(numbers.map((n) => [n, fetches.get(n)]))).toEqual(Object.fromEntries(numbers.map((n) => [n, 1])));
    expect(await pollJobs(first, shipmentIds)).toEqual(expect.arrayContaining(settled));
    expect(await pollJobs(first, shipmentIds)).toHaveLength(settled.length);
  }, 60_000);
});
