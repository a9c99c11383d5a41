// The console's orders as a merchant finds and reads them, in Debian's Chromium over a real server
// and a store seeded through the merchant API: the list's columns (order number, customer, placed
// with the registration under it, total, protection, status); search by order number with or
// without # and by prefix, by an email prefix typed in capitals, a name prefix and a claim
// reference; filters by status, protection and days placed, alone, together and with a search; the
// next page keeping the filters. The order page and the claim page show the shopper's contact to
// owners and admins, not to viewers; an owner erases an order's personal data after a confirmation
// (cancelled once, then confirmed), refused while a claim is open. At 1280x800 the table fits
// without sideways scrolling; at 390 px it is usable. Axe on every state, screenshots in test-artifacts/.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_PAGE_LIMIT } from '../contract/console/index.js';
import {
  artifacts,
  DESKTOP,
  expectAccessible,
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
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

interface Shopper {
  key: 'alan' | 'edsger' | 'ada' | 'claire' | 'grace' | 'erin';
  number: string;
  day: string;
  first: string;
  last: string;
  email: string;
  extra?: Record<string, unknown>;
}

/** The orders the test reads, newest placed first; registered in another order than placed. */
const SHOPPERS: Shopper[] = [
  { key: 'alan', number: '#2001', day: '2026-11-05', first: 'Alan', last: 'Turing', email: 'alan@example.org' },
  { key: 'edsger', number: '#10025', day: '2026-11-04', first: 'Edsger', last: 'Dijkstra', email: 'ewd@example.net' },
  { key: 'ada', number: '#1002', day: '2026-11-03', first: 'Ada', last: 'Lovelace', email: 'ada.lovelace@example.com', extra: { order_total: 150.25 } },
  { key: 'claire', number: '#3001', day: '2026-11-02', first: 'Claire', last: 'Claimant', email: 'claire@example.com' },
  { key: 'grace', number: '#1003', day: '2026-11-01', first: 'Grace', last: 'Hopper', email: 'grace@navy.example', extra: { insurance_selected: false } },
  { key: 'erin', number: '#4001', day: '2026-10-31', first: 'Erin', last: 'Erasable', email: 'erin@example.com' },
];

/** Older orders, one a day from October 1st: the list has a second page. */
const FILLERS = 25;
const TOTAL = SHOPPERS.length + FILLERS;

const PHONE_NUMBER = '+1 555 0100';
const ADDRESS_LINES = ['1600 Amphitheatre Pkwy', 'Mountain View, CA 94043', 'US'];

let service: TestService;
let store: SeededStore;
let browser: Browser | undefined;
/** Source order id by shopper. */
const ids = {} as Record<Shopper['key'], string>;
/** The service's OP- number by shopper. */
const serviceNumbers = {} as Record<Shopper['key'], string>;
/** The registration time by shopper (ISO). */
const registered = {} as Record<Shopper['key'], string>;
/** Claire's claim is open (it blocks erasure); Erin's was denied (it does not). */
let openClaim: { id: string; reference: string };
let closedClaimId: string;
/** Filler numbers, newest placed first. */
const fillerNumbers: string[] = [];

const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: store.liveKey, ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  service = await startService();
  store = await seedStore(service.db);
  // Fillers first, so the named orders are registered last yet not placed last.
  for (let index = 0; index < FILLERS; index += 1) {
    const day = `2026-10-${String(index + 1).padStart(2, '0')}`;
    const body = orderBody({ source_order_number: `#${5000 + index}`, source_created_on: `${day}T09:00:00Z`, customer_details: { first_name: 'Fil', last_name: `Ler ${index}`, email: `filler-${index}@example.com` } });
    expect((await api('POST', '/v2/orders', body)).status).toBe(201);
    fillerNumbers.unshift(`#${5000 + index}`);
  }
  for (const shopper of [...SHOPPERS].reverse()) {
    const body = orderBody({
      source_order_id: `${shopper.key}-${Math.random().toString(36).slice(2, 8)}`,
      source_order_number: shopper.number,
      source_created_on: `${shopper.day}T12:00:00Z`,
      customer_details: { first_name: shopper.first, last_name: shopper.last, email: shopper.email, phone: PHONE_NUMBER },
      ...shopper.extra,
    });
    const created = await api('POST', '/v2/orders', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids[shopper.key] = body.source_order_id as string;
    serviceNumbers[shopper.key] = created.body.order_number as string;
    registered[shopper.key] = created.body.created_on as string;
  }
  expect((await api('POST', `/v1/orders/${ids.alan}/cancel`, {})).status).toBe(200);
  const open = await api('POST', '/v1/claims', { source_order_id: ids.claire, reason: 'lost' });
  expect(open.status).toBe(201);
  openClaim = { id: open.body.id as string, reference: open.body.reference as string };
  const closed = await api('POST', '/v1/claims', { source_order_id: ids.erin, reason: 'damaged', description: 'Box crushed' });
  expect(closed.status).toBe(201);
  closedClaimId = closed.body.id as string;
  expect((await api('POST', `/v1/claims/${closedClaimId}/status`, { status: 'denied', note: 'Delivered intact.' })).status).toBe(200);
  if (!skipBrowser) browser = await launch();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** Dates as the page writes them for a reader in en-US and UTC (the contexts below), spaces plain. */
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();
const shown = (iso: string) => plain(dateTime.format(new Date(iso)));

const table = (page: Page) => page.locator('table.orders-table');
const rows = (page: Page) => table(page).locator('tbody tr');
/** The order numbers listed, in order. */
const listed = (page: Page) => table(page).locator('tbody tr td:first-child a').allInnerTexts();

async function rowsLoaded(page: Page, count: number): Promise<void> {
  await expect.poll(async () => rows(page).count(), { timeout: 10_000 }).toBe(count);
}

/** The cells of a row as the user reads them, white space made plain. */
async function cellsOf(row: Locator): Promise<string[]> {
  return (await row.locator('td').allInnerTexts()).map(plain);
}

const searchParams = (page: Page) => new URL(page.url()).searchParams;
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The value of a labelled fact in a section. */
const fact = (area: Locator, term: string) => area.locator('.section-fact').filter({ has: area.page().getByRole('term').getByText(term, { exact: true }) }).locator('dd');

/** Searches through the field, by keyboard, and waits for `count` rows (0: the empty state). */
async function search(page: Page, text: string, count: number): Promise<void> {
  const field = page.getByRole('searchbox', { name: 'Search orders' });
  await field.fill(text);
  await field.press('Enter');
  await expect.poll(() => searchParams(page).get('q')?.replace(/^"|"$/g, '') ?? '').toBe(text.trim());
  if (count === 0) await page.locator('.empty-state').waitFor();
  else await rowsLoaded(page, count);
}

const statusFilter = (page: Page) => page.getByRole('navigation', { name: 'Status', exact: true });
const protectionFilter = (page: Page) => page.getByRole('navigation', { name: 'Protection', exact: true });

async function logIn(page: Page, role: 'owner' | 'admin' | 'viewer'): Promise<void> {
  await logInNewUser(service, page, store, role);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Orders' }).click();
  await waitForPath(page, '/console/orders');
  await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
  await waitForIdle(page);
}

/** The page does not scroll sideways. */
async function fits(page: Page, viewport: Viewport, where: string): Promise<void> {
  expect(await page.evaluate('document.documentElement.scrollWidth'), `${where} is no wider than ${viewport.width}px`).toBeLessThanOrEqual(viewport.width);
}

/** Opens an order's page by its URL once the current page's reads are done. */
async function openOrder(page: Page, key: Shopper['key']): Promise<void> {
  await waitForIdle(page);
  await page.goto(`${service.baseUrl}/console/orders/${encodeURIComponent(ids[key])}`);
  await page.getByRole('heading', { level: 1, name: `Order ${ids[key]}` }).waitFor();
  await section(page, 'Shopper').waitFor();
  await section(page, 'Items').waitFor();
}

const REDACT_409 = () => new RegExp(`^409 POST /console/api/orders/${ids.claire}/redact$`);

function context(viewport: Viewport) {
  return (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height }, locale: 'en-US', timezoneId: 'UTC' });
}

describe.skipIf(skipBrowser)('orders as a merchant finds and reads them', () => {
  it('lists the columns, searches by number, email, name and claim reference, filters alone and together, pages on, and fits 1280x800', async () => {
    const browserContext = await context(DESKTOP);
    const watched = await watchedPage(browserContext);
    const { page, problems } = watched;
    const shot = (step: string) => page.screenshot({ path: `${artifacts}console-orders-search-desktop-${step}.png`, fullPage: true });
    await inBrowser(
      watched,
      browserContext,
      async () => {
        await logIn(page, 'viewer');
        // Newest placed first: the named orders (registered last) above the fillers (placed in October).
        const newestPlaced = [...SHOPPERS.map((shopper) => shopper.number), ...fillerNumbers];
        expect(await listed(page)).toEqual(newestPlaced.slice(0, CONSOLE_PAGE_LIMIT));
        expect((await table(page).locator('thead th').allInnerTexts()).map((text) => plain(text).toLowerCase())).toEqual(['order', 'customer', 'placed', 'total', 'protection', 'status']);
        // Ada's row: her number over the service's, her name, the day placed over the registration, the total, the premium.
        const ada = rows(page).filter({ has: page.getByRole('link', { name: '#1002', exact: true }) });
        expect(await cellsOf(ada)).toEqual([
          `#1002 ${serviceNumbers.ada}`,
          'Ada Lovelace',
          `${shown('2026-11-03T12:00:00Z')} Registered ${shown(registered.ada)}`,
          '$150.25',
          'Protected $1.88 premium',
          'Active',
        ]);
        expect(await ada.locator('td').nth(2).locator('time').first().getAttribute('datetime')).toBe('2026-11-03T12:00:00.000Z');
        expect(await ada.getByRole('link', { name: '#1002', exact: true }).getAttribute('href')).toBe(`/console/orders/${encodeURIComponent(ids.ada)}`);
        expect(await cellsOf(rows(page).filter({ hasText: '#1003' }))).toEqual([
          `#1003 ${serviceNumbers.grace}`,
          'Grace Hopper',
          expect.stringContaining(shown('2026-11-01T12:00:00Z')),
          'Not sent',
          'Not protected',
          'Active',
        ]);
        expect((await cellsOf(rows(page).first()))[5]).toBe('Cancelled');
        // At 1280x800 the six columns fit: no frame to scroll, no page wider than the window.
        expect(await page.getByRole('region', { name: 'Orders found' }).count()).toBe(0);
        expect(await page.evaluate("document.querySelector('.table-scroll-frame').scrollWidth <= document.querySelector('.table-scroll-frame').clientWidth")).toBe(true);
        await fits(page, DESKTOP, 'the orders list');
        await expectAccessible(page, 'the orders list');
        await shot('list');

        // The order number with or without #, by its start.
        await search(page, '1002', 2);
        expect(await listed(page)).toEqual(['#10025', '#1002']);
        await page.getByText('Showing orders: matching “1002”.').waitFor();
        await search(page, '#100', 3);
        expect(await listed(page)).toEqual(['#10025', '#1002', '#1003']);
        await expectAccessible(page, 'orders found by number');
        await shot('number');
        // The start of an email, typed in capitals; of a name; a claim reference, typed in lower case.
        await search(page, 'ADA.LOVE', 1);
        expect(await listed(page)).toEqual(['#1002']);
        await search(page, 'grace h', 1);
        expect(await listed(page)).toEqual(['#1003']);
        await search(page, 'turi', 1);
        expect(await listed(page)).toEqual(['#2001']);
        await search(page, openClaim.reference.toLowerCase(), 1);
        expect(await listed(page)).toEqual(['#3001']);
        await search(page, 'nobody@example.com', 0);
        await page.getByText('No order matches “nobody@example.com”.', { exact: false }).waitFor();

        // Every order again, then the filters: status, protection, days placed.
        await page.getByRole('link', { name: 'Show every order' }).click();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        expect(await page.getByRole('searchbox', { name: 'Search orders' }).inputValue()).toBe('');
        await statusFilter(page).getByRole('link', { name: 'Cancelled', exact: true }).click();
        await expect.poll(() => searchParams(page).get('status')).toBe('cancelled');
        await rowsLoaded(page, 1);
        expect(await listed(page)).toEqual(['#2001']);
        expect(await statusFilter(page).getByRole('link', { name: 'Cancelled', exact: true }).getAttribute('aria-current')).toBe('page');
        expect(await statusFilter(page).getByRole('link', { name: 'All', exact: true }).getAttribute('aria-current')).toBeNull();
        await page.getByText('Showing orders: cancelled.').waitFor();
        await statusFilter(page).getByRole('link', { name: 'Active', exact: true }).click();
        await expect.poll(() => searchParams(page).get('status')).toBe('created');
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        expect((await listed(page)).includes('#2001')).toBe(false);
        await statusFilter(page).getByRole('link', { name: 'All', exact: true }).click();
        await expect.poll(() => searchParams(page).get('status')).toBeNull();
        await protectionFilter(page).getByRole('link', { name: 'Not protected', exact: true }).click();
        await rowsLoaded(page, 1);
        expect(await listed(page)).toEqual(['#1003']);
        expect(searchParams(page).get('protection')).toBe('not_selected');
        await expectAccessible(page, 'orders filtered by protection');
        await shot('not-protected');
        await protectionFilter(page).getByRole('link', { name: 'All', exact: true }).click();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);

        // Days placed: a backwards range is refused on its field, then Nov 3 to Nov 4.
        const from = page.getByLabel('From', { exact: true });
        const to = page.getByLabel('To', { exact: true });
        await from.fill('2026-11-05');
        await to.fill('2026-11-01');
        await page.getByRole('button', { name: 'Apply dates' }).click();
        await page.getByText('The last day must be the same as the first or later.').waitFor();
        expect(await to.getAttribute('aria-invalid')).toBe('true');
        expect(searchParams(page).get('placed_from')).toBeNull();
        await to.fill('2026-11-04');
        expect(await to.getAttribute('aria-invalid')).toBeNull();
        await from.fill('2026-11-03');
        await page.getByRole('button', { name: 'Apply dates' }).click();
        await expect.poll(() => [searchParams(page).get('placed_from'), searchParams(page).get('placed_to')]).toEqual(['2026-11-03', '2026-11-04']);
        await rowsLoaded(page, 2);
        expect(await listed(page)).toEqual(['#10025', '#1002']);
        await page.getByText('Showing orders: placed from Nov 3, 2026 to Nov 4, 2026.').waitFor();
        // With a search: '100' from Nov 4 on is #10025 alone; the search keeps the days.
        await from.fill('2026-11-04');
        await to.fill('');
        await page.getByRole('button', { name: 'Apply dates' }).click();
        await expect.poll(() => searchParams(page).get('placed_to')).toBeNull();
        await search(page, '100', 1);
        expect(await listed(page)).toEqual(['#10025']);
        expect(searchParams(page).get('placed_from')).toBe('2026-11-04');
        expect(await from.inputValue()).toBe('2026-11-04');
        await page.getByText('Showing orders: matching “100”, placed on Nov 4, 2026 or later.').waitFor();
        // And a filter keeps the search: not protected, '#100' is Grace's alone (the days cleared first).
        await page.getByRole('link', { name: 'Any date' }).click();
        await expect.poll(() => searchParams(page).get('placed_from')).toBeNull();
        await search(page, '#100', 3);
        await protectionFilter(page).getByRole('link', { name: 'Not protected', exact: true }).click();
        await rowsLoaded(page, 1);
        expect(await listed(page)).toEqual(['#1003']);
        expect(searchParams(page).get('q')?.replace(/^"|"$/g, '')).toBe('#100');
        await expectAccessible(page, 'a search with a filter');
        await shot('search-and-filter');

        // The next page keeps the filter: protected orders, 30 of them, 25 and 5.
        await page.getByRole('link', { name: 'Show every order' }).click();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        await protectionFilter(page).getByRole('link', { name: 'Protected', exact: true }).click();
        await expect.poll(() => searchParams(page).get('protection')).toBe('selected');
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        const protectedNumbers = newestPlaced.filter((number) => number !== '#1003');
        expect(await listed(page)).toEqual(protectedNumbers.slice(0, CONSOLE_PAGE_LIMIT));
        await page.getByRole('link', { name: 'Next page' }).click();
        await page.getByText('Page 2', { exact: true }).waitFor();
        await rowsLoaded(page, TOTAL - 1 - CONSOLE_PAGE_LIMIT);
        expect(await listed(page)).toEqual(protectedNumbers.slice(CONSOLE_PAGE_LIMIT));
        expect(searchParams(page).get('protection')).toBe('selected');
        expect(searchParams(page).get('cursors')).toMatch(/^\["[^"]+"\]$/);
        expect(await protectionFilter(page).getByRole('link', { name: 'Protected', exact: true }).getAttribute('aria-current')).toBe('page');
        expect(await protectionFilter(page).getByRole('link', { name: 'All', exact: true }).getAttribute('aria-current')).toBeNull();
        await expectAccessible(page, 'the second page of protected orders');
        await shot('page-2');
        // A filter chosen on page 2 starts at page 1.
        await statusFilter(page).getByRole('link', { name: 'Active', exact: true }).click();
        await expect.poll(() => searchParams(page).get('cursors')).toBeNull();
        await page.getByText('Page 1', { exact: true }).waitFor();
        expect(searchParams(page).get('protection')).toBe('selected');

        // A row leads to its order page.
        await statusFilter(page).getByRole('link', { name: 'All', exact: true }).click();
        await protectionFilter(page).getByRole('link', { name: 'All', exact: true }).click();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        await page.getByRole('link', { name: '#1002', exact: true }).click();
        await waitForPath(page, `/console/orders/${ids.ada}`);
        await page.getByRole('heading', { level: 1, name: `Order ${ids.ada}` }).waitFor();
        expect(await fact(section(page, 'Summary'), 'Order number').innerText()).toBe('#1002');
        expect(plain(await fact(section(page, 'Summary'), 'Placed').innerText())).toBe(shown('2026-11-03T12:00:00Z'));
        expect(plain(await fact(section(page, 'Summary'), 'Registered').innerText())).toBe(shown(registered.ada));
      },
      'console-orders-search-desktop-last',
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it("shows the shopper's contact to owners and admins on the order and claim pages, and not to viewers", async () => {
    const viewerContext = await context(DESKTOP);
    const viewer = await watchedPage(viewerContext);
    await inBrowser(
      viewer,
      viewerContext,
      async () => {
        const { page } = viewer;
        await logIn(page, 'viewer');
        await openOrder(page, 'ada');
        const shopper = section(page, 'Shopper');
        expect(await fact(shopper, 'Name').innerText()).toBe('Ada Lovelace');
        expect(await fact(shopper, 'Personal data').innerText()).toBe('Kept');
        await shopper.getByText('The contact details (email, phone and shipping address) are shown to owners and admins.').waitFor();
        expect(await fact(shopper, 'Email').count()).toBe(0);
        expect(await page.getByText('ada.lovelace@example.com').count()).toBe(0);
        expect(await page.getByText(PHONE_NUMBER).count()).toBe(0);
        expect(await page.getByRole('button', { name: /^Erase/ }).count()).toBe(0);
        await expectAccessible(page, 'the order page for a viewer');
        await page.screenshot({ path: `${artifacts}console-orders-search-desktop-order-viewer.png`, fullPage: true });

        await waitForIdle(page);
        await page.goto(`${service.baseUrl}/console/claims/${openClaim.id}`);
        const contact = section(page, "Shopper's contact");
        await contact.getByText('The contact details (email, phone and shipping address) are shown to owners and admins.').waitFor();
        expect(await page.getByText('claire@example.com').count()).toBe(0);
        await expectAccessible(page, 'the claim page for a viewer');
      },
      'console-orders-search-viewer-last',
    );
    expect(viewer.problems).toEqual([]);

    const adminContext = await context(DESKTOP);
    const admin = await watchedPage(adminContext);
    await inBrowser(
      admin,
      adminContext,
      async () => {
        const { page } = admin;
        await logIn(page, 'admin');
        await openOrder(page, 'ada');
        const shopper = section(page, 'Shopper');
        expect(await fact(shopper, 'Name').innerText()).toBe('Ada Lovelace');
        const email = fact(shopper, 'Email').getByRole('link', { name: 'ada.lovelace@example.com' });
        expect(await email.getAttribute('href')).toBe('mailto:ada.lovelace@example.com');
        expect(await fact(shopper, 'Phone').getByRole('link', { name: PHONE_NUMBER }).getAttribute('href')).toBe('tel:+15550100');
        expect((await fact(shopper, 'Shipping address').innerText()).split('\n').map(plain)).toEqual(ADDRESS_LINES);
        expect(await fact(shopper, 'Personal data').innerText()).toBe('Kept');
        // Only an owner erases.
        expect(await page.getByRole('button', { name: /^Erase/ }).count()).toBe(0);
        await shopper.getByText("An owner can erase the shopper's personal data from this page.").waitFor();
        await expectAccessible(page, 'the order page for an admin');
        await page.screenshot({ path: `${artifacts}console-orders-search-desktop-order-admin.png`, fullPage: true });

        // The claim page, reached from the order's claims: the same contact.
        await openOrder(page, 'claire');
        await section(page, 'Claims').getByRole('link', { name: `Claim ${openClaim.reference}` }).click();
        await waitForPath(page, `/console/claims/${openClaim.id}`);
        const contact = section(page, "Shopper's contact");
        await fact(contact, 'Email').getByRole('link', { name: 'claire@example.com' }).waitFor();
        expect(await fact(contact, 'Name').innerText()).toBe('Claire Claimant');
        expect(await fact(contact, 'Phone').innerText()).toBe(PHONE_NUMBER);
        expect((await fact(contact, 'Shipping address').innerText()).split('\n').map(plain)).toEqual(ADDRESS_LINES);
        await expectAccessible(page, 'the claim page with the contact');
        await page.screenshot({ path: `${artifacts}console-orders-search-desktop-claim-contact.png`, fullPage: true });
      },
      'console-orders-search-admin-last',
    );
    expect(admin.problems).toEqual([]);
  }, 120_000);

  it("lets an owner erase an order's personal data after a confirmation, and refuses it while a claim is open", async () => {
    const browserContext = await context(DESKTOP);
    const watched = await watchedPage(browserContext, [SESSION_PROBE, REDACT_409()]);
    const { page, problems } = watched;
    const shot = (step: string) => page.screenshot({ path: `${artifacts}console-orders-search-desktop-${step}.png`, fullPage: true });
    const emailOf = async (key: Shopper['key']) => (await service.db.order.findFirstOrThrow({ where: { storeId: store.store.id, sourceOrderId: ids[key] } })).customerEmail;
    await inBrowser(
      watched,
      browserContext,
      async () => {
        await logIn(page, 'owner');
        await openOrder(page, 'erin');
        const shopper = section(page, 'Shopper');
        await fact(shopper, 'Email').getByText('erin@example.com').waitFor();
        const eraseButton = shopper.getByRole('button', { name: 'Erase personal data…' });
        const dialog = page.getByRole('dialog', { name: "Erase the shopper's personal data?" });

        // The confirmation says what goes, what stays and that it is for good; Cancel erases nothing.
        await eraseButton.click();
        await dialog.waitFor();
        expect(await focusedText(page)).toBe('Cancel');
        await dialog.getByText(`From order #4001. This cannot be undone.`).waitFor();
        const listOf = async (heading: string) =>
          (await dialog.locator('div', { has: page.getByRole('heading', { level: 3, name: heading, exact: true }) }).last().getByRole('listitem').allInnerTexts()).map(plain);
        expect(await listOf('Erased')).toEqual([
          "The shopper's name, email and phone",
          'The shipping and billing addresses',
          "Claim descriptions, decision and refund notes, and the shopper's claim photos",
          "The items' image links",
        ]);
        expect(await listOf('Kept')).toEqual([
          'The order, its numbers and amounts',
          'Its items, shipments and tracking',
          'Its claims and their decisions, without their texts',
          'The premium ledger: billing does not change',
        ]);
        await expectAccessible(page, 'the erase confirmation');
        await shot('erase-confirm');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(await focusedText(page)).toBe('Erase personal data…');
        expect(await fact(shopper, 'Email').innerText()).toBe('erin@example.com');
        await waitForIdle(page);
        expect(await emailOf('erin')).toBe('erin@example.com');

        // Confirmed: "Personal data: erased", the contact gone, the focus on what happened.
        await eraseButton.click();
        await dialog.getByRole('button', { name: 'Erase personal data', exact: true }).click();
        await shopper.getByText('Personal data: erased', { exact: true }).waitFor();
        await dialog.waitFor({ state: 'hidden' });
        expect(await page.getByText('erin@example.com').count()).toBe(0);
        expect(await fact(shopper, 'Email').count()).toBe(0);
        expect(await eraseButton.count()).toBe(0);
        const done = shopper.getByRole('status');
        expect(plain(await done.innerText())).toBe("Done: the shopper's personal data is erased from this order.");
        expect(await focusedText(page)).toBe("Done: the shopper's personal data is erased from this order.");
        expect(await emailOf('erin')).toBeNull();
        const read = await api('GET', `/v2/orders/${ids.erin}`);
        expect(read.body).toMatchObject({ has_pii: false, first_name: null, last_name: null });
        await expectAccessible(page, 'an order just erased');
        await shot('erased');
        // The claim on it says so too.
        await section(page, 'Claims').getByRole('link').first().click();
        await waitForPath(page, `/console/claims/${closedClaimId}`);
        await section(page, "Shopper's contact").getByText('Personal data: erased', { exact: true }).waitFor();
        // The list: no longer found by name, still by number, marked.
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Orders' }).click();
        await rowsLoaded(page, CONSOLE_PAGE_LIMIT);
        await search(page, 'erin', 0);
        await search(page, '#4001', 1);
        expect((await cellsOf(rows(page).first()))[1]).toBe('Personal data erased');

        // An open claim: the server refuses, and the dialog says why; nothing is erased.
        await openOrder(page, 'claire');
        await shopper.getByRole('button', { name: 'Erase personal data…' }).click();
        await dialog.getByRole('button', { name: 'Erase personal data', exact: true }).click();
        const refusal = dialog.getByRole('alert');
        await expect.poll(async () => plain(await refusal.innerText())).toBe(
          "Nothing was erased. The order has an open claim, which needs the shopper's contact; erase it once the claim is resolved.",
        );
        await expectAccessible(page, 'an erasure refused');
        await shot('erase-refused');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(await fact(shopper, 'Email').innerText()).toBe('claire@example.com');
        expect(await fact(shopper, 'Personal data').innerText()).toBe('Kept');
        expect(await emailOf('claire')).toBe('claire@example.com');
      },
      'console-orders-search-owner-last',
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('is usable at a phone’s width: the list, its filters, an order page and the confirmation', async () => {
    const browserContext = await context(PHONE);
    const watched = await watchedPage(browserContext);
    const { page, problems } = watched;
    const shot = (step: string) => page.screenshot({ path: `${artifacts}console-orders-search-phone-${step}.png`, fullPage: true });
    await inBrowser(
      watched,
      browserContext,
      async () => {
        await logIn(page, 'owner');
        await fits(page, PHONE, 'the orders list');
        // Each row is a card as wide as the screen, its values labelled.
        const box = await rows(page).first().boundingBox();
        expect(box).not.toBeNull();
        expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= PHONE.width).toBe(true);
        expect((await table(page).locator('thead').boundingBox())?.height).toBeLessThanOrEqual(1);
        await expectAccessible(page, 'the orders list on a phone');
        await shot('list');
        // The filters and the search at hand.
        await protectionFilter(page).getByRole('link', { name: 'Not protected', exact: true }).click();
        await rowsLoaded(page, 1);
        expect(await listed(page)).toEqual(['#1003']);
        await search(page, 'hopper', 1);
        await page.getByLabel('From', { exact: true }).fill('2026-11-02');
        await page.getByRole('button', { name: 'Apply dates' }).click();
        await page.locator('.empty-state').waitFor();
        await page.getByText('No order matches “hopper” with these filters.', { exact: false }).waitFor();
        await fits(page, PHONE, 'the filtered list');
        await expectAccessible(page, 'the filtered list on a phone');
        await shot('filtered');

        await openOrder(page, 'ada');
        await fits(page, PHONE, 'the order page');
        await expectAccessible(page, 'the order page on a phone');
        await shot('order');
        await section(page, 'Shopper').getByRole('button', { name: 'Erase personal data…' }).click();
        const dialog = page.getByRole('dialog', { name: "Erase the shopper's personal data?" });
        await dialog.waitFor();
        const dialogBox = await dialog.boundingBox();
        expect((dialogBox?.x ?? -1) >= 0 && (dialogBox?.x ?? 0) + (dialogBox?.width ?? 0) <= PHONE.width).toBe(true);
        await expectAccessible(page, 'the erase confirmation on a phone');
        await page.screenshot({ path: `${artifacts}console-orders-search-phone-erase-confirm.png` });
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });
      },
      'console-orders-search-phone-last',
    );
    expect(problems).toEqual([]);
  }, 120_000);
});
