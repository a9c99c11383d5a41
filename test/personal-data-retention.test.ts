// Retention of personal data (README, "Personal data"): a store's setting, counted from each order's
// last activity, applied by the daily job on a clock moved forward; and the job's schedule.
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePersonalDataPastRetention } from '../server/domain/privacy/index.js';
import { pollShipment } from '../server/domain/shipments/index.js';
import { RETENTION_CRON, RETENTION_QUEUE } from '../server/jobs/personal-data-retention.js';
import { runAdmin } from './support/admin-cli.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';
import { clockAt } from '../server/domain/kernel/index.js';
import { systemScope } from '../server/domain/access/index.js';
import { decideClaimAsOperator } from './support/service.js';

const DAY = 86_400_000;

let service: TestService;
let shop: SeededStore;
let other: SeededStore;

beforeAll(async () => {
  // An instance that works jobs: it keeps the schedules.
  service = await startService({ work: true, exposeMetrics: true });
  shop = await seedStore(service.db);
  other = await seedStore(service.db);
});
afterAll(async () => service?.close());

const admin = (...args: string[]) => runAdmin(service.databaseUrl, ...args);

async function order(store: SeededStore): Promise<string> {
  const body = orderBody();
  expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body })).status).toBe(201);
  return body.source_order_id as string;
}
const hasPii = async (store: SeededStore, sourceOrderId: string) =>
  (await call(service.baseUrl, 'GET', `/v2/orders/${sourceOrderId}`, { key: store.liveKey })).body.has_pii as boolean;

describe('personal data retention', () => {
  it('is a store setting the operator changes, 1 to 36500 days', async () => {
    expect(await admin('merchant', 'update', '--slug', shop.store.slug, '--personal-data-retention-days', '30')).toMatchObject({ code: 0 });
    const refused = await admin('merchant', 'update', '--slug', shop.store.slug, '--personal-data-retention-days', '0');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/personal-data-retention-days.*from 1 to 36500/s);
    expect((await service.db.store.findUniqueOrThrow({ where: { id: shop.store.id } })).personalDataRetentionDays).toBe(30);
    expect((await service.db.store.findUniqueOrThrow({ where: { id: other.store.id } })).personalDataRetentionDays).toBe(730);
  });

  it('erases orders past the retention counted from their last activity, and waits for open claims', async () => {
    const now = Date.now();
    const plain = await order(shop);
    // Delivered 51 hours after it was registered: its activity is the delivery.
    const delivered = await order(shop);
    const shipment = await call(service.baseUrl, 'POST', '/v1/shipments', { key: shop.liveKey, body: { tracking_number: 'SBXDELIVERED', source_order_id: delivered, courier_id: 'ups' } });
    expect(shipment.status).toBe(201);
    const deliveredAt = new Date(new Date(shipment.body.created_on as string).getTime() + 51 * 3600_000);
    expect(await pollShipment(service.db, service.provider, service.jobs.scheduler, { shipmentId: shipment.body.id as string }, deliveredAt, new Date(deliveredAt.getTime() + 3600_000))).toBe('stop');
    // A claim resolved on day 20: its activity is that day.
    const claimed = await order(shop);
    const claim = await call(service.baseUrl, 'POST', '/v1/claims', { key: shop.liveKey, body: { source_order_id: claimed, reason: 'damaged' } });
    await decideClaimAsOperator(service.db, claim.body.id as string, 'denied', clockAt(new Date(now + 20 * DAY)));
    // A claim still open: the order waits whatever its age.
    const open = await order(shop);
    expect((await call(service.baseUrl, 'POST', '/v1/claims', { key: shop.liveKey, body: { source_order_id: open, reason: 'lost' } })).status).toBe(201);
    // Another store keeps the default, 730 days.
    const elsewhere = await order(other);

    // Day 31: only the plain order is past 30 days (the delivery came on day 2).
    expect(await erasePersonalDataPastRetention(service.db, systemScope('personal-data-retention'), new Date(now + 31 * DAY))).toBe(1);
    expect(await hasPii(shop, plain)).toBe(false);
    expect(await hasPii(shop, delivered)).toBe(true);
    // Day 33: the delivered one too; day 51: the claimed one (resolved on day 20).
    expect(await erasePersonalDataPastRetention(service.db, systemScope('personal-data-retention'), new Date(now + 33 * DAY))).toBe(1);
    expect(await hasPii(shop, delivered)).toBe(false);
    expect(await hasPii(shop, claimed)).toBe(true);
    expect(await erasePersonalDataPastRetention(service.db, systemScope('personal-data-retention'), new Date(now + 51 * DAY))).toBe(1);
    expect(await hasPii(shop, claimed)).toBe(false);
    // Two years on, the open claim still holds its order; the other store's order is erased.
    expect(await erasePersonalDataPastRetention(service.db, systemScope('personal-data-retention'), new Date(now + 731 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await hasPii(shop, open)).toBe(true);
    expect(await hasPii(other, elsewhere)).toBe(false);
    // Nothing left to do: the next run erases nothing.
    expect(await erasePersonalDataPastRetention(service.db, systemScope('personal-data-retention'), new Date(now + 731 * DAY))).toBe(0);
    const audit = await service.db.auditEvent.count({ where: { action: 'order.redacted', actorKind: 'system', actorId: 'personal-data-retention' } });
    expect(audit).toBeGreaterThanOrEqual(4);
  });

  it('runs as a job on an instance that works jobs, and counts what it erased', async () => {
    const brief = await seedStore(service.db);
    await service.db.store.update({ where: { id: brief.store.id }, data: { personalDataRetentionDays: 1 } });
    const sourceOrderId = await order(brief);
    // The service's own clock moves two days on; the job reads it.
    service.clock.advance(2 * DAY);
    const boss = new PgBoss({ connectionString: service.databaseUrl, schedule: false, supervise: false });
    await boss.start();
    try {
      // What the schedule sends each day, sent now.
      await boss.send(RETENTION_QUEUE, {});
    } finally {
      await boss.stop({ graceful: false });
    }
    await expect.poll(async () => hasPii(brief, sourceOrderId), { timeout: 15_000 }).toBe(false);
    // The job counts once its whole run returns, a moment after the erasure commits: poll for it too.
    const retentionErasures = async () => {
      const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
      return Number(/^personal_data_erasures_total\{cause="retention"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
    };
    await expect.poll(retentionErasures, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
  });

  it('runs daily from a pg-boss schedule', async () => {
    const schedules = await service.db.$queryRaw<Array<{ name: string; cron: string; timezone: string | null }>>`SELECT name, cron, timezone FROM pgboss.schedule`;
    expect(schedules).toContainEqual({ name: RETENTION_QUEUE, cron: RETENTION_CRON, timezone: 'UTC' });
  });
});
