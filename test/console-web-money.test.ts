// The console's money pages in Chromium, at a phone's and a desktop's size: the overview (the
// month's statement, orders and attach rate, open claims, 90 days of daily net premium as a chart,
// a caption and a table) and billing (the statement, its credits by ISO week, the CSV download),
// with the month picker by keyboard and in the URL. The store's month is real activity through the
// merchant API (a quote, orders with and without protection, a re-pricing, a claim) and the
// platform's signed refunds; every figure expected below is worked out by hand from the store's
// terms (1.5 %, minimum 0.98, half up) and checked against GET /v1/billing/statements as well.
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { artifacts, expectAccessible, launch, logInNewUser, skipBrowser, VIEWPORTS, waitForPath, watchedPage } from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const PLATFORM = 'moneypages';
const PLATFORM_SECRET = 'moneypages-shared-secret-0123456789';
const DAY_MS = 86_400_000;

let service: TestService;
let store: SeededStore;

// The month is the real one (UTC), as the console shows by default.
const now = new Date();
const month = now.toISOString().slice(0, 7);
const today = now.toISOString().slice(0, 10);
const firstDay = `${month}-01`;
const previousMonth = (() => {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return monthNumber === 1 ? `${year - 1}-12` : `${year}-${String(monthNumber - 1).padStart(2, '0')}`;
})();
const previousMonthDay = `${previousMonth}-15`;

// How the page should write things, worked out here on their own (en-US: the browser's locale below).
/** A major-unit amount of the API as the page writes dollars: 10.48 → "$10.48", -1.75 → "-$1.75". */
const usd = (amount: number) => `${amount < 0 ? '-' : ''}$${Math.abs(amount).toFixed(2)}`;
const monthLabel = (yyyyMm: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${yyyyMm}-01T00:00:00Z`));
const dayLabel = (yyyyMmDd: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${yyyyMmDd}T00:00:00Z`));

/** The ISO 8601 week of a UTC day: the week of its Thursday, numbered from the year's first Thursday. */
function isoWeekOf(day: string): { week: string; starts_on: string } {
  const date = new Date(`${day}T00:00:00Z`);
  const monday = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * DAY_MS);
  const thursday = new Date(monday.getTime() + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
  return { week: `${year}-W${String(week).padStart(2, '0')}`, starts_on: monday.toISOString().slice(0, 10) };
}

const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { bearer: store.liveKey, ...(body === undefined ? {} : { body }) });

async function placeOrder(overrides: Record<string, unknown>): Promise<{ id: string; paid: number }> {
  const body = orderBody({ source_created_on: new Date().toISOString(), ...overrides });
  const response = await api('POST', '/v2/orders', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: body.source_order_id as string, paid: response.body.paid_to_insure as number };
}

/** A refund of the protection line, as the platform sends it (signed). */
async function refund(sourceOrderId: string, refundedCents: number, createdAt?: string): Promise<number> {
  const raw = JSON.stringify({
    merchant: store.store.slug,
    event: 'refund.created',
    order: { id: sourceOrderId },
    refund: { id: `refund-${sourceOrderId}`, ...(createdAt === undefined ? {} : { created_at: createdAt }), items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: refundedCents }] },
  });
  const response = await call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(PLATFORM_SECRET, raw, Math.floor(Date.now() / 1000)) },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.reversed_cents as number;
}

/** The seeded month, worked out by hand. */
const seeded = {
  sourceOrderIds: [] as string[],
  // premiums: 3.00 (quoted) + 1.88 + 0.98 + 3.75 = 9.61; re-pricing: 4.50 - 1.88 = +2.62;
  // credits: 1.25 + 0.50 = 1.75; net: 9.61 + 2.62 - 1.75 = 10.48.
  premiums: { count: 4, total: 9.61 },
  repricings: { count: 1, total: 2.62 },
  credits: { count: 2, total: 1.75 },
  net: 10.48,
  // Six orders placed in the month, four of them protected: 66.7 %.
  orders: { count: 6, protected: 4 },
  /** The credits' days: the first of the month (1.25) and today (0.50). */
  creditWeeks: [] as Array<{ week: string; starts_on: string; count: number; total: number }>,
};

beforeAll(async () => {
  service = await startService();
  store = await seedStore(service.db); // 1.5 %, minimum 0.98, half up
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, PLATFORM_SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, store.store), PLATFORM);

  // A quote for a 200.00 cart, then its order: 200.00 x 1.5 % = 3.00.
  const quote = await api('POST', '/v2/quotes', { cart: { covered: { amount: '200.00' }, cart_ref: 'cart-money' } });
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  expect(quote.body.premium.amount).toBe('3.00');
  const quoted = await placeOrder({ subtotal: 200, quote_id: quote.body.id });
  expect(quoted.paid).toBe(3);

  // Booked on the first of the month: 125.00 x 1.5 % = 1.875 -> 1.88, and 250.00 x 1.5 % = 3.75.
  const early = await placeOrder({ subtotal: 125, source_created_on: `${firstDay}T00:10:00Z` });
  const refunded = await placeOrder({ subtotal: 250, source_created_on: `${firstDay}T00:10:00Z` });
  expect([early.paid, refunded.paid]).toEqual([1.88, 3.75]);
  // 40.00 x 1.5 % = 0.60 -> the minimum, 0.98.
  const small = await placeOrder({ subtotal: 40 });
  expect(small.paid).toBe(0.98);
  // Two orders without protection: counted as orders, booking nothing.
  const unprotected = [await placeOrder({ subtotal: 80, insurance_selected: false }), await placeOrder({ subtotal: 60, insurance_selected: false })];
  expect(unprotected.map((order) => order.paid)).toEqual([0, 0]);
  // Last month: 100.00 x 1.5 % = 1.50, in last month's statement and in the 90 days only.
  expect((await placeOrder({ subtotal: 100, source_created_on: `${previousMonthDay}T12:00:00Z` })).paid).toBe(1.5);

  // A re-pricing, dated now: 300.00 x 1.5 % = 4.50, up 2.62 from 1.88.
  const repriced = await api('PATCH', `/v2/orders/${early.id}`, { subtotal: 300 });
  expect(repriced.status, JSON.stringify(repriced.body)).toBe(200);
  expect(repriced.body.paid_to_insure).toBe(4.5);

  // Refunds of the protection line: 1.25 dated an hour after the first order of the month, 0.50 now.
  expect(await refund(refunded.id, 125, `${firstDay}T01:10:00Z`)).toBe(125);
  expect(await refund(quoted.id, 50)).toBe(50);

  // A claim, open.
  const claim = await api('POST', '/v1/claims', { source_order_id: small.id, reason: 'lost' });
  expect(claim.status, JSON.stringify(claim.body)).toBe(201);

  seeded.sourceOrderIds = [quoted.id, early.id, refunded.id, small.id];
  const first = isoWeekOf(firstDay);
  const latest = isoWeekOf(today);
  seeded.creditWeeks =
    first.week === latest.week ? [{ ...first, count: 2, total: 1.75 }] : [{ ...first, count: 1, total: 1.25 }, { ...latest, count: 1, total: 0.5 }];
});
afterAll(async () => service?.close());

describe('the merchant API agrees with the hand-worked month', () => {
  it("answers the month's statement with the seeded figures", async () => {
    const statement = await api('GET', `/v1/billing/statements?month=${month}`);
    expect(statement.status).toBe(200);
    expect(statement.body).toEqual({
      merchant_id: store.store.id,
      month,
      currency: 'USD',
      premiums: seeded.premiums,
      repricings: seeded.repricings,
      credits: { ...seeded.credits, weeks: seeded.creditWeeks },
      net_total: seeded.net,
      // The one claim, filed this month and still open: nothing paid, so no loss.
      claims: { filed: 1, approved: 0, denied: 0, paid: 0, paid_total: 0 },
      loss_ratio: 0,
    });
  });
});

/** The value of a figure on the overview: the first <dd> after the <dt> that names it. */
const figure = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);

/** The cells of the table row whose header cell is `header`. */
async function rowCells(table: Locator, header: string): Promise<string[]> {
  const row = table.getByRole('row').filter({ has: table.page().getByRole('rowheader', { name: header, exact: true }) });
  return row.getByRole('cell').allInnerTexts();
}

/** Whether the page fits the viewport's width: nothing cut off or scrolled sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth') as Promise<boolean>;

const accessibleName = (page: Page) => page.evaluate("document.activeElement && (document.activeElement.getAttribute('aria-label') || document.activeElement.textContent)") as Promise<string | null>;

describe('the overview and billing pages in Chromium', () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!skipBrowser) browser = await launch();
  });
  afterAll(async () => browser?.close());

  for (const viewport of VIEWPORTS) {
    it.skipIf(skipBrowser)(
      `at ${viewport.width}x${viewport.height} (${viewport.name}): the statement to the cent, the month by keyboard, the chart and its table, the weekly credits and the CSV`,
      async () => {
        const statement = (await api('GET', `/v1/billing/statements?month=${month}`)).body as {
          premiums: { total: number };
          repricings: { total: number };
          credits: { total: number; weeks: Array<{ week: string; starts_on: string; count: number; total: number }> };
          net_total: number;
        };
        // The API's numbers as the page must write them, and the same by hand.
        expect([usd(statement.premiums.total), usd(statement.repricings.total), usd(statement.credits.total), usd(statement.net_total)]).toEqual([
          '$9.61',
          '$2.62',
          '$1.75',
          '$10.48',
        ]);

        // A time zone west of UTC: a UTC day written through it would read as the day before.
        const context = await (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height }, locale: 'en-US', timezoneId: 'Pacific/Honolulu' });
        const watched = await watchedPage(context);
        const { page, problems } = watched;
        const shot = (name: string) => page.screenshot({ path: `${artifacts}console-${name}-${viewport.name}.png`, fullPage: true });
        try {
          // The home page after logging in is this month's overview.
          await logInNewUser(service, page, store, 'viewer');
          await waitForPath(page, '/console/overview');
          await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
          const picker = page.getByRole('navigation', { name: 'Month shown' });
          await picker.getByText(monthLabel(month), { exact: true }).waitFor();

          // The statement's figures, to the cent.
          await figure(page, 'Net premium').waitFor();
          expect(await figure(page, 'Booked premium').innerText()).toBe(usd(statement.premiums.total));
          expect(await figure(page, 'Re-pricings').innerText()).toBe(usd(statement.repricings.total));
          expect(await figure(page, 'Credits').innerText()).toBe(usd(statement.credits.total));
          expect(await figure(page, 'Net premium').innerText()).toBe(usd(statement.net_total));
          // Orders and the attach rate, as seeded: 4 of 6 protected.
          expect(await figure(page, 'Orders').innerText()).toBe('6');
          expect(await figure(page, 'Protection attach rate').innerText()).toBe('66.7%');
          await page.getByText('4 of 6 orders protected', { exact: true }).waitFor();
          const claims = page.getByRole('link', { name: '1 open claim: see the claims' });
          expect(await claims.getAttribute('href')).toBe('/console/claims');

          // The chart: drawn (uPlot loaded on demand), as wide as its frame, at this size and after a resize.
          const chart = page.getByRole('figure');
          await chart.locator('canvas').first().waitFor();
          const widths = async () => ({
            frame: (await chart.locator('.ov-chart-frame').boundingBox())?.width ?? 0,
            plot: (await chart.locator('.uplot').boundingBox())?.width ?? Number.POSITIVE_INFINITY,
          });
          const sized = await widths();
          expect(sized.plot).toBeLessThanOrEqual(sized.frame);
          expect(sized.plot).toBeGreaterThan(sized.frame - 2);
          expect(sized.frame).toBeLessThan(viewport.width);

          // Its caption: 90 days summed, 10.48 this month and 1.50 last month; today's 6.10 is the highest
          // (3.00 + 0.98 + 2.62 - 0.50), above the first's 4.38 (1.88 + 3.75 - 1.25).
          const sameDay = today === firstDay;
          const caption = await chart.locator('figcaption').innerText();
          expect(caption).toContain('$11.98 net premium in all');
          expect(caption).toContain(sameDay ? 'over 2 days with entries' : 'over 3 days with entries');
          expect(caption).toContain(`The highest day was ${dayLabel(today)}, at ${sameDay ? '$10.48' : '$6.10'}.`);

          // The same numbers as a table, opened by keyboard.
          const summary = chart.getByText('Show as table', { exact: true });
          await summary.focus();
          await page.keyboard.press('Enter');
          const daily = chart.getByRole('table');
          await daily.waitFor();
          expect(await daily.locator('tbody tr').count()).toBe(90);
          expect(await rowCells(daily, dayLabel(previousMonthDay))).toEqual(['$1.50']);
          expect(await rowCells(daily, dayLabel(today))).toEqual([sameDay ? '$10.48' : '$6.10']);
          if (!sameDay) expect(await rowCells(daily, dayLabel(firstDay))).toEqual(['$4.38']);
          expect(await fitsWidth(page), 'nothing wider than the screen').toBe(true);
          await expectAccessible(page, `the overview with its table (${viewport.name})`);
          await shot('overview');
          await page.keyboard.press('Enter'); // closes the table again

          if (viewport.name === 'desktop') {
            await page.setViewportSize({ width: 700, height: 800 });
            await expect.poll(async () => (await widths()).plot).toBeLessThan(700);
            const resized = await widths();
            expect(resized.plot).toBeGreaterThan(resized.frame - 2);
            await page.setViewportSize({ width: viewport.width, height: viewport.height });
          }

          // The month picker by keyboard: from the heading, Tab reaches the previous month.
          await page.getByRole('heading', { level: 1, name: 'Overview' }).focus();
          await page.keyboard.press('Tab');
          expect(await accessibleName(page)).toBe(`Previous month, ${monthLabel(previousMonth)}`);
          await page.keyboard.press('Enter');
          await page.waitForURL((url) => url.searchParams.get('month') === previousMonth);
          await picker.getByText(monthLabel(previousMonth), { exact: true }).waitFor();
          // Last month: the one order of 1.50, protected.
          await expect.poll(() => figure(page, 'Booked premium').innerText()).toBe('$1.50');
          expect(await figure(page, 'Net premium').innerText()).toBe('$1.50');
          expect(await figure(page, 'Credits').innerText()).toBe('$0.00');
          expect(await figure(page, 'Orders').innerText()).toBe('1');
          expect(await figure(page, 'Protection attach rate').innerText()).toBe('100%');
          await page.keyboard.press('Tab');
          expect(await accessibleName(page)).toBe(`Next month, ${monthLabel(month)}`);
          await page.keyboard.press('Enter');
          await page.waitForURL((url) => url.searchParams.get('month') === month);
          await expect.poll(() => figure(page, 'Net premium').innerText()).toBe('$10.48');

          // Back returns to last month (shown from the cache, then read again: the page leaves only after
          // that read, or the browser would abort it); a month that is not one falls back to this month.
          await Promise.all([page.waitForResponse((response) => response.url().endsWith(`/console/api/overview?month=${previousMonth}`)), page.goBack()]);
          await expect.poll(() => figure(page, 'Net premium').innerText()).toBe('$1.50');
          for (const junk of ['2026-13', 'nonsense', '202611']) {
            await page.goto(`${service.baseUrl}/console/overview?month=${junk}`);
            await picker.getByText(monthLabel(month), { exact: true }).waitFor();
            await expect.poll(() => figure(page, 'Net premium').innerText()).toBe('$10.48');
            await chart.locator('canvas').first().waitFor();
          }

          // Billing: the same statement, its credits by ISO week, and the CSV.
          await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Billing' }).click();
          await waitForPath(page, '/console/billing');
          await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
          const lines = page.getByRole('table', { name: `Statement of ${monthLabel(month)}, in US dollars` });
          await lines.waitFor();
          expect(await rowCells(lines, 'Premiums booked')).toEqual(['4', usd(statement.premiums.total)]);
          expect(await rowCells(lines, 'Re-pricings')).toEqual(['1', usd(statement.repricings.total)]);
          expect(await rowCells(lines, 'Credits (refunds)')).toEqual(['2', usd(-statement.credits.total)]);
          expect(await rowCells(lines, 'Net total')).toEqual(['7', usd(statement.net_total)]);

          const weeks = page.getByRole('table', { name: `Credits of ${monthLabel(month)} by ISO week, oldest first` });
          expect(await weeks.locator('tbody tr').count()).toBe(seeded.creditWeeks.length);
          expect(statement.credits.weeks).toEqual(seeded.creditWeeks);
          for (const week of seeded.creditWeeks) {
            const row = weeks.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${week.week}`) }) });
            expect(await row.getByRole('cell').allInnerTexts()).toEqual([String(week.count), usd(week.total)]);
            const header = await row.getByRole('rowheader').innerText();
            expect(header).toContain(`Starts on Monday ${dayLabel(week.starts_on)}`);
            // A week begun last month shows only its days in this one, and says so.
            expect(header.includes(`Its days in ${monthLabel(month)} only`)).toBe(week.starts_on < firstDay);
          }
          expect(await fitsWidth(page), 'nothing wider than the screen').toBe(true);
          await expectAccessible(page, `the billing page (${viewport.name})`);
          await shot('billing');

          // The CSV: every ledger entry of the month, in cents, summing to the net total.
          const link = page.getByRole('link', { name: `Download CSV of ${monthLabel(month)}` });
          expect(await link.getAttribute('href')).toBe(`/console/api/billing/statements/${month}/csv`);
          const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
          expect(download.suggestedFilename()).toBe(`statement-${month}.csv`);
          const csv = await readFile(await download.path(), 'utf8');
          const [header, ...rows] = csv.split('\r\n').filter((line) => line !== '');
          expect(header).toBe('effective_at,source_order_id,reason,amount_cents');
          const entries = rows.map((row) => row.split(','));
          expect(entries.map(([, , reason, cents]) => `${reason} ${cents}`).sort()).toEqual(
            ['booking 300', 'booking 188', 'booking 98', 'booking 375', 'repricing 262', 'reversal -125', 'reversal -50'].sort(),
          );
          expect(new Set(entries.map(([, sourceOrderId]) => sourceOrderId))).toEqual(new Set(seeded.sourceOrderIds));
          expect(entries.every(([effectiveAt]) => effectiveAt?.startsWith(month))).toBe(true);
          expect(entries.reduce((sum, [, , , cents]) => sum + Number(cents), 0)).toBe(1048);

          // Last month by keyboard: the picker is the next stop after the CSV link.
          await link.focus();
          await page.keyboard.press('Tab');
          expect(await accessibleName(page)).toBe(`Previous month, ${monthLabel(previousMonth)}`);
          await page.keyboard.press('Enter');
          await page.waitForURL((url) => url.searchParams.get('month') === previousMonth);
          const lastMonth = page.getByRole('table', { name: `Statement of ${monthLabel(previousMonth)}, in US dollars` });
          await lastMonth.waitFor();
          expect(await rowCells(lastMonth, 'Premiums booked')).toEqual(['1', '$1.50']);
          expect(await rowCells(lastMonth, 'Net total')).toEqual(['1', '$1.50']);
          await page.getByText(`No credits in ${monthLabel(previousMonth)}.`, { exact: true }).waitFor();
          expect(await page.getByRole('link', { name: `Download CSV of ${monthLabel(previousMonth)}` }).getAttribute('href')).toBe(
            `/console/api/billing/statements/${previousMonth}/csv`,
          );
          await expectAccessible(page, `the billing page of a month without credits (${viewport.name})`);
          await shot('billing-last-month');
        } catch (error) {
          throw new Error(`${String(error)}\nBrowser problems: ${JSON.stringify(problems, null, 2)}`, { cause: error });
        } finally {
          await page.screenshot({ path: `${artifacts}console-money-last-${viewport.name}.png`, fullPage: true }).catch(() => undefined);
          await context.close();
        }
        expect(problems).toEqual([]);
      },
      90_000,
    );
  }
});
