// The console's shipments list in Debian's Chromium, over a real server and a store whose shipments
// were registered ten days ago (the clock moved back) and scanned by the sandbox's scripts: reached
// from the navigation; every filter's count; the status, "carrier unknown", "no scan for N days" and
// carrier filters; a row's links to its shipment and its order; the next page and Back; an empty
// state; an admin naming an unknown carrier from the carriers listed by name (the slug is sent).
// At a phone's and a desktop's size, with axe on every state, no column cut (the page never
// scrolls sideways), and a screenshot of each under test-artifacts/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARRIERS } from '../contract/carriers.js';
import { CONSOLE_PAGE_LIMIT } from '../contract/console/index.js';
import { pollShipment } from '../server/domain/shipments/index.js';
import { artifacts, DESKTOP, expectAccessible, inBrowser, launch, logInNewUser, PHONE, skipBrowser, VIEWPORTS, waitForIdle, waitForPath, watchedPage, type Viewport } from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const FILLERS = 24;
const MYSTERY = 'SBXMYSTERY77';

let service: TestService;
let store: SeededStore;
let orderId: string;
let browser: Browser | undefined;

beforeAll(async () => {
  service = await startService();
  store = await seedStore(service.db);
  const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: store.liveKey, ...(body === undefined ? {} : { body }) });
  service.clock.advance(-10 * DAY_MS);
  const body = orderBody({ source_created_on: service.clock.now().toISOString() });
  expect((await api('POST', '/v2/orders', body)).status).toBe(201);
  orderId = body.source_order_id as string;
  const ship = async (trackingNumber: string, courierId?: string) => {
    const created = await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: orderId, ...(courierId === undefined ? {} : { courier_id: courierId }) });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, createdOn: new Date(created.body.created_on as string) };
  };
  const pollAfter = async (shipment: { id: string; createdOn: Date }, hours: number) => {
    const at = new Date(shipment.createdOn.getTime() + hours * HOUR_MS);
    await pollShipment(service.db, service.provider, service.jobs.scheduler, { shipmentId: shipment.id }, at, new Date(at.getTime() + HOUR_MS));
  };
  for (let index = 0; index < FILLERS; index += 1) await ship(`SBXFILL${String(index).padStart(3, '0')}`, 'dhl');
  await pollAfter(await ship('SBXDELIVERED', 'ups'), 51);
  await pollAfter(await ship('SBXEXCEPTION', 'fedex'), 51);
  await pollAfter(await ship('SBXINTRANSIT', 'usps'), 27);
  await ship(MYSTERY);
  service.clock.advance(10 * DAY_MS);
  if (!skipBrowser) browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

const rowsOf = (page: Page) => page.locator('table.shipments-table tbody tr');
const listed = (page: Page) => page.locator('table.shipments-table tbody tr td:first-child a').allInnerTexts();

async function rowsLoaded(page: Page, count: number): Promise<void> {
  await expect.poll(async () => rowsOf(page).count(), { timeout: 10_000 }).toBe(count);
}

/** The page never scrolls sideways: every column is in view or wraps (a phone stacks rows as cards). */
async function expectNoSidewaysScroll(page: Page, viewport: Viewport): Promise<void> {
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  expect(width).toBeLessThanOrEqual(viewport.width);
}

const filterLink = (page: Page, name: RegExp) => page.getByRole('link', { name });

describe.skipIf(skipBrowser)('the shipments list in the console', () => {
  for (const viewport of VIEWPORTS) {
    it(`filters with counts, links each row, pages and is accessible (${viewport.name})`, async () => {
      const context = await (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const watched = await watchedPage(context);
      const { page } = watched;
      const shot = (step: string) => page.screenshot({ path: `${artifacts}console-shipments-list-${viewport.name}-${step}.png`, fullPage: true });
      await inBrowser(watched, context, async () => {
        await logInNewUser(service, page, store, 'viewer');
        const navigation = page.getByRole('navigation', { name: 'Console' });
        // On a phone the navigation may sit behind a menu button.
        const menu = page.getByRole('button', { name: /menu/i });
        if (viewport === PHONE && (await menu.count()) > 0 && !(await navigation.getByRole('link', { name: 'Shipments' }).isVisible())) await menu.first().click();
        await navigation.getByRole('link', { name: 'Shipments' }).click();
        await waitForPath(page, '/console/shipments');
        await page.getByRole('heading', { level: 1, name: 'Shipments' }).waitFor();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        expect((await listed(page)).slice(0, 4)).toEqual([MYSTERY, 'SBXINTRANSIT', 'SBXEXCEPTION', 'SBXDELIVERED']);
        // Each filter's count.
        const byStatus = page.getByRole('navigation', { name: 'Filter shipments by status' });
        expect((await byStatus.getByRole('link').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
          `All ${FILLERS + 4}`,
          `Active ${FILLERS + 2}`,
          'Delivered 1',
          'Exception 1',
          'Cancelled 0',
        ]);
        const attention = page.getByRole('navigation', { name: 'Shipments that need a look' });
        expect((await attention.getByRole('link').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(['Carrier unknown 1', `No scan for 7 days ${FILLERS + 3}`]);
        // A row as read: the carrier by name, the status, the days without a scan (8.9 days after the scan at 26 hours).
        const inTransit = rowsOf(page).filter({ hasText: 'SBXINTRANSIT' });
        expect((await inTransit.locator('td').allInnerTexts()).map((text) => text.trim())).toEqual([
          'SBXINTRANSIT',
          expect.stringContaining(orderId),
          'USPS',
          'Active',
          expect.any(String),
          '8',
        ]);
        await expectNoSidewaysScroll(page, viewport);
        await expectAccessible(page, `the shipments list (${viewport.name})`);
        await shot('all');

        // Exceptions only.
        await filterLink(page, /^Exception\s+1$/).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('Exception');
        await rowsLoaded(page, 1);
        expect(await listed(page)).toEqual(['SBXEXCEPTION']);
        expect(await filterLink(page, /^Exception\s+1$/).getAttribute('aria-current')).toBe('page');
        await expectAccessible(page, `the exceptions (${viewport.name})`);
        await shot('exception');

        // Carrier unknown, then its shipment page through the row's link, and Back.
        await filterLink(page, /^Carrier unknown\s+1$/).click();
        await rowsLoaded(page, 1);
        expect(await listed(page)).toEqual([MYSTERY]);
        await rowsOf(page).first().getByText('Unknown carrier').waitFor();
        await shot('carrier-unknown');
        await page.getByRole('link', { name: MYSTERY, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: `Shipment ${MYSTERY}` }).waitFor();
        await waitForIdle(page);
        await page.goBack();
        await rowsLoaded(page, 1);
        // The order's link.
        await page.getByRole('link', { name: orderId, exact: true }).click();
        await waitForPath(page, `/console/orders/${orderId}`);
        await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();
        await waitForIdle(page);
        await page.goBack();
        await rowsLoaded(page, 1);

        // No scan for 7 days: every parcel on its way but the ones scanned in the last week.
        await filterLink(page, /^No scan for 7 days/).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('silent_days')).toBe('7');
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        await page.getByRole('link', { name: 'Next page' }).click();
        await page.getByText('Page 2', { exact: true }).waitFor();
        await rowsLoaded(page, FILLERS + 3 - CONSOLE_PAGE_LIMIT);
        await expectNoSidewaysScroll(page, viewport);
        await expectAccessible(page, `the second page of silent shipments (${viewport.name})`);
        await shot('silent-page-2');
        await page.goBack();
        await page.getByText('Page 1', { exact: true }).waitFor();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);

        // A carrier and a number of days, chosen and applied: UPS's one parcel was delivered, so none.
        await page.getByRole('link', { name: 'Show every shipment' }).click();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        await page.getByLabel('Carrier', { exact: true }).selectOption('ups');
        await page.getByRole('button', { name: 'Apply' }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('carrier')).toBe('ups');
        await rowsLoaded(page, 1);
        expect(await listed(page)).toEqual(['SBXDELIVERED']);
        await page.getByLabel('No scan for', { exact: true }).selectOption('14');
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.getByText('No shipment matches these filters.').waitFor();
        expect(await page.getByLabel('Carrier', { exact: true }).inputValue()).toBe('ups');
        await expectAccessible(page, `an empty filter (${viewport.name})`);
        await shot('empty');
        expect(watched.problems).toEqual([]);
      });
    }, 90_000);
  }

  it('offers an admin the carriers by name for a shipment whose carrier is unknown, and sends the slug', async () => {
    const own = await seedStore(service.db);
    const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: own.liveKey, ...(body === undefined ? {} : { body }) });
    const body = orderBody();
    expect((await api('POST', '/v2/orders', body)).status).toBe(201);
    const unknownNumber = 'SBXPICKER01';
    const created = await api('POST', '/v1/shipments', { tracking_number: unknownNumber, source_order_id: body.source_order_id });
    expect(created.body.courier).toBe('unknown');
    const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height } });
    const watched = await watchedPage(context);
    const { page, requests } = watched;
    await inBrowser(
      watched,
      context,
      async () => {
        await logInNewUser(service, page, own, 'admin');
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Shipments' }).click();
        await waitForPath(page, '/console/shipments');
        await page.getByRole('link', { name: unknownNumber, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: `Shipment ${unknownNumber}` }).waitFor();
        const form = page.getByRole('region', { name: 'Set the carrier' });
        const carrier = form.getByRole('combobox', { name: 'Carrier' });
        await carrier.waitFor();
        // Every carrier of the contract's table, by its name, in its order, each sending its slug;
        // nothing is chosen for a carrier that is not known.
        const options = await carrier.locator('option').evaluateAll((found) => found.map((option) => [option.textContent, option.getAttribute('value')]));
        expect(options).toEqual([['Choose a carrier', ''], ...CARRIERS.map((entry) => [entry.name, entry.slug])]);
        expect(await carrier.inputValue()).toBe('');
        for (const viewport of [PHONE, DESKTOP]) {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          await expectAccessible(page, `the carrier picker (${viewport.name})`);
          await expectNoSidewaysScroll(page, viewport);
          await page.screenshot({ path: `${artifacts}console-shipments-carrier-picker-${viewport.name}.png`, fullPage: true });
        }

        // Canada Post, chosen by its name: the request carries canada_post.
        await carrier.selectOption({ label: 'Canada Post' });
        const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === `/console/api/shipments/${unknownNumber}/carrier`);
        await form.getByRole('button', { name: 'Set carrier' }).click();
        expect((await sent).postDataJSON()).toEqual({ courier_id: 'canada_post' });
        await page.getByRole('status').filter({ hasText: 'The carrier is now' }).waitFor();
        expect(await page.getByRole('region', { name: 'Set the carrier' }).count()).toBe(0);
        expect((await api('GET', `/v1/shipments/${unknownNumber}`)).body.courier).toBe('canada_post');
        await page.screenshot({ path: `${artifacts}console-shipments-carrier-set-desktop.png`, fullPage: true });

        // The list names it so too.
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Shipments' }).click();
        await waitForPath(page, '/console/shipments');
        const row = rowsOf(page).filter({ hasText: unknownNumber });
        expect(await row.locator('td[data-label="Carrier"]').innerText()).toBe('Canada Post');
        expect(requests.some((url) => new URL(url).pathname.endsWith('/carrier'))).toBe(true);
        await waitForIdle(page);
      },
      'console-shipments-carrier-picker-last',
    );
    expect(watched.problems).toEqual([]);
  }, 90_000);

  it('shows a store without shipments an empty state', async () => {
    const empty = await seedStore(service.db);
    const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height } });
    const watched = await watchedPage(context);
    const { page } = watched;
    await inBrowser(watched, context, async () => {
      await logInNewUser(service, page, empty, 'viewer');
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Shipments' }).click();
      await page.getByText('No shipments yet.', { exact: false }).waitFor();
      expect(await page.locator('table').count()).toBe(0);
      await expectAccessible(page, 'no shipments');
      await page.screenshot({ path: `${artifacts}console-shipments-list-desktop-none.png`, fullPage: true });
      expect(watched.problems).toEqual([]);
    });
  }, 60_000);
});

