// The console's Developers pages in Debian's Chromium, over the real server with its event workers
// on, as a merchant uses them: an admin adds a webhook endpoint pointing at a local receiver (the
// form's own errors and the server's), sees its signing secret once and copies it, sends a test
// event that arrives signed and shows as succeeded, opens a delivery's attempts (a 500, then a 200)
// and resends it, edits its events and description, disables and enables it, rotates its secret
// (the new one shown once, the 24-hour overlap said on screen, both signing) and deletes it after a
// confirmation. The tables fit 1280 and 1440 px wide with nothing cut but long values (ellipsis, the
// whole value as the title); the request log pages like the other lists, with no personal data. A
// viewer is told the page is for owners and admins, with no link to it and no request refused. Axe
// and screenshots at a phone's and a desktop's size.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../contract/console/index.js';
import { EVENT_TYPES } from '../contract/merchant-events.js';
import { actingFor } from '../server/domain/access/index.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import {
  artifacts,
  DESKTOP,
  expectAccessible,
  focusedId,
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
import { startEventReceiver, verifiedWith, type EventReceiver } from './support/event-receiver.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  // Event workers on, retried after a second: a failed attempt is followed by its retry within the test.
  service = await startService({ events: { workers: true, retryScheduleSeconds: [1, 1, 1], dispatchIntervalMs: 50 } });
  if (!skipBrowser) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The browser's locale and zone are fixed, so the dates the page writes can be worked out here. */
const CONTEXT = { locale: 'en-US', timezoneId: 'UTC' } as const;
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const formatted = (iso: string | Date) => dateTime.format(new Date(iso));
const WIDE: Viewport = { name: 'wide', width: 1440, height: 900 };

const newContext = async () => {
  const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height }, ...CONTEXT });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(service.baseUrl).origin });
  return context;
};

/**
 * Axe and a screenshot at each size, then back to the desktop's. Nothing may be wider than a
 * phone's screen. A dialog is shot as the user sees it (its backdrop covers the viewport only).
 */
async function checkAtEachSize(page: Page, step: string, where: string, fullPage = true): Promise<void> {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await expectAccessible(page, `${where} (${viewport.name})`);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    expect(overflow, `${where} is wider than the ${viewport.name} screen`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}console-dev-${step}-${viewport.name}.png`, fullPage });
  }
}

interface TableFit {
  caption: string;
  /** The scroll frame's widths (components/TableScroll): the table scrolls when scroll > client. */
  frameScroll: number;
  frameClient: number;
  /** Whether the frame became a scrolling region. */
  region: boolean;
  table: number;
  /** The cells whose content is wider than the cell: cut, or spilling into the next column. */
  cut: string[];
  /** Values cut with an ellipsis, each with its whole value as the title. */
  truncated: Array<{ title: string; text: string }>;
}

// The page's scripts are strings: the project's type check has no DOM library.
const TABLE_FITS = `[...document.querySelectorAll('.table-scroll-frame')].map((frame) => {
  const table = frame.querySelector('table');
  const cells = [...frame.querySelectorAll('th, td')];
  return {
    caption: table.querySelector('caption').textContent,
    frameScroll: frame.scrollWidth,
    frameClient: frame.clientWidth,
    region: frame.getAttribute('role') === 'region',
    table: Math.round(table.getBoundingClientRect().width),
    cut: cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent.slice(0, 80)),
    truncated: [...frame.querySelectorAll('.dev-truncate')]
      .filter((value) => value.scrollWidth > value.clientWidth)
      .map((value) => ({ title: value.title, text: value.textContent })),
  };
})`;

/**
 * At 1280 and 1440 px wide: every table of the page fits its frame (no sideways scroll), no cell's
 * content is wider than its cell, and each value cut with an ellipsis keeps its whole value as the
 * title. Answers what was cut, at 1280.
 */
async function expectTablesFit(page: Page, where: string, tables: number): Promise<TableFit[]> {
  const fits: TableFit[][] = [];
  for (const viewport of [DESKTOP, WIDE]) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const found = (await page.evaluate(TABLE_FITS)) as TableFit[];
    expect(found.map((fit) => fit.caption).length, `the tables of ${where}`).toBe(tables);
    for (const fit of found) {
      const what = `${fit.caption} on ${where} at ${viewport.width} px`;
      expect(fit.frameScroll, `${what}: scrolls sideways`).toBeLessThanOrEqual(fit.frameClient);
      expect(fit.table, `${what}: wider than its frame`).toBeLessThanOrEqual(fit.frameClient);
      expect(fit.region, `${what}: became a scrolling region`).toBe(false);
      expect(fit.cut, `${what}: cells whose content is cut`).toEqual([]);
      for (const value of fit.truncated) expect(value.title, `${what}: a value cut without its title`).toBe(value.text);
    }
    fits.push(found);
  }
  await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
  return fits[0] as TableFit[];
}

const rowsOf = (page: Page, tableName: string | RegExp) => page.getByRole('table', { name: tableName }).locator('tbody tr');
const clipboard = (page: Page) => page.evaluate('navigator.clipboard.readText()') as Promise<string>;
/** What the page shows, to look for something that must not be there. */
const bodyText = (page: Page) => page.locator('body').innerText();

/** Every request of the store's keys is counted: the request log must hold them all. */
function storeApi(store: SeededStore) {
  let made = 0;
  return {
    made: () => made,
    call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      made += 1;
      return call(service.baseUrl, method, path, { key: store.liveKey, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) });
    },
  };
}

/** Waits until the request log holds `count` lines of the store (a line is written a second after its answer at most). */
async function logged(store: SeededStore, count: number): Promise<void> {
  await expect
    .poll(async () => {
      await service.requestLog.flush();
      return service.db.requestLogEntry.count({ where: { storeId: store.store.id } });
    })
    .toBe(count);
}

describe.skipIf(skipBrowser)('the developers pages', () => {
  it('let an admin add, test, resend, edit, disable, enable, rotate and delete an endpoint, with tables that fit and a paged request log', async () => {
    const store = await seedStore(service.db);
    const api = storeApi(store);
    const receiver: EventReceiver = await startEventReceiver();
    // The first attempt of the first real event gets a 500 (retried a second later); test events a 500
    // while refuseTests holds; everything else a 200.
    let refusedOnce = false;
    let refuseTests = false;
    receiver.answer((_index, received) => {
      if (refuseTests && received.event.mode === 'test') return 500;
      if (received.event.mode === 'live' && !refusedOnce) {
        refusedOnce = true;
        return 500;
      }
      return 200;
    });
    const platform = `devweb${Date.now()}`;
    await createPlatform(service.db, TEST_OPERATOR, platform, 'developers-web-platform-secret-0123');
    await connectStore(service.db, actingFor(TEST_OPERATOR, store.store), platform);
    const connectedAt = (await service.db.storePlatform.findFirstOrThrow({ where: { storeId: store.store.id } })).connectedAt;
    const customer = { first_name: 'Quentin', last_name: 'Logless', email: 'quentin@example.com', phone: '+1 555 0199' };

    const context = await newContext();
    const watched = await watchedPage(context, [SESSION_PROBE, /^400 POST \/console\/api\/webhook_endpoints$/]);
    const { page, problems } = watched;
    // Every request the page makes, with its method: the form's own check must send nothing.
    const sent: string[] = [];
    page.on('request', (request) => sent.push(`${request.method()} ${new URL(request.url()).pathname}`));
    const creations = () => sent.filter((line) => line === 'POST /console/api/webhook_endpoints').length;
    const idle = () => waitForIdle(page);
    let secret = '';
    try {
      await inBrowser(
        watched,
        context,
        async () => {
          await logInNewUser(service, page, store, 'admin');
          await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Developers' }).click();
          await waitForPath(page, '/console/developers');
          await page.getByRole('heading', { level: 1, name: 'Developers' }).waitFor();
          expect(await page.title()).toBe(`Developers · ${store.store.name} · Merchant console`);
          const endpointsPart = page.getByRole('region', { name: 'Webhook endpoints', exact: true });
          await endpointsPart.getByText('No webhook endpoints yet.', { exact: false }).waitFor();
          // The page no longer sends the merchant to the API to manage endpoints.
          expect(await page.getByText('managed with the API', { exact: false }).count()).toBe(0);

          // The platform, and its webhook URL copied whole.
          const platforms = rowsOf(page, 'Connected platforms, oldest connection first');
          expect(await platforms.count()).toBe(1);
          const webhookUrl = `${service.baseUrl}/api/webhooks/${platform}`;
          await platforms.getByText(platform, { exact: true }).waitFor();
          await platforms.getByText(formatted(connectedAt), { exact: true }).waitFor();
          expect(await platforms.getByTitle(webhookUrl).innerText()).toBe(webhookUrl);
          await platforms.getByRole('button', { name: `Copy the webhook URL of ${platform}` }).click();
          await platforms.getByText('Copied to the clipboard.').waitFor();
          expect(await clipboard(page)).toBe(webhookUrl);

          // Add an endpoint. Sent empty, the form says what the contract says, beside each field, and sends nothing.
          await endpointsPart.getByRole('button', { name: 'Add endpoint' }).click();
          const addDialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
          const url = addDialog.getByLabel('Endpoint URL');
          expect(await focusedId(page)).toBe(await url.getAttribute('id'));
          await addDialog.getByRole('button', { name: 'Add endpoint' }).click();
          await addDialog.getByText('Must be an absolute URL.', { exact: true }).waitFor();
          await addDialog.getByText('Must name at least one event type.', { exact: true }).waitFor();
          expect(await url.getAttribute('aria-invalid')).toBe('true');
          expect(await page.locator(`#${(await url.getAttribute('aria-describedby'))?.split(' ').at(-1)}`).innerText()).toBe('Must be an absolute URL.');
          expect(await focusedId(page)).toBe(await url.getAttribute('id'));
          expect(creations()).toBe(0);
          await checkAtEachSize(page, 'add-errors', 'the add dialog with its errors', false);

          // What only the server knows: an ftp URL is a URL, but not one it sends to. Its answer shows beside the field.
          await url.fill('ftp://example.com/hooks');
          await addDialog.getByRole('checkbox', { name: /^order\.created/ }).check();
          await addDialog.getByRole('button', { name: 'Add endpoint' }).click();
          await addDialog.getByText('Must use https or http.', { exact: true }).waitFor();
          expect(creations()).toBe(1);
          expect(await service.db.webhookEndpoint.count({ where: { storeId: store.store.id } })).toBe(0);

          // Fixed: the receiver's URL, two types and a description.
          await url.fill(receiver.url);
          await addDialog.getByRole('checkbox', { name: /^claim\.created/ }).check();
          await addDialog.getByLabel('Description').fill('Fulfilment app');
          // Deliveries at once: the default shown, 0 refused by the contract's rule, then 3.
          const atOnce = addDialog.getByLabel('Deliveries at once');
          expect(await atOnce.inputValue()).toBe('10');
          await atOnce.fill('0');
          await addDialog.getByRole('button', { name: 'Add endpoint' }).click();
          await addDialog.getByText('Must be at least 1.', { exact: true }).waitFor();
          await atOnce.fill('3');
          await addDialog.getByRole('button', { name: 'Add endpoint' }).click();

          // The secret, once: in a dialog, copied whole.
          const secretDialog = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
          await secretDialog.waitFor();
          secret = await secretDialog.getByLabel('Signing secret').inputValue();
          expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
          await secretDialog.getByText('It will not be shown again.', { exact: false }).waitFor();
          await secretDialog.getByRole('button', { name: 'Copy the signing secret' }).click();
          await secretDialog.getByText('Copied to the clipboard.').waitFor();
          expect(await clipboard(page)).toBe(secret);
          await checkAtEachSize(page, 'secret', 'the new endpoint secret dialog', false);
          await secretDialog.getByRole('button', { name: 'I have saved the secret' }).click();
          await secretDialog.waitFor({ state: 'hidden' });
          expect(await bodyText(page)).not.toContain(secret);
          const [added] = await service.db.webhookEndpoint.findMany({ where: { storeId: store.store.id } });
          const endpointId = added?.id as string;
          expect({ url: added?.url, events: added?.events, description: added?.description, maxInFlight: added?.maxInFlight }).toEqual({
            url: receiver.url,
            events: ['order.created', 'claim.created'],
            description: 'Fulfilment app',
            maxInFlight: 3,
          });

          // Over the API meanwhile: an endpoint whose URL is far longer than its column, one with every
          // type listed and disabled, an order of a shopper (its event goes to the receiver: a 500, then a
          // 200), and enough requests for a second page of the request log.
          const longUrl = `https://hooks.example.com/order-protection/events/receiver/${'segment-'.repeat(8)}production?token=${'0123456789abcdef'.repeat(4)}`;
          const longDescription = `Warehouse sync ${'and reconciliation '.repeat(6)}`.trim();
          expect((await api.call('POST', '/v1/webhook_endpoints', { url: longUrl, events: ['claim.status_changed'], description: longDescription })).status).toBe(201);
          const every = await api.call('POST', '/v1/webhook_endpoints', { url: 'https://erp.example.com/hooks', events: [...EVENT_TYPES] });
          expect((await api.call('PATCH', `/v1/webhook_endpoints/${every.body.id as string}`, { enabled: false })).body.status).toBe('disabled');
          expect((await api.call('POST', '/v2/orders', orderBody({ customer_details: customer }), { 'x-request-id': 'req-dev-first-order' })).status).toBe(201);
          for (let batch = 0; batch < 6; batch += 1) {
            await Promise.all(Array.from({ length: 10 }, (_, index) => api.call('GET', `/v2/orders/missing-${batch * 10 + index}?expand=secret-query`)));
          }
          await logged(store, api.made());
          expect(api.made()).toBeGreaterThan(50);
          await receiver.waitFor((received) => received.filter((delivery) => delivery.event.type === 'order.created').length === 2);
          const order = receiver.received.find((delivery) => delivery.event.type === 'order.created');
          const orderEventId = order?.event.id as string;
          expect(verifiedWith(secret, order!)).toMatchObject({ id: orderEventId, mode: 'live' });

          await idle();
          await page.reload();
          const endpoints = rowsOf(page, 'Webhook endpoints, oldest first');
          await endpoints.nth(2).waitFor();
          expect(await endpoints.count()).toBe(3);
          const receiverRow = endpoints.filter({ hasText: receiver.url });
          for (const text of ['Fulfilment app', 'order.created', 'claim.created', 'Enabled', formatted(added?.createdAt ?? '')]) {
            await receiverRow.getByText(text, { exact: true }).waitFor();
          }
          const longRow = endpoints.filter({ hasText: longUrl });
          await longRow.getByText('claim.status_changed', { exact: true }).waitFor();
          const everyRow = endpoints.filter({ hasText: 'https://erp.example.com/hooks' });
          for (const text of ['Disabled', 'and 6 more']) await everyRow.getByText(text, { exact: true }).waitFor();
          expect(await everyRow.getByRole('list').getAttribute('title')).toBe(EVENT_TYPES.join(', '));

          // The tables fit 1280 and 1440 px: the long URL and its description are cut, their whole value the title.
          const fits = await expectTablesFit(page, 'the developers page', 3);
          const endpointsFit = fits.find((fit) => fit.caption === 'Webhook endpoints, oldest first');
          expect(endpointsFit?.truncated.map((value) => value.title)).toEqual([longUrl, longDescription]);
          // The receiver's short URL is whole.
          expect(await receiverRow.getByTitle(receiver.url).innerText()).toBe(receiver.url);

          // The request log: 50 a page, newest first; the next page has the rest, the shopper's order among them.
          const log = rowsOf(page, /^Requests of the last 24 hours, newest first/);
          await log.first().waitFor();
          expect(await log.count()).toBe(50);
          await page.getByRole('table', { name: 'Requests of the last 24 hours, newest first, page 1' }).waitFor();
          const pager = page.getByRole('navigation', { name: 'Pages of the request log' });
          await pager.getByText('Page 1', { exact: true }).waitFor();
          expect(await pager.getByRole('link', { name: 'Previous page' }).count()).toBe(0);
          await page.getByText('no headers, query strings, bodies or personal data', { exact: false }).waitFor();
          await checkAtEachSize(page, 'page', 'the developers page');
          const firstOrder = log.filter({ hasText: 'req-dev-first-order' });
          expect(await firstOrder.count()).toBe(0);
          await pager.getByRole('link', { name: 'Next page' }).click();
          await page.getByRole('table', { name: 'Requests of the last 24 hours, newest first, page 2' }).waitFor();
          expect(new URL(page.url()).searchParams.get('log')).not.toBeNull();
          expect(await log.count()).toBe(api.made() - 50);
          // The keyboard is on the new page's table, the link pressed gone with the old one.
          expect((await page.evaluate('document.activeElement && document.activeElement.tagName')) as string).toBe('TABLE');
          for (const text of ['Live', 'POST', '/v2/orders', '201', 'req-dev-first-order']) await firstOrder.getByText(text, { exact: true }).waitFor();
          expect(await pager.getByRole('link', { name: 'Next page' }).count()).toBe(0);
          for (const secretText of ['Quentin', 'Logless', 'quentin@example.com', '555 0199', 'secret-query', store.liveKey, store.testKey, secret]) {
            expect(await bodyText(page), secretText).not.toContain(secretText);
          }
          // The address holds the page: a reload shows it again; Previous goes back to the first.
          await idle();
          await page.reload();
          await page.getByRole('table', { name: 'Requests of the last 24 hours, newest first, page 2' }).waitFor();
          await pager.getByRole('link', { name: 'Previous page' }).click();
          await page.getByRole('table', { name: 'Requests of the last 24 hours, newest first, page 1' }).waitFor();
          expect(await log.count()).toBe(50);

          const read = async () => (await api.call('GET', `/v1/webhook_endpoints/${endpointId}`)).body;

          // The receiver's endpoint, managed on its own page.
          await receiverRow.getByRole('link', { name: `Manage ${receiver.url}` }).click();
          await waitForPath(page, `/console/developers/endpoints/${endpointId}`);
          await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
          expect(await page.title()).toBe(`Webhook endpoint ${receiver.url} · ${store.store.name} · Merchant console`);
          const summary = page.getByRole('region', { name: 'Endpoint', exact: true });
          for (const text of [receiver.url, 'Fulfilment app', 'order.created', 'claim.created', 'Enabled', endpointId, '3 (never two about one order, shipment or claim)']) await summary.getByText(text, { exact: true }).waitFor();

          // The order's delivery: a 500, then the retry's 200. Its details show both attempts and the answers.
          const deliveries = rowsOf(page, /^Deliveries, newest first/);
          const orderRow = deliveries.filter({ hasText: orderEventId });
          await orderRow.getByText('Succeeded', { exact: true }).waitFor();
          await orderRow.getByText('Attempt 2: 200', { exact: true }).waitFor();
          await orderRow.getByText('None', { exact: true }).waitFor();
          await orderRow.getByRole('button', { name: `Details of the delivery of ${orderEventId}` }).click();
          const details = page.getByRole('dialog', { name: 'Delivery of order.created' });
          await details.getByText(orderEventId, { exact: true }).waitFor();
          for (const text of ['Attempt 2', '200 · Succeeded', 'Attempt 1', '500 · Failed', 'ok', 'refused with 500']) await details.getByText(text, { exact: true }).waitFor();
          await checkAtEachSize(page, 'delivery-details', 'the details of a delivery', false);
          await details.getByRole('button', { name: 'Close' }).click();
          await details.waitFor({ state: 'hidden' });

          // A test event of the second type it receives: it arrives signed, mode test, and shows as succeeded.
          const testPart = page.getByRole('region', { name: 'Send a test event' });
          const testType = testPart.getByLabel('Event type');
          expect(await testType.locator('option').allInnerTexts()).toEqual(['order.created', 'claim.created']);
          await testType.selectOption('claim.created');
          const before = receiver.received.length;
          await testPart.getByRole('button', { name: 'Send test event' }).click();
          await testPart.getByText('A test claim.created event was sent', { exact: false }).waitFor();
          await receiver.waitFor((received) => received.length === before + 1);
          const tested = receiver.received[before]!;
          expect(verifiedWith(secret, tested)).toMatchObject({ type: 'claim.created', mode: 'test' });
          const testRow = deliveries.filter({ hasText: tested.event.id });
          await testRow.getByText('Succeeded', { exact: true }).waitFor();
          expect(await deliveries.first().innerText()).toContain(tested.event.id);

          // Resend the order's event from the list: the receiver gets it again, with the same id.
          await orderRow.first().getByRole('button', { name: `Resend ${orderEventId}` }).click();
          await page.getByText(`Event ${orderEventId} was sent again, with the same id.`, { exact: false }).waitFor();
          await receiver.waitFor((received) => received.length === before + 2);
          expect(receiver.received[before + 1]!.event.id).toBe(orderEventId);
          await expect.poll(() => orderRow.count()).toBe(2);
          await orderRow.first().getByText('Attempt 1: 200', { exact: true }).waitFor();
          expect(await deliveries.count()).toBe(3);

          // A receiver that keeps refusing: each retry fails, then the delivery has failed, its retries used up.
          refuseTests = true;
          const beforeRefused = receiver.received.length;
          await testPart.getByRole('button', { name: 'Send test event' }).click();
          await receiver.waitFor((received) => received.length > beforeRefused);
          const refused = receiver.received[beforeRefused]!;
          const refusedRow = deliveries.filter({ hasText: refused.event.id });
          await refusedRow.getByText('None: retries used up', { exact: true }).waitFor({ timeout: 20_000 });
          await refusedRow.getByText('Failed', { exact: true }).waitFor();
          const tries = receiver.received.filter((delivery) => delivery.event.id === refused.event.id).length;
          // The first attempt and one per retry of the schedule (three).
          expect(tries).toBe(4);
          await refusedRow.getByText(`Attempt ${tries}: 500 · Failed`, { exact: true }).waitFor();
          refuseTests = false;
          expect(await deliveries.count()).toBe(4);
          // A delivery whose retries are used up disables its endpoint: the page reads it again and says so.
          await summary.getByText('Disabled: failing', { exact: true }).waitFor();
          await summary.getByText('Fix the receiver, enable it, then resend what it missed', { exact: false }).waitFor();
          await testPart.getByText('Enable the endpoint to send it a test event.').waitFor();
          expect(await page.getByRole('button', { name: /^Resend / }).count()).toBe(0);
          expect(await read()).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });
          await checkAtEachSize(page, 'endpoint-failing', 'the page of an endpoint disabled for failing');
          await summary.getByRole('button', { name: 'Enable' }).click();
          await summary.getByRole('status').filter({ hasText: 'Enabled: events are sent to it again.' }).waitFor();
          await summary.getByText('Enabled', { exact: true }).waitFor();
          expect(await read()).toMatchObject({ status: 'enabled', disabled_reason: null, failing_since: null });
          expect(await page.getByRole('button', { name: /^Resend / }).count()).toBe(4);
          await expectTablesFit(page, "the endpoint's page", 1);
          // An event id, whole in the page (and its title), whatever its column shows.
          expect(await testRow.getByTitle(tested.event.id).innerText()).toBe(tested.event.id);
          await checkAtEachSize(page, 'endpoint', "the endpoint's page");

          // Edit: one type fewer, another description.
          await summary.getByRole('button', { name: 'Edit' }).click();
          const editDialog = page.getByRole('dialog', { name: 'Edit the endpoint' });
          expect(await editDialog.getByLabel('Endpoint URL').inputValue()).toBe(receiver.url);
          expect(await editDialog.getByRole('checkbox', { name: /^claim\.created/ }).isChecked()).toBe(true);
          await editDialog.getByRole('checkbox', { name: /^claim\.created/ }).uncheck();
          await editDialog.getByLabel('Description').fill('Order sync');
          await checkAtEachSize(page, 'edit', 'the edit dialog', false);
          await editDialog.getByRole('button', { name: 'Save changes' }).click();
          await summary.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
          await summary.getByText('Order sync', { exact: true }).waitFor();
          expect(await summary.getByText('claim.created', { exact: true }).count()).toBe(0);
          expect(await read()).toMatchObject({ events: ['order.created'], description: 'Order sync', status: 'enabled', max_in_flight: 3 });
          expect(await testType.locator('option').allInnerTexts()).toEqual(['order.created']);

          // Disable, after a confirmation that says what it means; then nothing can be tested or resent.
          await summary.getByRole('button', { name: 'Disable' }).click();
          const disableDialog = page.getByRole('dialog', { name: 'Disable this endpoint?' });
          await disableDialog.getByText('events that happen meanwhile are not sent to it', { exact: false }).waitFor();
          await disableDialog.getByRole('button', { name: 'Disable endpoint' }).click();
          await summary.getByText('Disabled', { exact: true }).waitFor();
          await summary.getByRole('status').filter({ hasText: 'Disabled: nothing is sent to it until you enable it.' }).waitFor();
          await testPart.getByText('Enable the endpoint to send it a test event.').waitFor();
          expect(await testPart.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
          expect(await page.getByRole('button', { name: /^Resend / }).count()).toBe(0);
          expect((await read()).status).toBe('disabled');

          // Enable: no confirmation needed.
          await summary.getByRole('button', { name: 'Enable' }).click();
          await summary.getByText('Enabled', { exact: true }).waitFor();
          await summary.getByRole('status').filter({ hasText: 'Enabled: events are sent to it again.' }).waitFor();
          expect((await read()).status).toBe('enabled');
          expect(await page.getByRole('button', { name: /^Resend / }).count()).toBe(4);

          // Rotate: the overlap said before and after; the new secret once; both sign meanwhile.
          await summary.getByRole('button', { name: 'Rotate secret' }).click();
          const rotateDialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
          await rotateDialog.getByText('For 24 hours the current secret keeps signing every delivery beside the new one', { exact: false }).waitFor();
          await checkAtEachSize(page, 'rotate', 'the rotate dialog', false);
          await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
          const rotatedDialog = page.getByRole('dialog', { name: 'The new signing secret' });
          const newSecret = await rotatedDialog.getByLabel('Signing secret').inputValue();
          expect(newSecret).toMatch(/^whsec_/);
          expect(newSecret).not.toBe(secret);
          const rotated = await service.db.webhookEndpoint.findFirstOrThrow({ where: { id: endpointId } });
          const expires = new Date((rotated.secretRotatedAt as Date).getTime() + 24 * 3_600_000);
          await rotatedDialog.getByText(`keeps signing every delivery beside this one for 24 hours, until ${formatted(expires)}`, { exact: false }).waitFor();
          await rotatedDialog.getByRole('button', { name: 'Copy the signing secret' }).click();
          await rotatedDialog.getByText('Copied to the clipboard.').waitFor();
          expect(await clipboard(page)).toBe(newSecret);
          await checkAtEachSize(page, 'rotated', 'the rotated secret dialog', false);
          await rotatedDialog.getByRole('button', { name: 'I have saved the secret' }).click();
          await rotatedDialog.waitFor({ state: 'hidden' });
          expect(await bodyText(page)).not.toContain(newSecret);
          // "Secret last rotated" says when.
          const rotatedAt = (rotated.secretRotatedAt as Date).toISOString();
          expect(await summary.locator(`time[datetime="${rotatedAt}"]`).innerText()).toBe(formatted(rotatedAt));
          const beforeRotated = receiver.received.length;
          await testPart.getByRole('button', { name: 'Send test event' }).click();
          await testPart.getByText('A test order.created event was sent', { exact: false }).waitFor();
          await receiver.waitFor((received) => received.length === beforeRotated + 1);
          expect(verifiedWith(newSecret, receiver.received[beforeRotated]!)).toMatchObject({ type: 'order.created', mode: 'test' });
          expect(verifiedWith(secret, receiver.received[beforeRotated]!)).toMatchObject({ type: 'order.created', mode: 'test' });

          // Delete: Cancel keeps it; confirmed, it is gone for the console and for the API.
          await summary.getByRole('button', { name: 'Delete' }).click();
          const deleteDialog = page.getByRole('dialog', { name: 'Delete this endpoint?' });
          await deleteDialog.getByText('This cannot be undone.', { exact: false }).waitFor();
          await checkAtEachSize(page, 'delete', 'the delete dialog', false);
          await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
          await deleteDialog.waitFor({ state: 'hidden' });
          expect((await api.call('GET', `/v1/webhook_endpoints/${endpointId}`)).status).toBe(200);
          await summary.getByRole('button', { name: 'Delete' }).click();
          await deleteDialog.getByRole('button', { name: 'Delete endpoint' }).click();
          await waitForPath(page, '/console/developers');
          await page.getByRole('heading', { level: 1, name: 'Developers' }).waitFor();
          await endpoints.nth(1).waitFor();
          await expect.poll(() => endpoints.count()).toBe(2);
          expect(await endpoints.filter({ hasText: receiver.url }).count()).toBe(0);
          expect((await api.call('GET', `/v1/webhook_endpoints/${endpointId}`)).status).toBe(404);
          await idle();
        },
        'console-dev-last',
      );
    } finally {
      await receiver.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it('tell a viewer the page is for owners and admins, with no link to it and nothing refused', async () => {
    const store = await seedStore(service.db);
    const endpoint = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: 'https://hooks.example.com/viewer', events: ['order.created'] } });
    expect(endpoint.status).toBe(201);
    const context = await newContext();
    const watched = await watchedPage(context);
    const { page, problems, requests } = watched;
    const idle = () => waitForIdle(page);
    await inBrowser(watched, context, async () => {
      await logInNewUser(service, page, store, 'viewer');
      const navigation = page.getByRole('navigation', { name: 'Console' });
      await navigation.getByRole('link', { name: 'Orders' }).waitFor();
      expect(await navigation.getByRole('link', { name: 'Developers' }).count()).toBe(0);
      const notice = 'The Developers page is for owners and admins';
      for (const [path, step] of [
        ['/console/developers', 'viewer'],
        [`/console/developers/endpoints/${endpoint.body.id as string}`, 'viewer-endpoint'],
      ] as const) {
        await idle();
        await page.goto(`${service.baseUrl}${path}`);
        await page.getByText(notice, { exact: false }).waitFor();
        await page.getByText('Your role (viewer) cannot open it', { exact: false }).waitFor();
        for (const control of ['Add endpoint', 'Edit', 'Disable', 'Rotate secret', 'Delete', 'Send test event']) {
          expect(await page.getByRole('button', { name: control }).count(), control).toBe(0);
        }
        expect(await page.getByRole('table').count()).toBe(0);
        expect(await bodyText(page)).not.toContain('hooks.example.com');
        await checkAtEachSize(page, step, `a viewer's ${path}`);
      }
      // The page asked nothing the server would refuse a viewer.
      expect(requests.filter((url) => /\/console\/api\/(webhook_endpoints|request_log|platforms)/.test(new URL(url).pathname))).toEqual([]);
      await idle();
    });
    expect(problems).toEqual([]);
  }, 60_000);

  it('say what to do when a store has no endpoint, platform or request yet, or the endpoint asked for is not there', async () => {
    const store = await seedStore(service.db);
    const context = await newContext();
    const watched = await watchedPage(context);
    const { page, problems } = watched;
    const idle = () => waitForIdle(page);
    await inBrowser(watched, context, async () => {
      await logInNewUser(service, page, store, 'owner');
      await idle();
      await page.goto(`${service.baseUrl}/console/developers`);
      await page.getByText("No webhook endpoints yet. Add one to have your store's events sent to your systems as they happen.").waitFor();
      await page.getByText('No platform is connected to this store. Your operator connects one.').waitFor();
      await page.getByText('No requests in the last 24 hours.').waitFor();
      expect(await page.getByRole('navigation', { name: 'Pages of the request log' }).count()).toBe(0);
      await checkAtEachSize(page, 'empty', 'the developers page of a new store');
      await idle();
      await page.goto(`${service.baseUrl}/console/developers/endpoints/we_unknown`);
      await page.getByText('Your store has no webhook endpoint with this id.').waitFor();
      await checkAtEachSize(page, 'endpoint-unknown', 'the page of an endpoint the store does not have');
      // A session cookie never appears in the page.
      const cookie = (await context.cookies()).find((candidate) => candidate.name === SESSION_COOKIE);
      expect(cookie).toBeDefined();
      expect(await bodyText(page)).not.toContain(cookie?.value ?? '');
      await idle();
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
