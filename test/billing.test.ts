// Billing statements through real HTTP: monthly sums of the premium ledger, credits by ISO week,
// UTC month boundaries, store isolation, test keys, validation, and the admin CLI's `billing report`.
// Every figure below is computed by hand from the store's pricing (1.5 %, minimum 0.98, half up).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToMajorNumber } from '../contract/money.js';
import { isoWeek, monthBounds } from '../server/domain/billing/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

let service: TestService;
let shop: SeededStore;
let otherShop: SeededStore;

const statement = (month: string | undefined, key = shop.liveKey) =>
  call(service.baseUrl, 'GET', `/v1/billing/statements${month === undefined ? '' : `?month=${month}`}`, { key });

async function placeOrder(store: SeededStore, subtotal: number, sourceCreatedOn: string, overrides: Record<string, unknown> = {}) {
  const response = await call(service.baseUrl, 'POST', '/v2/orders', {
    key: store.liveKey,
    body: orderBody({ subtotal, source_created_on: sourceCreatedOn, ...overrides }),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; source_order_id: string; paid_to_insure: number };
}

async function reprice(store: SeededStore, sourceOrderId: string, subtotal: number) {
  const response = await call(service.baseUrl, 'POST', `/v2/orders/${sourceOrderId}`, { key: store.liveKey, body: { subtotal } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { paid_to_insure: number };
}

/** A refund's reversal, written straight into the ledger as the refunds code will write it. */
async function reverse(store: SeededStore, orderId: string, amountCents: number, effectiveAt: string) {
  await service.db.premiumLedgerEntry.create({
    data: { storeId: store.store.id, orderId, amountCents: -amountCents, reason: 'reversal', effectiveAt: new Date(effectiveAt) },
  });
}

/** The month's ledger sum in cents, read independently of the statement code. */
async function ledgerSumCents(storeId: string, from: string, to: string): Promise<number> {
  const rows = await service.db.$queryRaw<Array<{ total: string }>>`
    SELECT COALESCE(sum(amount_cents), 0)::text AS total FROM premium_ledger_entries
     WHERE store_id = ${storeId}::uuid AND effective_at >= ${from}::timestamptz AND effective_at < ${to}::timestamptz`;
  return Number(rows[0]?.total);
}

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db); // 1.5 %, minimum 0.98
  otherShop = await seedStore(service.db);

  // Re-pricings are dated to the service clock: put it on 2026-11-25 12:00 UTC, whatever the real date.
  service.clock.advance(Date.parse('2026-11-25T12:00:00Z') - service.clock.now().getTime());

  // November bookings (dated to source_created_on):
  const o1 = await placeOrder(shop, 125, '2026-11-02T09:00:00Z'); // 125.00 x 1.5 % = 1.875 -> 1.88
  const o2 = await placeOrder(shop, 200, '2026-11-15T12:00:00Z'); // 200.00 x 1.5 % = 3.00
  const o3 = await placeOrder(shop, 40, '2026-11-30T23:59:59.999Z'); // 0.60 -> minimum 0.98; last instant of November
  expect([o1.paid_to_insure, o2.paid_to_insure, o3.paid_to_insure]).toEqual([1.88, 3, 0.98]);
  await placeOrder(shop, 500, '2026-11-20T10:00:00Z', { insurance_selected: false }); // books nothing
  // Neighbouring months:
  const o4 = await placeOrder(shop, 125, '2026-12-01T00:00:00Z'); // 1.88, first instant of December
  const o5 = await placeOrder(shop, 200, '2026-10-31T23:59:59.999Z'); // 3.00, last instant of October

  // Re-pricings, dated 2026-11-25:
  expect((await reprice(shop, o1.source_order_id, 200)).paid_to_insure).toBe(3); // 1.88 -> 3.00: +1.12
  expect((await reprice(shop, o2.source_order_id, 100)).paid_to_insure).toBe(1.5); // 3.00 -> 1.50: -1.50

  // Reversals. November 2026 starts on a Sunday (the end of 2026-W44, Monday 2026-10-26) and ends on a
  // Monday (the start of 2026-W49, which runs to Sunday 2026-12-06), so both weeks span two months.
  await reverse(shop, o5.id, 50, '2026-10-31T22:00:00Z'); // W44, October part: not in November
  await reverse(shop, o1.id, 25, '2026-11-01T08:00:00Z'); // W44, November part
  await reverse(shop, o2.id, 10, '2026-11-10T10:00:00Z'); // W46 (Monday 2026-11-09)
  await reverse(shop, o2.id, 20, '2026-11-12T23:30:00Z'); // W46: 0.10 + 0.20, which floats would make 0.30000000000000004
  await reverse(shop, o3.id, 20, '2026-11-30T12:00:00Z'); // W49, November part
  await reverse(shop, o4.id, 60, '2026-12-02T12:00:00Z'); // W49, December part: not in November

  // Another store, same month: never in the first store's statements.
  const other = await placeOrder(otherShop, 1000, '2026-11-10T10:00:00Z'); // 15.00
  await reverse(otherShop, other.id, 700, '2026-11-11T10:00:00Z');
});
afterAll(async () => service.close());


/** A month without claims: nothing filed, decided or paid, so a loss ratio of 0 (null without net premium). */
const NO_CLAIMS = { filed: 0, approved: 0, denied: 0, paid: 0, paid_total: 0 };
describe('GET /v1/billing/statements', () => {
  it('sums the month: premiums, signed re-pricings, and credits by ISO week', async () => {
    const response = await statement('2026-11');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      merchant_id: shop.store.id,
      month: '2026-11',
      currency: 'USD',
      premiums: { count: 3, total: 5.86 }, // 1.88 + 3.00 + 0.98 (the unprotected order books nothing)
      repricings: { count: 2, total: -0.38 }, // +1.12 - 1.50
      credits: {
        count: 4,
        total: 0.75, // 0.25 + 0.10 + 0.20 + 0.20
        weeks: [
          { week: '2026-W44', starts_on: '2026-10-26', count: 1, total: 0.25 }, // without 31 October's 0.50
          { week: '2026-W46', starts_on: '2026-11-09', count: 2, total: 0.3 },
          { week: '2026-W49', starts_on: '2026-11-30', count: 1, total: 0.2 }, // without 2 December's 0.60
        ],
      },
      net_total: 4.73, // 5.86 - 0.38 - 0.75
      claims: NO_CLAIMS,
      loss_ratio: 0,
    });
  });

  it('answers net_total equal to the sum of the month\'s ledger rows, read with SQL', async () => {
    const body = (await statement('2026-11')).body;
    const cents = await ledgerSumCents(shop.store.id, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z');
    expect(cents).toBe(473);
    expect(body.net_total).toBe(centsToMajorNumber(cents));
  });

  it('puts 2026-11-30T23:59:59.999Z in November and 2026-12-01T00:00:00Z in December', async () => {
    // November's premiums hold o3's 0.98 (checked above). December holds o4's 1.88 and 2 December's reversal.
    const december = await statement('2026-12');
    expect(december.body).toEqual({
      merchant_id: shop.store.id,
      month: '2026-12',
      currency: 'USD',
      premiums: { count: 1, total: 1.88 },
      repricings: { count: 0, total: 0 },
      credits: { count: 1, total: 0.6, weeks: [{ week: '2026-W49', starts_on: '2026-11-30', count: 1, total: 0.6 }] },
      net_total: 1.28, // 1.88 - 0.60
      claims: NO_CLAIMS,
      loss_ratio: 0,
    });
    expect(centsToMajorNumber(await ledgerSumCents(shop.store.id, '2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z'))).toBe(1.28);

    const october = await statement('2026-10');
    expect(october.body).toMatchObject({
      premiums: { count: 1, total: 3 }, // o5 at 2026-10-31T23:59:59.999Z
      repricings: { count: 0, total: 0 },
      credits: { count: 1, total: 0.5, weeks: [{ week: '2026-W44', starts_on: '2026-10-26', count: 1, total: 0.5 }] },
      net_total: 2.5,
      claims: NO_CLAIMS,
      loss_ratio: 0,
    });
  });

  it("never shows another store's entries", async () => {
    const other = await statement('2026-11', otherShop.liveKey);
    expect(other.status).toBe(200);
    expect(other.body).toEqual({
      merchant_id: otherShop.store.id,
      month: '2026-11',
      currency: 'USD',
      premiums: { count: 1, total: 15 }, // 1000.00 x 1.5 %
      repricings: { count: 0, total: 0 },
      credits: { count: 1, total: 7, weeks: [{ week: '2026-W46', starts_on: '2026-11-09', count: 1, total: 7 }] },
      net_total: 8,
      claims: NO_CLAIMS,
      loss_ratio: 0,
    });
    // And the first store's November is unchanged by them (4.73, above).
    expect((await statement('2026-11')).body.net_total).toBe(4.73);
  });

  it('answers an all-zero statement for a month without entries, such as a future one', async () => {
    const response = await statement('2031-02');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      merchant_id: shop.store.id,
      month: '2031-02',
      currency: 'USD',
      premiums: { count: 0, total: 0 },
      repricings: { count: 0, total: 0 },
      credits: { count: 0, total: 0, weeks: [] },
      net_total: 0,
      claims: NO_CLAIMS,
      loss_ratio: null,
    });
  });

  it('answers 404 to a test key: test keys never see live data', async () => {
    const response = await statement('2026-11', shop.testKey);
    expect(response.status).toBe(404);
    expect(response.body.error_code).toBe('not_found');
    expect(response.headers.get('x-service-mode')).toBe('test');
  });

  it.each([
    ['an impossible month', '2026-13'],
    ['a month without its leading zero', '2026-1'],
    ['a date', '2026-11-01'],
  ])('answers 400 naming month for %s', async (_name, month) => {
    const response = await statement(month);
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_request');
    expect(response.body.errors).toEqual([{ field: 'month', message: expect.stringMatching(/^must be a month as YYYY-MM/) }]);
  });

  it('answers 400 naming month when it is missing', async () => {
    const response = await statement(undefined);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'month', message: 'is required' }]);
  });

  it('answers 401 without a key', async () => {
    const response = await call(service.baseUrl, 'GET', '/v1/billing/statements?month=2026-11');
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe('unauthorized');
  });
});

describe('admin CLI: billing report', () => {
  async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await execFileAsync('node_modules/.bin/tsx', ['server/cli/admin.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: service.databaseUrl, LOG_LEVEL: 'silent' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: unknown; stdout?: string; stderr?: string };
      if (typeof failed.code !== 'number') throw error;
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it('prints with --json exactly the statement the API answers', async () => {
    const run = await admin('billing', 'report', '--merchant', shop.store.slug, '--month', '2026-11', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual((await statement('2026-11')).body);
  });

  it('prints a few readable lines without --json', async () => {
    const run = await admin('billing', 'report', '--merchant', shop.store.slug, '--month', '2026-11');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`merchant "${shop.store.slug}"`);
    expect(run.stdout).toMatch(/premiums: +5\.86 \(3 bookings\)/);
    expect(run.stdout).toMatch(/repricings: +-0\.38 \(2 re-pricings\)/);
    expect(run.stdout).toMatch(/credits: +0\.75 \(4 reversals\)/);
    expect(run.stdout).toContain('2026-W46 (from 2026-11-09): 0.30 (2 reversals)');
    expect(run.stdout).toMatch(/net total: +4\.73/);
  });

  it('exits 2 naming a bad month, and 1 for an unknown merchant', async () => {
    const bad = await admin('billing', 'report', '--merchant', shop.store.slug, '--month', '2026-13', '--json');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error_code: 'invalid_request', errors: [{ field: '--month' }] });

    const unknown = await admin('billing', 'report', '--merchant', 'no-such-shop', '--month', '2026-11', '--json');
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ error_code: 'not_found' });
  });
});

describe('extreme months', () => {
  it('answers the first and last months the service can date, and refuses year 0000 naming the field', async () => {
    const farEarly = await placeOrder(shop, 125, '0050-03-10T10:00:00Z');
    const farLate = await placeOrder(shop, 125, '9999-12-31T23:59:59Z');
    // 125 x 1.5 % = 1.875, rounded half up: 1.88 each.
    expect(farEarly.paid_to_insure).toBe(1.88);
    expect(farLate.paid_to_insure).toBe(1.88);

    const early = await statement('0050-03');
    expect(early.status).toBe(200);
    expect(early.body.premiums).toMatchObject({ count: 1, total: 1.88 });
    const misread = await statement('1950-03');
    expect(misread.status).toBe(200);
    expect(misread.body.premiums).toMatchObject({ count: 0, total: 0 });

    const last = await statement('9999-12');
    expect(last.status).toBe(200);
    expect(last.body.premiums).toMatchObject({ count: 1, total: 1.88 });
    expect((await statement('0001-01')).status).toBe(200);

    const zero = await statement('0000-01');
    expect(zero.status).toBe(400);
    expect(zero.body.errors).toEqual([expect.objectContaining({ field: 'month' })]);
  });
});

describe('billing helpers', () => {
  it('bounds a month in UTC, half open, rolling December into the next year', () => {
    expect(monthBounds('2026-11')).toEqual({ start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') });
    expect(monthBounds('2026-12')).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    expect(monthBounds('2028-02')).toEqual({ start: new Date('2028-02-01T00:00:00Z'), end: new Date('2028-03-01T00:00:00Z') });
    expect(() => monthBounds('2026-13')).toThrow();
  });

  it('bounds the first centuries as themselves, not as 1900 to 1999, and the last month too', () => {
    expect(monthBounds('0050-03')).toEqual({ start: new Date('0050-03-01T00:00:00Z'), end: new Date('0050-04-01T00:00:00Z') });
    expect(monthBounds('0001-01').start.toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(monthBounds('9999-12').start.toISOString()).toBe('9999-12-01T00:00:00.000Z');
    expect(() => monthBounds('0000-12')).toThrow();
    // 0050-03-04 (proleptic Gregorian) is a Friday of ISO week 9, whose Monday is 0050-02-28:
    // Python's datetime.date(50, 3, 4).isocalendar() gives (50, 9, 5).
    expect(isoWeek(new Date('0050-03-04T00:00:00Z'))).toEqual({ week: '0050-W09', startsOn: '0050-02-28' });
  });

  it('numbers ISO weeks at year edges', () => {
    // 2026-01-01 is a Thursday, so 2026-W01 is the week of Monday 2025-12-29, and 2026 has 53 ISO weeks
    // (a year has 53 exactly when it starts on a Thursday, or is a leap year starting on a Wednesday).
    // 2026-12-31 is a Thursday too (365 days = 52 weeks + 1 day after a Thursday), so the week of Monday
    // 2026-12-28 holds 2026's last Thursday: it is 2026-W53, and it runs to Sunday 2027-01-03, so
    // 2027-01-01 (a Friday) is in 2026-W53 as well. 2027-W01 starts on Monday 2027-01-04.
    expect(isoWeek(new Date('2026-12-31T12:00:00Z'))).toEqual({ week: '2026-W53', startsOn: '2026-12-28' });
    expect(isoWeek(new Date('2027-01-01T00:00:00Z'))).toEqual({ week: '2026-W53', startsOn: '2026-12-28' });
    expect(isoWeek(new Date('2027-01-03T23:59:59.999Z'))).toEqual({ week: '2026-W53', startsOn: '2026-12-28' });
    expect(isoWeek(new Date('2027-01-04T00:00:00Z'))).toEqual({ week: '2027-W01', startsOn: '2027-01-04' });
    expect(isoWeek(new Date('2025-12-29T00:00:00Z'))).toEqual({ week: '2026-W01', startsOn: '2025-12-29' });
    expect(isoWeek(new Date('2025-12-28T23:59:59.999Z'))).toEqual({ week: '2025-W52', startsOn: '2025-12-22' });
    expect(isoWeek(new Date('2026-01-01T00:00:00Z'))).toEqual({ week: '2026-W01', startsOn: '2025-12-29' });
  });

  it('reads the week in UTC, Monday to Sunday', () => {
    expect(isoWeek(new Date('2026-11-01T23:30:00-05:00'))).toEqual({ week: '2026-W45', startsOn: '2026-11-02' }); // Monday 04:30 UTC
    expect(isoWeek(new Date('2026-11-08T23:59:59.999Z'))).toEqual({ week: '2026-W45', startsOn: '2026-11-02' }); // Sunday
    expect(isoWeek(new Date('2026-11-09T00:00:00Z'))).toEqual({ week: '2026-W46', startsOn: '2026-11-09' }); // Monday
  });
});
