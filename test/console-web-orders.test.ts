// The console's orders and shipment pages in Debian's Chromium, over a real server and a store seeded
// through the merchant API: search by source order id, order number and email (by keyboard), pages
// forward, back and through the browser's Back; an order's items, ledger (a booking, a re-pricing
// and a platform refund's reversal), shipments, claims and refunds, to the cent; an erased order; an
// order and a shipment that do not exist; a tracking timeline; setting an unknown carrier as an
// admin (seen on the page and through the API); a viewer's page without that form. Axe on every page
// and state, and a screenshot of each at a phone's and a desktop's size.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_PAGE_LIMIT } from '../contract/console/index.js';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { pollShipment } from '../server/domain/shipments/index.js';
import {
  artifacts,
  DESKTOP,
  expectAccessible,
  focusedId,
  focusedText,
  inBrowser,
  launch,
  logInNewUser,
  PHONE,
  SESSION_PROBE,
  skipBrowser,
  waitForIdle,
  waitForPath,
  watchedPage,
  type Viewport,
} from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const HOUR_MS = 60 * 60 * 1000;
const PLATFORM = 'consoleordersplat';
const PLATFORM_SECRET = 'console-orders-platform-secret-0123456789';

/** The store's orders: a full page and two on the second. */
const ORDERS = CONSOLE_PAGE_LIMIT + 2;

/** An id that needs encoding in a URL: a slash, a space, "#", "?", "%" and a quote. */
const ERASED_ID = 'gift/box #7 ?50% "q"';
const MISSING_ORDER = 'no-such-order';
const MISSING_SHIPMENT = 'NO/SUCH #1?%';

/** Numbers the carrier cannot be told from (the sandbox scripts only its SBX numbers of docs/tracking.md). */
const MYSTERY = 'SBXMYSTERY42';
const SECOND_MYSTERY = 'SBXMYSTERY43';
/** A sandbox number with a scripted journey to delivery. */
const DELIVERED = 'SBXDELIVERED';
/**
 * The main order was placed yesterday at 02:00 UTC: the evening before in Honolulu, where the order
 * page is read. Billing counts its booking on the UTC day, and so must the ledger's "Counts for".
 */
const PLACED_AT = (() => {
  const day = new Date(Date.now() - 86_400_000);
  day.setUTCHours(2, 0, 0, 0);
  return day;
})();
const PLACED_UTC_DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(PLACED_AT);

interface Seeded {
  /** Source order ids, oldest first. */
  ids: string[];
  main: { id: string; number: string; email: string; refundId: string; claimId: string };
  /** When the delivered shipment's scans happened, newest first, as ISO strings. */
  scanTimes: string[];
}

let service: TestService;
let store: SeededStore;
let seeded: Seeded;
let browser: Browser | undefined;

const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: store.liveKey, ...(body === undefined ? {} : { body }) });

async function placeOrder(overrides: Record<string, unknown>): Promise<{ id: string; number: string }> {
  const body = orderBody({ source_created_on: new Date().toISOString(), ...overrides });
  const created = await api('POST', '/v2/orders', body);
  expect(created.status).toBe(201);
  return { id: body.source_order_id as string, number: created.body.order_number as string };
}

async function ship(sourceOrderId: string, trackingNumber: string, courierId?: string): Promise<{ id: string; courier: string; createdOn: Date }> {
  const created = await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: sourceOrderId, ...(courierId === undefined ? {} : { courier_id: courierId }) });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, courier: created.body.courier as string, createdOn: new Date(created.body.created_on as string) };
}

/** One tracking poll as the worker runs it, at `at`. */
const poll = (shipmentId: string, at: Date) => pollShipment(service.db, service.provider, service.jobs.scheduler, { shipmentId: shipmentId }, at, new Date(at.getTime() + HOUR_MS));

beforeAll(async () => {
  service = await startService();
  store = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, PLATFORM_SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, store.store), PLATFORM);

  // Oldest first: the erased order, one more with an unknown carrier, the fillers, and the order the
  // test reads. The list follows the date each was placed: a minute apart, before the last one's.
  const ids: string[] = [];
  const placedBefore = (position: number) => new Date(PLACED_AT.getTime() - (ORDERS - position) * 60_000).toISOString();
  const erased = await placeOrder({ source_order_id: ERASED_ID, source_created_on: placedBefore(0), customer_details: { first_name: 'Erin', last_name: 'Erased', email: 'erin@example.com' } });
  ids.push(erased.id);
  const second = await placeOrder({ source_created_on: placedBefore(1), customer_details: { first_name: 'Sam', last_name: 'Second', email: 'sam@example.com' } });
  ids.push(second.id);
  expect((await ship(second.id, SECOND_MYSTERY)).courier).toBe('unknown');
  // The fillers: every order but the two above and the one below.
  for (let index = 0; index < ORDERS - 3; index += 1) {
    ids.push((await placeOrder({ source_created_on: placedBefore(index + 2), customer_details: { first_name: 'Fil', last_name: `Ler ${index}`, email: `filler-${index}@example.com` } })).id);
  }

  // The order the test reads: two lines, protection on 125.00 at 1.5 % (1.88 booked), re-priced to
  // 200.00 (3.00: +1.12), then a platform refund of 0.50 of its protection line (-0.50): net 2.50.
  const email = 'Grace.Hopper@Example.com';
  const main = await placeOrder({
    source_order_id: `grace-${Date.now()}`,
    source_created_on: PLACED_AT.toISOString(),
    customer_details: { first_name: 'Grace', last_name: 'Hopper', email },
    line_items: [
      { source_id: 'li_desk', name: 'Walnut desk organiser', price: 62.5, quantity: 2, sku: 'DESK-ORG-W' },
      { source_id: 'li_lamp', name: 'Brass lamp', price: 19.99, quantity: 3, is_insured: true },
    ],
  });
  ids.push(main.id);
  expect((await api('PATCH', `/v2/orders/${main.id}`, { subtotal: 200 })).status).toBe(200);
  const refundId = `rf-console-${Date.now()}`;
  const refund = JSON.stringify({
    merchant: store.store.slug,
    event: 'refund.created',
    order: { id: main.id },
    refund: { id: refundId, amount_cents: 2049, note: 'Lamp arrived dented', created_at: new Date().toISOString(), items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 50 }] },
  });
  const refunded = await call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
    rawBody: refund,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(PLATFORM_SECRET, refund) },
  });
  expect(refunded.status).toBe(200);
  expect((await api('GET', `/v2/orders/${main.id}`)).body.paid_to_insure).toBe(2.5);

  // Its shipments: one whose carrier is unknown (a poll notes it), one delivered by the sandbox's script.
  const mystery = await ship(main.id, MYSTERY);
  expect(mystery.courier).toBe('unknown');
  expect(await poll(mystery.id, new Date())).toBe('stop');
  const delivered = await ship(main.id, DELIVERED, 'ups');
  expect(await poll(delivered.id, new Date(delivered.createdOn.getTime() + 51 * HOUR_MS))).toBe('stop');
  // The script's scans, hours after registration (server/tracking/sandbox.ts), newest first.
  const scanTimes = [50, 44, 26, 20, 2, 0].map((hours) => new Date(delivered.createdOn.getTime() + hours * HOUR_MS).toISOString());

  const claim = await api('POST', '/v1/claims', { source_order_id: main.id, reason: 'damaged', description: 'The lamp is dented' });
  expect(claim.status).toBe(201);

  // The oldest order's shopper is erased: the order keeps its place in the list, and says so.
  const redacted = await api('POST', `/v2/orders/${encodeURIComponent(ERASED_ID)}/redact`);
  expect(redacted.status).toBe(200);
  expect(redacted.body).toMatchObject({ source_order_id: ERASED_ID, has_pii: false });

  expect(ids).toHaveLength(ORDERS);
  seeded = { ids, main: { id: main.id, number: main.number, email, refundId, claimId: claim.body.id as string }, scanTimes };
  if (!skipBrowser) browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The 4xx answers the flows cause on purpose. */
const EXPECTED_FAILURES = [
  SESSION_PROBE,
  new RegExp(`^404 GET /console/api/orders/${MISSING_ORDER}$`),
  new RegExp(`^404 GET /console/api/shipments/${escapeRegExp(encodeURIComponent(MISSING_SHIPMENT))}$`),
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The cells of each body row of a table, as the user reads them. */
async function rowsOf(table: Locator): Promise<string[][]> {
  const rows = table.locator('tbody tr');
  const cells: string[][] = [];
  for (let index = 0; index < (await rows.count()); index += 1) {
    cells.push((await rows.nth(index).locator('td').allInnerTexts()).map((text) => text.trim()));
  }
  return cells;
}

/** The order ids in the search results, in order. */
const listedIds = (page: Page) => page.locator('table.orders-table tbody tr td:first-child a').allInnerTexts();

/** Waits until the results show `count` rows (a new search or page has loaded). */
async function resultsLoaded(page: Page, count: number): Promise<void> {
  await expect.poll(async () => page.locator('table.orders-table tbody tr').count(), { timeout: 10_000 }).toBe(count);
}

const searchParams = (page: Page) => new URL(page.url()).searchParams;

/**
 * A new user of the store, logged in, on the orders page. Reached through the navigation: leaving
 * the home page by loading another would abort its reads, which the page's watcher counts as faults.
 */
async function logIn(page: Page, role: 'admin' | 'viewer'): Promise<void> {
  await logInNewUser(service, page, store, role);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Orders' }).click();
  await waitForPath(page, '/console/orders');
  await resultsLoaded(page, CONSOLE_PAGE_LIMIT);
  await waitForIdle(page);
}

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

function shotOf(page: Page, viewport: Viewport) {
  return (area: 'orders' | 'shipments', step: string) => page.screenshot({ path: `${artifacts}console-${area}-${viewport.name}-${step}.png`, fullPage: true });
}

describe.skipIf(skipBrowser)('orders and shipments in the console', () => {
  it('searches orders by id, number and email (by keyboard), pages forward and back, and Back in the browser works', async () => {
    const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height } });
    const watched = await watchedPage(context, EXPECTED_FAILURES);
    const { page, problems, requests } = watched;
    const shot = shotOf(page, DESKTOP);
    const newestFirst = [...seeded.ids].reverse();
    await inBrowser(
      watched,
      context,
      async () => {
        await logIn(page, 'viewer');
        await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
        await resultsLoaded(page, CONSOLE_PAGE_LIMIT);
        expect(await listedIds(page)).toEqual(newestFirst.slice(0, CONSOLE_PAGE_LIMIT));
        // The list's columns for the order read below: 1.88 + 1.12 - 0.50 net.
        const mainRow = (await rowsOf(page.locator('table.orders-table')))[0] ?? [];
        expect(mainRow).toHaveLength(6);
        expect(mainRow[0]).toContain(seeded.main.id);
        expect(mainRow[0]).toContain(seeded.main.number);
        expect(mainRow[1]).toBe('Grace Hopper');
        expect(mainRow[3]).toBe('Not sent');
        expect(mainRow[4]).toContain('Protected');
        expect(mainRow[4]).toContain('$2.50');
        expect(mainRow[5]).toBe('Active');
        expect(await page.getByRole('link', { name: 'Previous page' }).count()).toBe(0);
        await page.getByText('Page 1', { exact: true }).waitFor();
        await expectAccessible(page, 'the orders list');
        await shot('orders', 'list');

        // By keyboard: the search field follows the page's heading; Enter searches.
        const field = page.getByRole('searchbox', { name: 'Search orders' });
        await page.keyboard.press('Tab');
        expect(await focusedId(page)).toBe(await field.getAttribute('id'));
        await page.keyboard.type(seeded.main.email.toLowerCase());
        await page.keyboard.press('Enter');
        await expect.poll(() => searchParams(page).get('q')).toBe(seeded.main.email.toLowerCase());
        await resultsLoaded(page, 1);
        expect(await listedIds(page)).toEqual([seeded.main.id]);
        // The field kept the focus, for the next search.
        expect(await focusedId(page)).toBe(await field.getAttribute('id'));
        await expectAccessible(page, 'the orders found by email');
        await shot('orders', 'search');

        // By the service's order number, then by a source order id.
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(seeded.main.number);
        await page.keyboard.press('Enter');
        await expect.poll(() => searchParams(page).get('q')).toBe(seeded.main.number);
        await resultsLoaded(page, 1);
        expect(await listedIds(page)).toEqual([seeded.main.id]);
        const filler = seeded.ids[5] as string;
        await field.fill(filler);
        await page.keyboard.press('Enter');
        await expect.poll(() => searchParams(page).get('q')).toBe(filler);
        await resultsLoaded(page, 1);
        expect(await listedIds(page)).toEqual([filler]);

        // Nothing found says so.
        await field.fill('nobody@example.com');
        await page.keyboard.press('Enter');
        await page.getByText('No order matches “nobody@example.com”.', { exact: false }).waitFor();
        await expectAccessible(page, 'a search that found nothing');
        await shot('orders', 'nothing-found');

        // Every order again, then the next page: the oldest three, the erased one marked.
        await page.getByRole('link', { name: 'Show every order' }).click();
        await resultsLoaded(page, CONSOLE_PAGE_LIMIT);
        expect(await field.inputValue()).toBe('');
        await page.getByRole('link', { name: 'Next page' }).click();
        await page.getByText('Page 2', { exact: true }).waitFor();
        await resultsLoaded(page, seeded.ids.length - CONSOLE_PAGE_LIMIT);
        expect(await listedIds(page)).toEqual(newestFirst.slice(CONSOLE_PAGE_LIMIT));
        expect(searchParams(page).get('cursors')).toMatch(/^\["[^"]+"\]$/);
        const erasedRow = page.locator('table.orders-table tbody tr').filter({ hasText: ERASED_ID });
        await erasedRow.getByText('Personal data erased').waitFor();
        expect(await page.getByText('Personal data erased').count()).toBe(1);
        expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
        await expectAccessible(page, 'the second page of orders');
        await shot('orders', 'page-2');

        // Previous page, then the browser's Back and Forward, then a reload: the URL holds the page.
        await page.getByRole('link', { name: 'Previous page' }).click();
        await page.getByText('Page 1', { exact: true }).waitFor();
        await resultsLoaded(page, CONSOLE_PAGE_LIMIT);
        expect(await listedIds(page)).toEqual(newestFirst.slice(0, CONSOLE_PAGE_LIMIT));
        await page.goBack();
        await page.getByText('Page 2', { exact: true }).waitFor();
        await resultsLoaded(page, seeded.ids.length - CONSOLE_PAGE_LIMIT);
        await waitForIdle(page);
        await page.reload();
        await page.getByText('Page 2', { exact: true }).waitFor();
        await resultsLoaded(page, seeded.ids.length - CONSOLE_PAGE_LIMIT);
        expect(await listedIds(page)).toEqual(newestFirst.slice(CONSOLE_PAGE_LIMIT));
        await page.goBack();
        await page.getByText('Page 1', { exact: true }).waitFor();
        await resultsLoaded(page, CONSOLE_PAGE_LIMIT);
        await page.goBack();
        await page.getByText('No order matches “nobody@example.com”.', { exact: false }).waitFor();
        expect(await field.inputValue()).toBe('nobody@example.com');

        // Junk in the URL is the first page of every order.
        await waitForIdle(page);
        await page.goto(`${service.baseUrl}/console/orders?q=${'x'.repeat(300)}&cursors=${encodeURIComponent('{"not":"a trail"}')}`);
        await resultsLoaded(page, CONSOLE_PAGE_LIMIT);
        expect(await listedIds(page)).toEqual(newestFirst.slice(0, CONSOLE_PAGE_LIMIT));

        // The erased order, whose id needs encoding, through its search and its link.
        await field.fill(ERASED_ID);
        await page.keyboard.press('Enter');
        await resultsLoaded(page, 1);
        await page.getByRole('link', { name: ERASED_ID, exact: true }).click();
        await waitForPath(page, `/console/orders/${encodeURIComponent(ERASED_ID)}`);
        await page.getByRole('heading', { level: 1, name: `Order ${ERASED_ID}` }).waitFor();
        const shopper = section(page, 'Shopper');
        await shopper.getByText("The shopper's personal data was erased.").waitFor();
        expect(await shopper.getByText('Erin').count()).toBe(0);
        expect(requests.some((url) => new URL(url).pathname === `/console/api/orders/${encodeURIComponent(ERASED_ID)}`)).toBe(true);
        await expectAccessible(page, 'an erased order');
        await shot('orders', 'erased');

        // An order the store does not have.
        await page.goto(`${service.baseUrl}/console/orders/${MISSING_ORDER}`);
        await page.getByRole('heading', { level: 1, name: 'No such order' }).waitFor();
        await page.getByText(`Your store has no order with the source order id “${MISSING_ORDER}”.`).waitFor();
        expect(await page.title()).toMatch(/^No such order · /);
        await expectAccessible(page, 'no such order');
        await shot('orders', 'missing');
      },
      'console-orders-desktop-last',
    );
    expect(problems).toEqual([]);
  }, 90_000);

  it("shows an order's items, ledger, shipments, claims and refunds; a shipment's timeline; an admin sets an unknown carrier by keyboard", async () => {
    const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height }, locale: 'en-US', timezoneId: 'Pacific/Honolulu' });
    const watched = await watchedPage(context, EXPECTED_FAILURES);
    const { page, problems, requests } = watched;
    const shot = shotOf(page, DESKTOP);
    await inBrowser(
      watched,
      context,
      async () => {
        await logIn(page, 'admin');
        await page.goto(`${service.baseUrl}/console/orders?q=${encodeURIComponent(seeded.main.id)}`);
        await page.getByRole('link', { name: seeded.main.id, exact: true }).click();
        await waitForPath(page, `/console/orders/${seeded.main.id}`);
        await page.getByRole('heading', { level: 1, name: `Order ${seeded.main.id}` }).waitFor();
        expect(await page.title()).toBe(`Order ${seeded.main.id} · ${store.store.name} · Merchant console`);

        const summary = section(page, 'Summary');
        await summary.getByText(seeded.main.number, { exact: true }).waitFor();
        expect(await summary.locator('.section-fact').filter({ hasText: 'Net premium' }).locator('dd').innerText()).toBe('$2.50');
        expect(await summary.locator('.section-fact').filter({ hasText: 'Subtotal' }).locator('dd').innerText()).toBe('$200.00');
        expect(await section(page, 'Shopper').locator('dd').first().innerText()).toBe('Grace Hopper');

        // 62.50 × 2 and 19.99 × 3.
        expect(await rowsOf(section(page, 'Items').locator('table'))).toEqual([
          ['Walnut desk organiser', 'DESK-ORG-W', '$62.50', '2', '$125.00', 'Not said'],
          ['Brass lamp', 'None', '$19.99', '3', '$59.97', 'Yes'],
        ]);
        const ledger = section(page, 'Premium ledger');
        expect((await rowsOf(ledger.locator('table'))).map((cells) => [cells[0], cells[1], cells[4]])).toEqual([
          ['Booking', '+$1.88', 'None'],
          ['Re-pricing', '+$1.12', 'None'],
          ['Reversal', '-$0.50', seeded.main.refundId],
        ]);
        // The booking counts for the day it was placed in UTC, as the billing statement counts it.
        expect((await rowsOf(ledger.locator('table')))[0]?.[2]).toBe(PLACED_UTC_DAY);
        expect(await ledger.locator('.orders-net').innerText()).toMatch(/^Net premium\s+\$2\.50$/);
        expect((await rowsOf(section(page, 'Refunds').locator('table'))).map((cells) => [cells[0], cells[1], cells[2], cells[3], cells[5]])).toEqual([
          [seeded.main.refundId, '$20.49', '$0.50', '$0.50', 'Lamp arrived dented'],
        ]);
        const claims = section(page, 'Claims');
        const { reference } = await service.db.claim.findFirstOrThrow({ where: { id: seeded.main.claimId }, select: { reference: true } });
        const claimLink = claims.getByRole('link', { name: `Claim ${reference}`, exact: true });
        expect(await claimLink.getAttribute('href')).toBe(`/console/claims/${seeded.main.claimId}`);
        expect((await rowsOf(claims.locator('table'))).map((cells) => cells.slice(1, 4))).toEqual([['Damaged', 'Open', 'The whole order']]);
        const shipments = section(page, 'Shipments');
        expect((await rowsOf(shipments.locator('table'))).map((cells) => cells.slice(0, 3)).sort()).toEqual([
          [DELIVERED, 'UPS', 'Delivered'],
          [MYSTERY, 'Unknown', 'Active'],
        ]);
        await expectAccessible(page, 'the order page');
        await shot('orders', 'order');

        // A window too narrow for the tables, yet too wide to stack their rows: they scroll inside
        // frames a keyboard can reach, and the page does not scroll sideways.
        await page.setViewportSize({ width: 800, height: 800 });
        const refundsFrame = section(page, 'Refunds').getByRole('region', { name: 'Refunds of the order' });
        await refundsFrame.waitFor();
        expect(await refundsFrame.getAttribute('tabindex')).toBe('0');
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(800);
        await expectAccessible(page, 'the order page in a narrow window');
        await page.screenshot({ path: `${artifacts}console-orders-narrow-order.png`, fullPage: true });
        await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });

        // The delivered shipment's timeline, newest first, with its order linked back.
        await shipments.getByRole('link', { name: DELIVERED }).click();
        await waitForPath(page, `/console/shipments/${DELIVERED}`);
        await page.getByRole('heading', { level: 1, name: `Shipment ${DELIVERED}` }).waitFor();
        const shipment = section(page, 'Shipment');
        await shipment.getByRole('link', { name: seeded.main.id, exact: true }).waitFor();
        expect(await shipment.locator('.section-fact').filter({ hasText: 'Carrier' }).first().locator('dd').innerText()).toBe('UPS');
        const timeline = section(page, 'Tracking timeline');
        await timeline.getByText('newest first', { exact: false }).waitFor();
        const events = timeline.locator('li');
        expect(await events.count()).toBe(6);
        expect(await timeline.locator('li time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')))).toEqual(seeded.scanTimes);
        expect(await events.first().innerText()).toMatch(/Delivered\s+Delivered, left at front door\s+San Francisco, CA 94107, US$/);
        expect(await events.last().innerText()).toMatch(/Active\s+Shipping label created, carrier awaiting item\s+Los Angeles, CA 90021, US$/);
        // No form where the carrier is known.
        expect(await page.getByRole('region', { name: 'Set the carrier' }).count()).toBe(0);
        await expectAccessible(page, 'a delivered shipment');
        await shot('shipments', 'delivered');

        // The unknown carrier: the service's note in the timeline, and the form.
        await page.goBack();
        await page.getByRole('heading', { level: 1, name: `Order ${seeded.main.id}` }).waitFor();
        await section(page, 'Shipments').getByRole('link', { name: MYSTERY }).click();
        await page.getByRole('heading', { level: 1, name: `Shipment ${MYSTERY}` }).waitFor();
        await section(page, 'Tracking timeline').getByText('Note', { exact: true }).waitFor();
        // The note says where to act in the console, not which API field to send.
        await section(page, 'Tracking timeline')
          .getByText('The carrier could not be told from this tracking number, so it is not tracked. An admin or owner can set the carrier on this page.')
          .waitFor();
        expect(await section(page, 'Tracking timeline').innerText()).not.toContain('courier_id');
        const form = section(page, 'Set the carrier');
        // The carriers by name (the picker itself is judged in console-web-shipments.test.ts).
        const carrier = form.getByRole('combobox', { name: 'Carrier' });
        expect(await carrier.inputValue()).toBe('');
        await expectAccessible(page, 'a shipment whose carrier is unknown');
        await shot('shipments', 'unknown-carrier');

        // By keyboard: no carrier chosen is refused beside the field; then FedEx, by its name.
        await carrier.focus();
        await page.keyboard.press('Tab');
        expect(await focusedText(page)).toBe('Set carrier');
        await page.keyboard.press('Enter');
        await form.getByText('Choose the carrier.', { exact: true }).waitFor();
        expect(await carrier.getAttribute('aria-invalid')).toBe('true');
        await expectAccessible(page, 'the carrier refused');
        await shot('shipments', 'carrier-refused');
        await carrier.selectOption({ label: 'FedEx' });
        expect(await carrier.getAttribute('aria-invalid')).toBeNull();
        await carrier.focus();
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        const done = page.getByRole('status').filter({ hasText: 'The carrier is now FedEx.' });
        await done.waitFor();
        // The form is gone with the unknown carrier: the focus is on what happened.
        await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.getAttribute("role")')).toBe('status');
        expect(await section(page, 'Shipment').locator('.section-fact').filter({ hasText: 'Carrier' }).first().locator('dd').innerText()).toBe('FedEx');
        expect(await page.getByRole('region', { name: 'Set the carrier' }).count()).toBe(0);
        const read = await api('GET', `/v1/shipments/${MYSTERY}`);
        expect(read.body.courier).toBe('fedex');
        await expectAccessible(page, 'the carrier set');
        await shot('shipments', 'carrier-set');

        // The order page shows the new carrier too.
        await page.getByRole('link', { name: `Order ${seeded.main.id}` }).click();
        await page.getByRole('heading', { level: 1, name: `Order ${seeded.main.id}` }).waitFor();
        await section(page, 'Shipments').locator('tr').filter({ hasText: MYSTERY }).getByText('fedex').waitFor();

        // A tracking number that needs encoding, and no such shipment.
        await waitForIdle(page);
        await page.goto(`${service.baseUrl}/console/shipments/${encodeURIComponent(MISSING_SHIPMENT)}`);
        await page.getByRole('heading', { level: 1, name: 'No such shipment' }).waitFor();
        await page.getByText(`Your store has no shipment with the tracking number “${MISSING_SHIPMENT}”.`).waitFor();
        expect(requests.some((url) => new URL(url).pathname === `/console/api/shipments/${encodeURIComponent(MISSING_SHIPMENT)}`)).toBe(true);
        await expectAccessible(page, 'no such shipment');
        await shot('shipments', 'missing');
      },
      'console-shipments-desktop-last',
    );
    expect(problems).toEqual([]);
  }, 90_000);

  it('fits every page on a phone', async () => {
    const context = await (browser as Browser).newContext({ viewport: { width: PHONE.width, height: PHONE.height } });
    const watched = await watchedPage(context, EXPECTED_FAILURES);
    const { page, problems } = watched;
    const shot = shotOf(page, PHONE);
    /** Nothing wider than the phone's screen: the page does not scroll sideways. */
    const fits = async (where: string) =>
      expect(await page.evaluate('document.documentElement.scrollWidth'), `${where} is no wider than the phone`).toBeLessThanOrEqual(PHONE.width);
    await inBrowser(
      watched,
      context,
      async () => {
        await logIn(page, 'admin');
        await fits('the orders list');
        await expectAccessible(page, 'the orders list on a phone');
        await shot('orders', 'list');
        await page.getByRole('link', { name: 'Next page' }).click();
        await resultsLoaded(page, seeded.ids.length - CONSOLE_PAGE_LIMIT);
        await fits('the second page');
        await expectAccessible(page, 'the second page of orders on a phone');
        await shot('orders', 'page-2');

        await page.goto(`${service.baseUrl}/console/orders/${seeded.main.id}`);
        await section(page, 'Premium ledger').locator('table').waitFor();
        await fits('the order page');
        await expectAccessible(page, 'the order page on a phone');
        await shot('orders', 'order');

        await page.goto(`${service.baseUrl}/console/orders/${encodeURIComponent(ERASED_ID)}`);
        await section(page, 'Shopper').getByText("The shopper's personal data was erased.").waitFor();
        await fits('an erased order');
        await expectAccessible(page, 'an erased order on a phone');
        await shot('orders', 'erased');

        await page.goto(`${service.baseUrl}/console/orders/${MISSING_ORDER}`);
        await page.getByRole('heading', { level: 1, name: 'No such order' }).waitFor();
        await fits('no such order');
        await expectAccessible(page, 'no such order on a phone');
        await shot('orders', 'missing');

        await page.goto(`${service.baseUrl}/console/shipments/${DELIVERED}`);
        await section(page, 'Tracking timeline').locator('li').first().waitFor();
        await fits('a delivered shipment');
        await expectAccessible(page, 'a delivered shipment on a phone');
        await shot('shipments', 'delivered');

        await page.goto(`${service.baseUrl}/console/shipments/${SECOND_MYSTERY}`);
        await section(page, 'Set the carrier').getByRole('combobox', { name: 'Carrier' }).waitFor();
        await fits('a shipment whose carrier is unknown');
        await expectAccessible(page, 'a shipment whose carrier is unknown on a phone');
        await shot('shipments', 'unknown-carrier');

        await page.goto(`${service.baseUrl}/console/shipments/${encodeURIComponent(MISSING_SHIPMENT)}`);
        await page.getByRole('heading', { level: 1, name: 'No such shipment' }).waitFor();
        await fits('no such shipment');
        await expectAccessible(page, 'no such shipment on a phone');
        await shot('shipments', 'missing');
      },
      'console-orders-phone-last',
    );
    expect(problems).toEqual([]);
  }, 90_000);

  it('shows a viewer a shipment whose carrier is unknown without the form to set it', async () => {
    const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height } });
    const watched = await watchedPage(context, EXPECTED_FAILURES);
    const { page, problems } = watched;
    await inBrowser(
      watched,
      context,
      async () => {
        await logIn(page, 'viewer');
        await page.goto(`${service.baseUrl}/console/shipments/${SECOND_MYSTERY}`);
        await page.getByRole('heading', { level: 1, name: `Shipment ${SECOND_MYSTERY}` }).waitFor();
        await page.getByText('An admin or owner can set its carrier.', { exact: false }).waitFor();
        expect(await page.getByRole('region', { name: 'Set the carrier' }).count()).toBe(0);
        expect(await page.getByRole('combobox', { name: 'Carrier' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Set carrier' }).count()).toBe(0);
        await expectAccessible(page, 'an unknown carrier for a viewer');
        await page.screenshot({ path: `${artifacts}console-shipments-desktop-viewer.png`, fullPage: true });
      },
    );
    expect(problems).toEqual([]);
  }, 60_000);
});
