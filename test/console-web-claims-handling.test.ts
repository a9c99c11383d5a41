// Claims handling in the console, in Debian's Chromium at a phone's and a desktop's size, over a real
// server: the queue's reference and amount columns and its search by reference; a claim's reference
// and amount under its heading; its evidence in words (a parcel the sandbox carrier delivered two
// days ago, filed inside the window, one earlier claim of the same shopper, an address the verifier
// holds undeliverable) with the link to the parcel's scans; an approval with its resolution, first
// refused by the server (422) beside the amount, then recorded; a payout, refused then recorded;
// what the merchant API then answers. Then the month's claims and loss ratio on the overview and
// billing pages. Axe and a screenshot of each step.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineVerifier } from '../server/addresses/offline.js';
import { pollShipment } from '../server/domain/shipments/index.js';
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
  VIEWPORTS,
  waitForIdle,
  waitForPath,
  watchedPage,
  type Viewport,
} from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  // The offline verifier's answers, kept as a paid verifier's are (the local one's never are): a
  // claim shows the verdict kept for its address.
  const offline = createOfflineVerifier();
  service = await startService({ addressVerifier: { name: 'usps', local: false, verify: (address, signal) => offline.verify(address, signal) } });
  if (!skipBrowser) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The answers the flow causes on purpose: a resolution and a payout over what they may be. */
const EXPECTED_FAILURES = [SESSION_PROBE, /^422 POST \/console\/api\/claims\/[0-9a-f-]{36}\/status$/];
const CONTEXT = { locale: 'en-US', timezoneId: 'UTC' } as const;

const api = (store: SeededStore, method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { bearer: store.liveKey, ...(body === undefined ? {} : { body }) });

interface FiledClaim {
  id: string;
  reference: string;
  amount_claimed: number;
  evidence: Record<string, unknown>;
}

let sequence = 0;

/** A protected order of a desk pair (2 x 50.00) and a lamp (100.00), placed now by the service's clock. */
async function placeOrder(store: SeededStore, email: string, overrides: Record<string, unknown> = {}): Promise<string> {
  sequence += 1;
  const body = orderBody({
    source_order_id: `handling-${Date.now()}-${sequence}`,
    subtotal: 200,
    customer_details: { first_name: 'Grace', last_name: 'Hopper', email },
    line_items: [
      { source_id: 'desk', name: 'Walnut desk', price: 50, quantity: 2 },
      { source_id: 'lamp', name: 'Brass lamp', price: 100, quantity: 1 },
    ],
    source_created_on: service.clock.now().toISOString(),
    ...overrides,
  });
  const created = await api(store, 'POST', '/v2/orders', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return body.source_order_id as string;
}

async function fileClaim(store: SeededStore, body: Record<string, unknown>): Promise<FiledClaim> {
  const filed = await api(store, 'POST', '/v1/claims', body);
  expect(filed.status, JSON.stringify(filed.body)).toBe(201);
  return filed.body as FiledClaim;
}

/** A section of a page, by its heading. */
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A labelled value of a description list inside `scope`. */
const fact = (scope: Locator, term: string) => scope.locator('dl > div').filter({ has: scope.page().getByRole('term').getByText(term, { exact: true }) }).getByRole('definition');

/** Whether the page fits the viewport's width: nothing cut off or scrolled sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth') as Promise<boolean>;

/** The page's idea of today, as a date input writes it. */
const browserToday = (page: Page) =>
  page.evaluate("(() => { const d = new Date(); return d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0'); })()") as Promise<string>;

// A New York ZIP under a California city: the offline verifier holds it undeliverable.
const SHIPPING = { street_address1: '1 Market St', city: 'San Francisco', province: 'CA', zip: '10001', country_code: 'US' };
const DESCRIPTION = 'The lamp shade arrived dented.';

interface Seeded {
  store: SeededStore;
  sourceOrderId: string;
  /** Filed first by the same shopper, on another order: the whole order, 200.00. */
  earlier: FiledClaim;
  /** The lamp (100.00), damaged, on the delivered parcel. */
  damaged: FiledClaim;
  deliveredAt: string;
}

/**
 * A store whose shopper claimed once before, and now claims a damaged lamp from the sandbox's
 * delivered parcel (SBXDELIVERED: delivered 50 hours after registration), four days on.
 */
async function seedDamagedClaim(): Promise<Seeded> {
  const store = await seedStore(service.db);
  const email = `grace-${Date.now()}@example.com`;
  const earlierOrder = await placeOrder(store, email, { shipping_details: SHIPPING });
  const earlier = await fileClaim(store, { source_order_id: earlierOrder, reason: 'other' });
  const sourceOrderId = await placeOrder(store, email, { shipping_details: SHIPPING });
  const shipped = await api(store, 'POST', '/v1/shipments', { tracking_number: 'SBXDELIVERED', source_order_id: sourceOrderId, courier_id: 'ups' });
  expect(shipped.status).toBe(201);
  const registered = new Date(shipped.body.created_on as string);
  const at = new Date(registered.getTime() + 51 * HOUR_MS);
  expect(await pollShipment(service.db, service.provider, service.jobs.scheduler, { shipmentId: shipped.body.id as string }, at, new Date(at.getTime() + HOUR_MS))).toBe('stop');
  service.clock.advance(4 * DAY_MS);
  const verified = await api(store, 'POST', '/v2/addresses/verify', { address: SHIPPING });
  expect([verified.status, verified.body.verdict]).toEqual([200, 'undeliverable']);
  const damaged = await fileClaim(store, { source_order_id: sourceOrderId, tracking_number: 'SBXDELIVERED', reason: 'damaged', description: DESCRIPTION, items: [{ source_id: 'lamp', quantity: 1 }] });
  const deliveredAt = new Date(registered.getTime() + 50 * HOUR_MS).toISOString();
  // What the page must put in words: 46 hours since the delivery scan, one earlier claim.
  expect([damaged.amount_claimed, earlier.amount_claimed]).toEqual([100, 200]);
  expect(damaged.evidence).toEqual({
    delivery_status: 'Delivered',
    last_scan_at: deliveredAt,
    days_without_scan: 1,
    delivered_at: deliveredAt,
    within_window: true,
    photos: 0,
    prior_claims: 1,
    address_verdict: 'undeliverable',
  });
  return { store, sourceOrderId, earlier, damaged, deliveredAt };
}

describe.skipIf(skipBrowser)('claims handling in the console, in Chromium', () => {
  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width}x${viewport.height} (${viewport.name}): the queue by reference, the evidence, an approval with its resolution, a payout`, async () => {
      const seeded = await seedDamagedClaim();
      const context = await (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height }, ...CONTEXT });
      const watched = await watchedPage(context, EXPECTED_FAILURES);
      await inBrowser(watched, context, () => claimFlow(watched.page, viewport, seeded), `console-handling-${viewport.name}-last`);
      expect(watched.problems).toEqual([]);
    }, 120_000);
  }

  it("shows the month's claims and the loss ratio on the overview and the billing page, at both sizes", async () => {
    // 10 % of the covered amount, no minimum: three orders of 200.00 book 60.00 of premium.
    const store = await seedStore(service.db, { rateBps: 1000, minPremiumCents: 0 });
    const orders = [await placeOrder(store, 'ada@example.com'), await placeOrder(store, 'alan@example.com'), await placeOrder(store, 'edsger@example.com')];
    const [paid, denied] = [await fileClaim(store, { source_order_id: orders[0], reason: 'lost' }), await fileClaim(store, { source_order_id: orders[1], reason: 'lost' })];
    await fileClaim(store, { source_order_id: orders[2], reason: 'other' });
    const decide = (id: string, body: unknown) => api(store, 'POST', `/v1/claims/${id}/status`, body);
    expect((await decide(paid.id, { status: 'approved', resolution: { type: 'refund', amount: 15 } })).status).toBe(200);
    expect((await decide(paid.id, { status: 'paid', payout: { amount: 15 } })).status).toBe(200);
    expect((await decide(denied.id, { status: 'denied' })).status).toBe(200);
    const month = service.clock.now().toISOString().slice(0, 7);
    const statement = await api(store, 'GET', `/v1/billing/statements?month=${month}`);
    // 15.00 paid out of 60.00 of net premium.
    expect([statement.body.net_total, statement.body.claims, statement.body.loss_ratio]).toEqual([60, { filed: 3, approved: 1, denied: 1, paid: 1, paid_total: 15 }, 0.25]);
    const previous = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 2, 1)).toISOString().slice(0, 7);
    const monthName = (value: string) => new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${value}-01T00:00:00Z`));

    const context = await (browser as Browser).newContext({ viewport: { width: PHONE.width, height: PHONE.height }, ...CONTEXT });
    const watched = await watchedPage(context);
    const { page } = watched;
    await inBrowser(
      watched,
      context,
      async () => {
        await logInNewUser(service, page, store, 'viewer');
        const figure = (label: string) => section(page, `Claims in ${monthName(month)}`).locator(`dt:text-is("${label}") + dd`);
        for (const viewport of [PHONE, DESKTOP]) {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          await page.goto(`${service.baseUrl}/console/overview?month=${month}`);
          await figure('Loss ratio').waitFor();
          expect(await Promise.all(['Filed', 'Approved', 'Denied', 'Paid', 'Paid out', 'Loss ratio'].map((label) => figure(label).innerText()))).toEqual(['3', '1', '1', '1', '$15.00', '25%']);
          expect(await fitsWidth(page), 'the overview fits the screen').toBe(true);
          await expectAccessible(page, `the overview with its claims (${viewport.name})`);
          await page.screenshot({ path: `${artifacts}console-handling-overview-${viewport.name}.png`, fullPage: true });
          await waitForIdle(page);

          await page.goto(`${service.baseUrl}/console/billing?month=${month}`);
          const table = page.getByRole('table', { name: `Claims of ${monthName(month)}` });
          await table.waitFor();
          expect(await table.getByRole('row').allInnerTexts()).toEqual([
            'CLAIMS\tCOUNT',
            'Filed\t3',
            'Approved (by a person or a rule)\t1',
            'Denied\t1',
            'Paid (by payout date)\t1',
            'Paid out\t$15.00',
            'Loss ratio\nPaid out ÷ net total\n\t25%',
          ]);
          expect(await fitsWidth(page), 'the billing page fits the screen').toBe(true);
          await expectAccessible(page, `the billing page with its claims (${viewport.name})`);
          await page.screenshot({ path: `${artifacts}console-handling-billing-${viewport.name}.png`, fullPage: true });
          await waitForIdle(page);
        }

        // A month without premium has no loss ratio: a dash, not 0 % or a division by zero.
        await page.goto(`${service.baseUrl}/console/overview?month=${previous}`);
        await section(page, `Claims in ${monthName(previous)}`).locator('dt:text-is("Loss ratio") + dd').waitFor();
        expect(await section(page, `Claims in ${monthName(previous)}`).locator('dt:text-is("Loss ratio") + dd').innerText()).toBe('—');
        expect(await section(page, `Claims in ${monthName(previous)}`).locator('dt:text-is("Filed") + dd').innerText()).toBe('0');
        await page.getByText('No net premium in the month', { exact: true }).waitFor();
        await waitForIdle(page);
        await page.goto(`${service.baseUrl}/console/billing?month=${previous}`);
        const empty = page.getByRole('table', { name: `Claims of ${monthName(previous)}` });
        await empty.waitFor();
        expect(await empty.getByRole('row').last().innerText()).toBe('Loss ratio\nNone: no net premium in the month\n\t—');
        await waitForIdle(page);
      },
      'console-handling-money-last',
    );
    expect(watched.problems).toEqual([]);
  }, 90_000);
});

async function claimFlow(page: Page, viewport: Viewport, seeded: Seeded): Promise<void> {
  const shot = (step: string, fullPage = true) => page.screenshot({ path: `${artifacts}console-handling-${viewport.name}-${step}.png`, fullPage });
  const { store, earlier, damaged, sourceOrderId } = seeded;
  const admin = await logInNewUser(service, page, store, 'admin');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Claims', exact: true }).click();
  await waitForPath(page, '/console/claims');

  // The queue: each claim by its reference, with what it is worth.
  const rows = page.locator('tbody tr');
  await rows.nth(1).waitFor();
  expect(await page.locator('tbody td[data-label="Reference"]').allInnerTexts()).toEqual([earlier.reference, damaged.reference]);
  expect(await page.locator('tbody td[data-label="Amount"]').allInnerTexts()).toEqual(['$200.00', '$100.00']);
  expect(await fitsWidth(page), 'the queue fits the screen').toBe(true);
  await expectAccessible(page, 'the queue with references and amounts');
  await shot('queue');

  // Found by its reference, typed in lower case as a shopper might read it out: the URL keeps it.
  const search = page.getByLabel('Find a claim by its reference');
  await search.fill(damaged.reference.toLowerCase());
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('reference') === damaged.reference.toLowerCase());
  await expect.poll(() => rows.count()).toBe(1);
  expect(await page.locator('tbody td[data-label="Reference"]').innerText()).toBe(damaged.reference);
  await page.getByText(`Searching for the reference ${damaged.reference.toLowerCase()}, in every status.`).waitFor();
  await expectAccessible(page, 'the queue searched by reference');
  await shot('queue-search');
  // A reference the store does not have says so; "Show every claim" clears the search.
  await search.fill('CLM-ZZZZZZ');
  await search.press('Enter');
  await page.getByText('No claim of this store has the reference CLM-ZZZZZZ.').waitFor();
  await page.reload();
  await page.getByText('No claim of this store has the reference CLM-ZZZZZZ.').waitFor();
  expect(await search.inputValue()).toBe('CLM-ZZZZZZ');
  await page.getByRole('link', { name: 'Show every claim' }).click();
  await page.waitForURL((url) => url.pathname === '/console/claims' && !url.searchParams.has('reference'));
  await rows.nth(1).waitFor();
  expect(await search.inputValue()).toBe('');

  // The claim: its reference and amount under the heading.
  await page.getByRole('link', { name: `Claim ${damaged.reference}` }).click();
  await waitForPath(page, `/console/claims/${damaged.id}`);
  await page.getByRole('heading', { level: 1, name: `Claim on order ${sourceOrderId}` }).waitFor();
  // Under the heading, before any section: the reference the shopper quotes, and the amount.
  expect(await page.locator('.claim-keyline dt').allInnerTexts()).toEqual(['Reference', 'Amount claimed']);
  expect(await page.locator('.claim-keyline dd').allInnerTexts()).toEqual([damaged.reference, '$100.00']);
  expect(await page.title()).toContain(damaged.reference);

  // The evidence, in words, with the instants it names.
  const evidence = section(page, 'Evidence');
  await evidence.waitFor();
  const says = async (term: string) => fact(evidence, term).innerText();
  expect(await says('Parcel status')).toBe('Delivered');
  expect(await fact(evidence, 'Last carrier scan').locator('time').getAttribute('datetime')).toBe(seeded.deliveredAt);
  expect(await says('Days without a scan')).toBe('1 day');
  expect(await fact(evidence, 'Delivered on').locator('time').getAttribute('datetime')).toBe(seeded.deliveredAt);
  expect(await says('Delivered on')).toMatch(/\d{4}, \d{1,2}:\d{2} [AP]M$/);
  expect(await says('Claim window')).toBe("Filed inside the store's claim window");
  expect(await says('Photos')).toBe('None');
  expect(await says("The shopper's earlier claims")).toBe('1 other claim at this store in the past year');
  expect(await says('Shipping address')).toBe('Undeliverable');
  const scans = evidence.getByRole('link', { name: 'Scan timeline of parcel SBXDELIVERED' });
  expect(await scans.getAttribute('href')).toBe('/console/shipments/SBXDELIVERED');
  expect(await fitsWidth(page), 'the claim page fits the screen').toBe(true);
  await expectAccessible(page, 'the claim page with its evidence');
  await shot('evidence');
  // The link leads to the parcel's scans.
  await scans.click();
  await waitForPath(page, '/console/shipments/SBXDELIVERED');
  await page.getByText('Delivered, left at front door').first().waitFor();
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: `Claim on order ${sourceOrderId}` }).waitFor();
  await waitForIdle(page);

  // Approving asks how the claim is made good: a refund of the amount claimed unless changed.
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const approve = page.getByRole('dialog', { name: 'Approve this claim?' });
  await approve.waitFor();
  expect(await approve.getByLabel('Refund').isChecked()).toBe(true);
  const worth = approve.getByLabel('Worth (US dollars)');
  expect(await worth.inputValue()).toBe('100.00');
  // More than the claim is worth: the server refuses (422) and says so beside the amount.
  await worth.fill('120');
  await approve.getByRole('button', { name: 'Approve claim' }).click();
  const worthError = approve.getByText('Must be at most amount_claimed (100.00) for a refund.');
  await worthError.waitFor();
  expect(await worth.getAttribute('aria-invalid')).toBe('true');
  expect(await worth.getAttribute('aria-describedby')).toContain((await worthError.getAttribute('id')) ?? 'missing id');
  expect(await focusedId(page)).toBe(await worth.getAttribute('id'));
  await approve.getByRole('alert').filter({ hasText: 'The decision could not be recorded: check the fields marked below.' }).waitFor();
  expect((await api(store, 'GET', `/v1/claims/${damaged.id}`)).body.status).toBe('open');
  await expectAccessible(page, 'the approval refused beside its amount');
  await shot('approve-422', false);
  // Store credit for less, with a note to the shopper.
  await approve.getByLabel('Store credit').check();
  await worth.fill('80.50');
  expect(await worthError.count()).toBe(0);
  const creditNote = 'Store credit for the lamp, usable on any order.';
  await approve.getByLabel('Note to the shopper (optional)').fill(creditNote);
  await approve.getByRole('button', { name: 'Approve claim' }).click();
  await approve.waitFor({ state: 'hidden' });
  await page.getByRole('status').filter({ hasText: 'The claim is approved. Store credit worth $80.50.' }).waitFor();
  const resolution = section(page, 'Resolution');
  expect(await fact(resolution, 'How it is made good').innerText()).toBe('Store credit');
  expect(await fact(resolution, 'Worth').innerText()).toBe('$80.50');
  expect(await fact(resolution, 'Note to the shopper').innerText()).toBe(creditNote);
  expect((await api(store, 'GET', `/v1/claims/${damaged.id}`)).body).toMatchObject({ status: 'approved', resolution: { type: 'store_credit', amount: 80.5, note: creditNote }, payout: null });

  // Marking it paid asks what was paid: the resolution's amount, today, and the store's reference.
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  const pay = page.getByRole('dialog', { name: 'Mark this claim as paid?' });
  await pay.waitFor();
  const paidAmount = pay.getByLabel('Amount paid out (US dollars)');
  expect(await paidAmount.inputValue()).toBe('80.50');
  expect(await pay.getByLabel('Paid on').inputValue()).toBe(await browserToday(page));
  await paidAmount.fill('90');
  await pay.getByLabel('Your reference (optional)').fill('GC-2291');
  await pay.getByRole('button', { name: 'Mark as paid' }).click();
  const paidError = pay.getByText("Must be at most the resolution's amount (80.50).");
  await paidError.waitFor();
  expect(await paidAmount.getAttribute('aria-invalid')).toBe('true');
  expect(await focusedId(page)).toBe(await paidAmount.getAttribute('id'));
  await expectAccessible(page, 'the payout refused beside its amount');
  await shot('pay-422', false);
  await paidAmount.fill('80.50');
  await pay.getByRole('button', { name: 'Mark as paid' }).click();
  await pay.waitFor({ state: 'hidden' });
  await page.getByRole('status').filter({ hasText: 'The claim is marked as paid. $80.50 paid out.' }).waitFor();
  expect(await fact(resolution, 'Paid out').innerText()).toBe('$80.50');
  expect(await fact(resolution, 'Your reference').innerText()).toBe('GC-2291');
  const read = await api(store, 'GET', `/v1/claims/${damaged.id}`);
  expect(read.body).toMatchObject({ status: 'paid', payout: { amount: 80.5, reference: 'GC-2291' } });
  // Paid today: the server's moment of recording (its clock runs four days ahead here).
  expect(await fact(resolution, 'Paid on').locator('time').getAttribute('datetime')).toBe(read.body.payout.paid_on);

  // The history: filed, approved and paid by this admin.
  const history = section(page, 'History').getByRole('listitem');
  await history.nth(2).waitFor();
  expect(await history.count()).toBe(3);
  expect(await history.nth(1).innerText()).toMatch(/^Approved\s+from Open\s+/);
  expect(await history.nth(2).innerText()).toMatch(/^Paid\s+from Approved\s+/);
  expect(await history.nth(2).innerText()).toContain(` · by ${admin.email}`);
  expect(await page.getByRole('button', { name: 'Close claim' }).count()).toBe(1);
  expect(await fitsWidth(page), 'the paid claim fits the screen').toBe(true);
  await expectAccessible(page, 'the paid claim');
  await shot('paid');
}
