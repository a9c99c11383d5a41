// How often a shipment is polled as it ages (docs/tracking.md, "How often"): the schedule's steps
// at their edges, the end of the window, and what one never-delivered shipment costs in all,
// worked out by hand from the steps; and the poll job scheduling a ten-day-old shipment's next
// poll six hours on, through the real queue.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextPollAt, POLL_BACKOFF, pollsOverWindow, POLLING_GIVES_UP_AFTER_MS } from '../server/domain/shipments/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type TestService } from './support/service.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const registered = new Date('2026-11-01T00:00:00Z');
const after = (ms: number) => new Date(registered.getTime() + ms);
const waitAt = (ageMs: number, baseSeconds = 3600) => nextPollAt(registered, after(ageMs), baseSeconds).getTime() - after(ageMs).getTime();

describe('the polling schedule', () => {
  it('polls every base interval for three days, then every 3, 6 and 12', () => {
    expect(waitAt(0)).toBe(HOUR);
    expect(waitAt(3 * DAY - 1)).toBe(HOUR);
    expect(waitAt(3 * DAY)).toBe(3 * HOUR);
    expect(waitAt(7 * DAY - 1)).toBe(3 * HOUR);
    expect(waitAt(7 * DAY)).toBe(6 * HOUR);
    expect(waitAt(14 * DAY)).toBe(12 * HOUR);
    expect(waitAt(59 * DAY)).toBe(12 * HOUR);
  });

  it('scales with the base interval the operator sets', () => {
    expect(waitAt(0, 600)).toBe(10 * 60_000);
    expect(waitAt(10 * DAY, 600)).toBe(60 * 60_000);
  });

  it('ends where polling gives up, 60 days after registration', () => {
    expect(POLL_BACKOFF.at(-1)?.untilAgeMs).toBe(POLLING_GIVES_UP_AFTER_MS);
    expect(POLLING_GIVES_UP_AFTER_MS).toBe(60 * DAY);
  });

  it('costs a never-delivered shipment 72 + 32 + 28 + 92 = 224 polls over the window, against 1,440 hourly', () => {
    // 3 days hourly: 72; days 3-7 every 3 h: 32; days 7-14 every 6 h: 28; days 14-60 every 12 h: 92.
    expect(pollsOverWindow(3600)).toBe(224);
  });
});

describe('the poll job', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ work: true, pollIntervalSeconds: 3600 });
  });
  afterAll(async () => service?.close());

  it("schedules a ten-day-old shipment's next poll six hours on", async () => {
    const shop = await seedStore(service.db);
    // Registered ten days ago; its first poll runs now.
    service.clock.advance(-10 * DAY);
    const body = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
    const created = await call(service.baseUrl, 'POST', '/v1/shipments', { key: shop.liveKey, body: { tracking_number: `ZZAGED${Date.now()}`, source_order_id: body.source_order_id, courier_id: 'ups' } });
    expect(created.status).toBe(201);
    service.clock.advance(10 * DAY);
    const waiting = async () =>
      service.db.$queryRawUnsafe<Array<{ hours: number }>>(
        `SELECT extract(epoch FROM start_after - now()) / 3600 AS hours FROM pgboss.job
          WHERE name = 'tracking-poll' AND data->>'shipmentId' = $1 AND state = 'created' AND start_after > now()`,
        created.body.id,
      );
    await vi.waitFor(async () => expect(await waiting()).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const [next] = await waiting();
    expect(Number(next?.hours)).toBeGreaterThan(5.9);
    expect(Number(next?.hours)).toBeLessThanOrEqual(6);
  }, 40_000);
});
