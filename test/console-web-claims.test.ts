// The console's claims pages in Debian's Chromium, at a phone's and a desktop's size, over a real
// server: claims filed through the merchant API with the store's key; the queue, oldest first, each
// by its reference, and filtered by status in the URL (by keyboard too); a claim page with the
// items, prices and words that were filed; an approval by keyboard, with a note and the default
// resolution (a refund of the amount claimed), that the history and the merchant API then show; a
// decision made stale by the operator meanwhile (409: the server's message, the claim read
// again); no such claim; a viewer's read-only page; axe and a screenshot of each.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, expectAccessible, focusedId, focusedText, inBrowser, launch, logInNewUser, SESSION_PROBE, skipBrowser, VIEWPORTS, waitForIdle, waitForPath, watchedPage, type Viewport } from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';
import { systemClock } from '../server/domain/kernel/index.js';
import { decideClaimAsOperator } from './support/service.js';

let service: TestService;
let browser: Browser | undefined;

beforeAll(async () => {
  service = await startService();
  if (!skipBrowser) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The 4xx answers the flows cause on purpose: the stale decision, and claims that do not exist. */
const EXPECTED_FAILURES = [
  SESSION_PROBE,
  /^409 POST \/console\/api\/claims\/[0-9a-f-]{36}\/status$/,
  /^404 GET \/console\/api\/claims\/[0-9a-f-]{36}$/,
  /^400 GET \/console\/api\/claims\/not-a-claim$/,
];

const DAMAGE_DESCRIPTION = 'The lamp arrived with its shade dented.\nThe desk organiser box was crushed on one corner.';
const MISSING_DESCRIPTION = 'Only one organiser was in the box.';

interface Seeded {
  store: SeededStore;
  sourceOrderId: string;
  trackingNumber: string;
  /** Filed first: damaged, on the shipment, one lamp and one desk organiser, open. */
  damaged: string;
  /** Filed second: lost, the whole order, moved to in_review by the operator. */
  lost: string;
  /** Filed third: missing items, one organiser, denied by the operator. */
  missing: string;
  /** Each claim's reference, by id. */
  references: Record<string, string>;
}

const api = (store: SeededStore, method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { bearer: store.liveKey, ...(body === undefined ? {} : { body }) });

let sequence = 0;

/** A store with one protected order, a shipment, and three claims in three statuses. */
async function seedClaims(): Promise<Seeded> {
  const store = await seedStore(service.db);
  const order = orderBody({
    subtotal: 173.25,
    line_items: [
      { source_id: 'li_desk', name: 'Walnut desk organiser', price: 62.5, quantity: 2, sku: 'DESK-ORG-W' },
      { source_id: 'li_lamp', name: 'Brass reading lamp', price: 48.25, quantity: 1, sku: 'LAMP-BR' },
    ],
  });
  expect((await api(store, 'POST', '/v2/orders', order)).status).toBe(201);
  const sourceOrderId = order.source_order_id as string;
  const trackingNumber = `ZZCLAIMWEB${Date.now()}${(sequence += 1)}`;
  expect((await api(store, 'POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: sourceOrderId, courier_id: 'ups' })).status).toBe(201);

  const references: Record<string, string> = {};
  const file = async (body: Record<string, unknown>) => {
    const filed = await api(store, 'POST', '/v1/claims', { source_order_id: sourceOrderId, ...body });
    expect(filed.status).toBe(201);
    references[filed.body.id as string] = filed.body.reference as string;
    return filed.body.id as string;
  };
  const damaged = await file({
    reason: 'damaged',
    tracking_number: trackingNumber,
    description: DAMAGE_DESCRIPTION,
    items: [
      { source_id: 'li_lamp', quantity: 1 },
      { source_id: 'li_desk', quantity: 1 },
    ],
  });
  const lost = await file({ reason: 'lost' });
  const missing = await file({ reason: 'missing_items', description: MISSING_DESCRIPTION, items: [{ source_id: 'li_desk', quantity: 1 }] });
  await decideClaimAsOperator(service.db, lost, 'in_review', systemClock);
  await decideClaimAsOperator(service.db, missing, 'denied', systemClock, 'Two were packed: see the packing photo.');
  return { store, sourceOrderId, trackingNumber, damaged, lost, missing, references };
}

/**
 * A user of `role` logged in, on the claims queue, reached through the navigation: a page load
 * instead would abort the home page's reads, which the watched page counts as failures.
 */
async function logInToClaims(page: Page, store: SeededStore, role: 'admin' | 'viewer'): Promise<{ email: string }> {
  const user = await logInNewUser(service, page, store, role);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Claims' }).click();
  await waitForPath(page, '/console/claims');
  await page.getByRole('heading', { level: 1, name: 'Claims' }).waitFor();
  return user;
}

/** Presses Tab until `reached` holds, as a keyboard user would; fails if it never does. */
async function tabUntil(page: Page, what: string, reached: () => Promise<boolean>, most = 20): Promise<void> {
  for (let step = 0; step < most; step += 1) {
    await page.keyboard.press('Tab');
    if (await reached()) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

/** The references of the queue's rows, top to bottom. */
const queueRefs = (page: Page) => page.locator('tbody tr td[data-label="Reference"] code').allInnerTexts();

/** A section of the claim page, by its heading. */
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const description = (page: Page) => section(page, 'Description').locator('blockquote');

describe.skipIf(skipBrowser)('the claims pages in Chromium', () => {
  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width}x${viewport.height} (${viewport.name}): the queue by status, a claim, a decision by keyboard, a stale decision, no such claim`, async () => {
      const seeded = await seedClaims();
      const context = await (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const watched = await watchedPage(context, EXPECTED_FAILURES);
      const { page, problems } = watched;
      await inBrowser(watched, context, () => claimsFlow(page, viewport, seeded), `console-claims-${viewport.name}-last`);
      expect(problems).toEqual([]);
    }, 90_000);
  }

  it('shows a viewer the claim and its history with no decision to make', async () => {
    const seeded = await seedClaims();
    const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
    const watched = await watchedPage(context, EXPECTED_FAILURES);
    const { page, problems } = watched;
    await inBrowser(watched, context, async () => {
      await logInToClaims(page, seeded.store, 'viewer');
      await page.getByRole('link', { name: `Claim ${seeded.references[seeded.damaged]}` }).click();
      await page.getByRole('heading', { level: 1, name: `Claim on order ${seeded.sourceOrderId}` }).waitFor();
      await page.getByText('Brass reading lamp').waitFor();
      await page.getByText('Your role (viewer) can see claims but not decide them.', { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: /^(Start review|Approve|Deny|Mark as paid|Close claim|Reopen)$/ }).count()).toBe(0);
      expect(await page.getByLabel('Note (optional)').count()).toBe(0);
      // What there is to see is all there: the texts and the history.
      expect(await description(page).innerText()).toBe(DAMAGE_DESCRIPTION);
      await expectAccessible(page, 'the claim page of a viewer');
      await page.screenshot({ path: `${artifacts}console-claims-desktop-viewer.png`, fullPage: true });

      // The denied claim's note, as the operator wrote it.
      await page.goto(`${service.baseUrl}/console/claims/${seeded.missing}`);
      await page.getByRole('heading', { level: 1, name: `Claim on order ${seeded.sourceOrderId}` }).waitFor();
      await page.getByText('Two were packed: see the packing photo.').waitFor();
      expect(await description(page).innerText()).toBe(MISSING_DESCRIPTION);
    });
    expect(problems).toEqual([]);
  }, 60_000);
});

async function claimsFlow(page: Page, viewport: Viewport, seeded: Seeded): Promise<void> {
  const shot = (step: string, fullPage = true) => page.screenshot({ path: `${artifacts}console-claims-${viewport.name}-${step}.png`, fullPage });
  const { sourceOrderId, trackingNumber, damaged, lost, missing } = seeded;
  const ref = (id: string) => seeded.references[id] as string;
  const admin = await logInToClaims(page, seeded.store, 'admin');

  // The queue: every claim, oldest first, each row as filed.
  await page.locator('tbody tr').nth(2).waitFor();
  expect(await queueRefs(page)).toEqual([ref(damaged), ref(lost), ref(missing)]);
  const row = (id: string) => page.locator('tbody tr').filter({ hasText: ref(id) });
  expect(await row(damaged).innerText()).toContain('Damaged');
  // A claim with a tracking number is on that parcel; one without, on the whole order.
  expect(await row(damaged).locator('td[data-label="Covers"]').innerText()).toBe(`2 units of 2 items in parcel ${trackingNumber}`);
  expect(await row(damaged).locator('td[data-label="Status"]').innerText()).toBe('Open');
  expect(await row(lost).locator('td[data-label="Covers"]').innerText()).toBe('Whole order');
  expect(await row(missing).locator('td[data-label="Covers"]').innerText()).toBe('1 unit of 1 item');
  expect(await page.locator('tbody').innerText()).not.toContain('Whole order,');
  expect(await row(lost).locator('td[data-label="Status"]').innerText()).toBe('In review');
  expect(await row(missing).innerText()).toContain('Missing items');
  expect(await row(missing).locator('td[data-label="Status"]').innerText()).toBe('Denied');
  expect(await row(missing).getByRole('link', { name: sourceOrderId }).getAttribute('href')).toBe(`/console/orders/${encodeURIComponent(sourceOrderId)}`);
  const filters = page.getByRole('navigation', { name: 'Filter claims by status' });
  expect(await filters.getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBe('page');
  await expectAccessible(page, 'the claims queue');
  await shot('queue');

  // Filtered by keyboard: from the heading, Tab to "In review" and press Enter.
  await tabUntil(page, 'the In review filter', async () => (await focusedText(page)) === 'In review');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/console/claims' && url.searchParams.get('status') === 'in_review');
  await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
  expect(await queueRefs(page)).toEqual([ref(lost)]);
  expect(await filters.getByRole('link', { name: 'In review' }).getAttribute('aria-current')).toBe('page');
  expect(await filters.getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBeNull();

  // A status with no claim says so; a reload keeps the filter.
  await filters.getByRole('link', { name: 'Paid' }).click();
  await page.getByText('No paid claims waiting to be closed.').waitFor();
  await page.reload();
  await page.getByText('No paid claims waiting to be closed.').waitFor();
  expect(await page.locator('tbody tr').count()).toBe(0);
  await expectAccessible(page, 'the claims queue with nothing to show');
  await shot('queue-empty');
  // Back returns to the previous filter.
  await page.goBack();
  await page.waitForURL((url) => url.searchParams.get('status') === 'in_review');
  await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
  expect(await queueRefs(page)).toEqual([ref(lost)]);

  // A status the queue does not know shows every claim.
  await page.goto(`${service.baseUrl}/console/claims?status=lost`);
  await page.locator('tbody tr').nth(2).waitFor();
  expect(await queueRefs(page)).toEqual([ref(damaged), ref(lost), ref(missing)]);
  expect(await filters.getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBe('page');

  // The claim page: the order, the items with their prices, the shopper's words, the history.
  await row(damaged).getByRole('link', { name: `Claim ${ref(damaged)}` }).click();
  await waitForPath(page, `/console/claims/${damaged}`);
  await page.getByRole('heading', { level: 1, name: `Claim on order ${sourceOrderId}` }).waitFor();
  expect(await page.title()).toContain(`Claim on order ${sourceOrderId}`);
  const items = page.getByRole('table', { name: 'Items claimed' });
  await items.getByText('Walnut desk organiser').waitFor();
  const itemRow = (name: string) => items.locator('tbody tr').filter({ hasText: name });
  // li_lamp: 1 of 1 claimed at 48.25; li_desk: 1 of 2 at 62.50; together 110.75.
  expect(await itemRow('Brass reading lamp').locator('td[data-label="Claimed"]').innerText()).toBe('1');
  expect(await itemRow('Brass reading lamp').locator('td[data-label="Value claimed"]').innerText()).toBe('$48.25');
  expect(await itemRow('Walnut desk organiser').locator('td[data-label="Ordered"]').innerText()).toBe('2');
  expect(await itemRow('Walnut desk organiser').locator('td[data-label="Unit price"]').innerText()).toBe('$62.50');
  expect(await itemRow('Walnut desk organiser').locator('td[data-label="Value claimed"]').innerText()).toBe('$62.50');
  expect(await itemRow('Walnut desk organiser').innerText()).toContain('SKU DESK-ORG-W');
  expect(await section(page, 'Items claimed').getByText('Total value claimed:').innerText()).toBe('Total value claimed: $110.75');
  const facts = section(page, 'Claim');
  expect(await facts.innerText()).toContain('$173.25'); // the order's subtotal, uncapped
  expect(await facts.innerText()).toContain(trackingNumber);
  expect(await facts.innerText()).toContain('Damaged');
  expect(await facts.getByRole('link', { name: sourceOrderId }).getAttribute('href')).toBe(`/console/orders/${encodeURIComponent(sourceOrderId)}`);
  expect(await description(page).innerText()).toBe(DAMAGE_DESCRIPTION);
  // Filed by the store's key, not by the shopper: the description says who sent it.
  expect(await section(page, 'Description').locator('.section-card-description').innerText()).toBe(
    `Sent through the API with the live API key ••••${seeded.store.liveKey.slice(-4)}.`,
  );
  expect(await section(page, 'Description').innerText()).not.toContain('shopper');
  const history = section(page, 'History').getByRole('listitem');
  expect(await history.allInnerTexts()).toHaveLength(1);
  // Filed through the API with the store's live key: the history names the key, not its secret.
  expect(await history.first().innerText()).toMatch(new RegExp(`^Open\\s+Filed\\s+.+ · by Live API key ••••${seeded.store.liveKey.slice(-4)}$`));
  const decisions = section(page, 'Decision').getByRole('button');
  expect(await decisions.allInnerTexts()).toEqual(['Start review', 'Approve', 'Deny', 'Close claim']);
  await expectAccessible(page, 'the claim page');
  await shot('claim');

  // The order page lists the claim as open (and keeps that read cached for Back).
  const orderClaimStatus = () =>
    section(page, 'Claims').locator('tbody tr').filter({ hasText: ref(damaged) }).locator('td[data-label="Status"]');
  await facts.getByRole('link', { name: sourceOrderId }).click();
  await page.getByRole('heading', { level: 1, name: `Order ${sourceOrderId}` }).waitFor();
  expect(await orderClaimStatus().innerText()).toBe('Open');
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: `Claim on order ${sourceOrderId}` }).waitFor();
  await waitForIdle(page);

  // A decision by keyboard alone: from the heading to the note, type it, Tab to Approve, keep the
  // resolution it offers, confirm.
  const note = 'Photos of the dented shade match the description.';
  const noteField = page.getByLabel('Note (optional)');
  const noteId = await noteField.getAttribute('id');
  await tabUntil(page, 'the note', async () => (await focusedId(page)) === noteId);
  await page.keyboard.type(note);
  await tabUntil(page, 'the Approve button', async () => (await focusedText(page)) === 'Approve', 3);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Approve this claim?' });
  await confirm.waitFor();
  // The move is said once: "From Open to Approved.", then only what follows from it.
  expect(await confirm.locator('p').first().innerText()).toBe(
    'From Open to Approved. It stays open until it is marked as paid or closed. Approving sends no money.',
  );
  expect(await confirm.locator('blockquote').innerText()).toBe(note);
  // It asks how the claim is made good, a refund of the amount claimed unless changed: the keyboard starts there.
  const refund = confirm.getByLabel('Refund');
  expect(await refund.isChecked()).toBe(true);
  expect(await focusedId(page)).toBe(await refund.getAttribute('id'));
  await page.keyboard.press('Tab');
  const worth = confirm.getByLabel('Worth (US dollars)');
  expect(await focusedId(page)).toBe(await worth.getAttribute('id'));
  expect(await worth.inputValue()).toBe('110.75');
  await expectAccessible(page, 'the confirmation dialog');
  await shot('confirm', false);
  // Past the note to the shopper and Cancel, to the confirmation.
  await tabUntil(page, 'the Approve claim button', async () => (await focusedText(page)) === 'Approve claim', 3);
  await page.keyboard.press('Enter');
  await confirm.waitFor({ state: 'hidden' });
  await page.getByRole('status').filter({ hasText: 'The claim is approved. Refund worth $110.75. Your note is in the history.' }).waitFor();
  await history.nth(1).waitFor();
  expect(await history.nth(1).innerText()).toMatch(/^Approved\s+from Open\s+.+\s+Photos of the dented shade match the description\.$/);
  expect(await history.nth(1).innerText()).toContain(` · by ${admin.email}`);
  expect(await page.locator('.page-header .claim-status').innerText()).toBe('Approved');
  expect(await decisions.allInnerTexts()).toEqual(['Mark as paid', 'Close claim']);
  expect(await noteField.inputValue()).toBe('');
  // The merchant API sees the decision.
  const read = await api(seeded.store, 'GET', `/v1/claims/${damaged}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ id: damaged, status: 'approved', resolved_on: null, resolution: { type: 'refund', amount: 110.75, note: null } });
  await expectAccessible(page, 'the claim page after a decision');
  await shot('decided');

  // The order page changes with the decision: its claim now reads approved.
  await section(page, 'Claim').getByRole('link', { name: sourceOrderId }).click();
  await page.getByRole('heading', { level: 1, name: `Order ${sourceOrderId}` }).waitFor();
  await orderClaimStatus().filter({ hasText: 'Approved' }).waitFor();
  await shot('order-after-decision');
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: `Claim on order ${sourceOrderId}` }).waitFor();
  await waitForIdle(page);

  // Meanwhile the operator closes the claim: "Mark as paid" on this page is stale.
  await decideClaimAsOperator(service.db, damaged, 'closed', systemClock, 'Closed by the operator: refunded in the shop.');
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  const paid = page.getByRole('dialog', { name: 'Mark this claim as paid?' });
  await paid.getByRole('button', { name: 'Mark as paid' }).click();
  await paid.waitFor({ state: 'hidden' });
  await page.getByRole('alert').filter({ hasText: 'The claim is closed: it cannot become paid; it is final.' }).waitFor();
  // The claim as it now is: closed, the operator's note in the history, nothing left to decide.
  await page.locator('.page-header .claim-status').filter({ hasText: 'Closed' }).waitFor();
  await history.nth(2).waitFor();
  expect(await history.nth(2).innerText()).toContain('Closed by the operator: refunded in the shop.');
  expect(await history.nth(2).innerText()).toContain(' · by Operator test-suite');
  expect(await decisions.count()).toBe(0);
  await page.getByText('This claim is closed, a final status: it cannot move again.').waitFor();
  expect((await api(seeded.store, 'GET', `/v1/claims/${damaged}`)).body.status).toBe('closed');
  await expectAccessible(page, 'the claim page after a stale decision');
  await shot('conflict');

  // Back to the queue: the claim shows as closed there too.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Claims' }).click();
  await waitForPath(page, '/console/claims');
  await row(damaged).locator('td[data-label="Status"]').filter({ hasText: 'Closed' }).waitFor();

  // No such claim: an unknown id, and one that is not a claim id at all.
  for (const id of ['3f1c2b7a-0000-4000-8000-000000000000', 'not-a-claim']) {
    await page.goto(`${service.baseUrl}/console/claims/${id}`);
    await page.getByRole('heading', { level: 1, name: 'No such claim' }).waitFor();
    await page.getByText(`There is no claim with the id ${id}`).waitFor();
  }
  await expectAccessible(page, 'the page of no such claim');
  await shot('missing');
}
