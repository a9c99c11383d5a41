// The console's claim rules page, in Debian's Chromium at a phone's and a desktop's size, over a real
// server whose store has three past claims (one a person denied, one a person approved, one open):
// reached from the claims queue; an admin adds two rules, is refused by the server beside the amount
// that has a third decimal (400, rules[0].when.max_amount), moves a rule by keyboard, adds and
// removes one, tries the list on past claims (the counts, the table by rule, the claim a person
// decided otherwise), turns a rule off and tries again, and saves it as version 1, which the
// merchant API then answers and a reload shows. A claim filed next is approved by the rule at
// once; its history names the rule and its version and lists what it read. A viewer reads the
// rules and can change nothing. Axe and a screenshot of each step.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, expectAccessible, focusedId, inBrowser, launch, logInNewUser, SESSION_PROBE, skipBrowser, VIEWPORTS, waitForIdle, waitForPath, watchedPage, type Viewport } from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

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

/** The answer the flow causes on purpose: a list with an amount of three decimals. */
const EXPECTED_FAILURES = [SESSION_PROBE, /^400 PUT \/console\/api\/claim-rules$/];
const CONTEXT = { locale: 'en-US', timezoneId: 'UTC' } as const;

const api = (store: SeededStore, method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { bearer: store.liveKey, ...(body === undefined ? {} : { body }) });

let sequence = 0;

/** A protected order (a desk pair at 50.00 and a lamp at 100.00: 200.00) with a parcel that has no scan yet. */
async function orderWithParcel(store: SeededStore): Promise<string> {
  sequence += 1;
  const id = `rules-${Date.now()}-${sequence}`;
  const body = orderBody({
    source_order_id: id,
    subtotal: 200,
    customer_details: { first_name: 'Grace', last_name: 'Hopper', email: `${id}@example.com` },
    line_items: [
      { source_id: 'desk', name: 'Walnut desk', price: 50, quantity: 2 },
      { source_id: 'lamp', name: 'Brass lamp', price: 100, quantity: 1 },
    ],
    source_created_on: new Date().toISOString(),
  });
  expect((await api(store, 'POST', '/v2/orders', body)).status).toBe(201);
  expect((await api(store, 'POST', '/v1/shipments', { tracking_number: `ZZRULES${Date.now()}${sequence}`, source_order_id: id, courier_id: 'ups' })).status).toBe(201);
  return id;
}

async function fileClaim(store: SeededStore, body: Record<string, unknown>): Promise<{ id: string; reference: string; status: string }> {
  const filed = await api(store, 'POST', '/v1/claims', body);
  expect(filed.status, JSON.stringify(filed.body)).toBe(201);
  return filed.body as { id: string; reference: string; status: string };
}

interface Seeded {
  store: SeededStore;
  /** Lost, the whole order (200.00): a person denied it. */
  denied: { id: string; reference: string };
}

/** A store with three claims: lost and denied, damaged (one desk, 50.00) and approved, other and open. */
async function seedPastClaims(): Promise<Seeded> {
  const store = await seedStore(service.db);
  const denied = await fileClaim(store, { source_order_id: await orderWithParcel(store), reason: 'lost' });
  const approved = await fileClaim(store, { source_order_id: await orderWithParcel(store), reason: 'damaged', items: [{ source_id: 'desk', quantity: 1 }] });
  await fileClaim(store, { source_order_id: await orderWithParcel(store), reason: 'other' });
  expect((await api(store, 'POST', `/v1/claims/${denied.id}/status`, { status: 'denied', note: 'The carrier found it.' })).status).toBe(200);
  expect((await api(store, 'POST', `/v1/claims/${approved.id}/status`, { status: 'approved', resolution: { type: 'refund' } })).status).toBe(200);
  return { store, denied };
}

const SILENT = 'Silent lost parcels';
const REVIEW = 'Everything else to review';
const NOTE = 'Your parcel went silent: we refund it.';
const SAVED_RULES = [
  { name: SILENT, enabled: true, when: { reasons: ['lost'], max_amount: 250, delivery_statuses: ['Active'] }, then: { action: 'approve', resolution_type: 'refund', note_to_shopper: NOTE } },
  { name: REVIEW, enabled: false, when: {}, then: { action: 'review' } },
];

/** A section of a page, by its heading. */
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const cards = (page: Page) => page.locator('li[data-rule-key]');
/** The name typed into each rule card, in order. */
const cardNames = (page: Page) => cards(page).locator('input[data-rule-name]').evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
/** A figure of the dry run, by its label. */
const figure = (page: Page, label: string) => section(page, 'Try on past claims').locator(`dt:text-is("${label}") + dd`);

/** The cells of the table row whose header cell is `header`. */
async function rowCells(table: Locator, header: string): Promise<string[]> {
  return table.getByRole('row').filter({ has: table.page().getByRole('rowheader', { name: header, exact: true }) }).getByRole('cell').allInnerTexts();
}

const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth') as Promise<boolean>;

describe.skipIf(skipBrowser)('the claim rules page in Chromium', () => {
  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width}x${viewport.height} (${viewport.name}): edit, refuse, reorder, try on past claims, save; a rule decides the next claim`, async () => {
      const seeded = await seedPastClaims();
      const context = await (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height }, ...CONTEXT });
      const watched = await watchedPage(context, EXPECTED_FAILURES);
      await inBrowser(watched, context, () => rulesFlow(watched.page, viewport, seeded), `console-rules-${viewport.name}-last`);
      expect(watched.problems).toEqual([]);
    }, 120_000);
  }

  it('shows a viewer the rules in words, with nothing to change or try', async () => {
    const { store } = await seedPastClaims();
    expect((await api(store, 'PUT', '/v1/claim_rules', { rules: SAVED_RULES })).status).toBe(200);
    const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 }, ...CONTEXT });
    const watched = await watchedPage(context);
    const { page } = watched;
    await inBrowser(watched, context, async () => {
      await logInNewUser(service, page, store, 'viewer');
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Claim rules' }).click();
      await waitForPath(page, '/console/claims/rules');
      await page.getByText('Your role (viewer) can read the rules but not change or try them.', { exact: false }).waitFor();
      expect(await page.locator('.rules-version').innerText()).toMatch(/^Version 1, set .+: 2 rules, 1 on\.$/);
      const rules = section(page, 'The rules (2)').locator('.rules-list > li');
      expect(await rules.count()).toBe(2);
      expect(await rules.nth(0).getByRole('heading').textContent()).toBe(`Rule 1: ${SILENT}`);
      expect(await rules.nth(0).locator('.rules-conditions li').allTextContents()).toEqual(['The reason is Lost', 'The amount claimed is at most $250.00', 'The parcel is Active']);
      expect(await rules.nth(0).locator('p').allTextContents()).toEqual(['When', 'Then', 'Approve it: refund of the amount claimed', `Tells the shopper: “${NOTE}”`]);
      // The rule that is off says so in words, not by its colour alone.
      expect(await rules.nth(1).getByRole('heading').textContent()).toBe(`Rule 2: ${REVIEW}Off`);
      expect(await rules.nth(1).locator('p').allTextContents()).toEqual(['When', 'Every claim', 'Then', 'Send it to a person (in review)']);
      for (const name of ['Add a rule', 'Save as version 2', 'Try on past claims', 'Remove']) expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      expect(await page.getByRole('textbox').count()).toBe(0);
      await expectAccessible(page, 'the claim rules of a viewer');
      await page.screenshot({ path: `${artifacts}console-rules-desktop-viewer.png`, fullPage: true });
    });
    expect(watched.problems).toEqual([]);
  }, 60_000);
});

async function rulesFlow(page: Page, viewport: Viewport, seeded: Seeded): Promise<void> {
  const shot = (step: string, fullPage = true) => page.screenshot({ path: `${artifacts}console-rules-${viewport.name}-${step}.png`, fullPage });
  const { store, denied } = seeded;
  await logInNewUser(service, page, store, 'admin');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Claims', exact: true }).click();
  await waitForPath(page, '/console/claims');
  await page.getByRole('main').getByRole('link', { name: 'Claim rules' }).click();
  await waitForPath(page, '/console/claims/rules');
  await page.getByRole('heading', { level: 1, name: 'Claim rules' }).waitFor();
  // The navigation marks the rules, not the claims, as the current page.
  const nav = page.getByRole('navigation', { name: 'Console' });
  expect(await nav.getByRole('link', { name: 'Claim rules' }).getAttribute('aria-current')).toBe('page');
  expect(await nav.getByRole('link', { name: 'Claims', exact: true }).getAttribute('aria-current')).toBeNull();
  await page.getByText('No rules have been set yet: every claim waits for a person.').waitFor();
  expect(await cards(page).count()).toBe(0);
  await expectAccessible(page, 'the claim rules page with no rules');
  await shot('empty');

  // Two rules, typed in; each new rule takes the keyboard at its name.
  const addRule = page.getByRole('button', { name: 'Add a rule' });
  await addRule.click();
  const first = cards(page).nth(0);
  expect(await focusedId(page)).toBe(await first.getByLabel('Name', { exact: true }).getAttribute('id'));
  await page.keyboard.type(SILENT);
  await first.getByRole('checkbox', { name: 'Lost', exact: true }).check();
  await first.getByRole('checkbox', { name: 'Active', exact: true }).check();
  const maxAmount = first.getByLabel('Amount claimed at most (US dollars)');
  await maxAmount.fill('250.555');
  await first.getByRole('radio', { name: 'Approve it' }).check();
  expect(await first.getByLabel('Made good as').inputValue()).toBe('refund');
  await first.getByLabel('Note to the shopper (optional)').fill(NOTE);
  await addRule.click();
  const second = cards(page).nth(1);
  expect(await focusedId(page)).toBe(await second.getByLabel('Name', { exact: true }).getAttribute('id'));
  await page.keyboard.type(REVIEW);
  // A new rule sends claims to a person until told otherwise.
  expect(await second.getByRole('radio', { name: 'Send it to a person (in review)' }).isChecked()).toBe(true);
  await page.getByRole('status').filter({ hasText: 'Unsaved changes.' }).waitFor();

  // Saving: the server refuses the third decimal, beside the amount, and the keyboard goes there.
  await page.getByRole('button', { name: 'Save as version 1' }).click();
  const amountError = first.getByText('Must have at most two decimal places (a third decimal is rejected, not rounded).');
  await amountError.waitFor();
  expect(await maxAmount.getAttribute('aria-invalid')).toBe('true');
  expect(await maxAmount.getAttribute('aria-describedby')).toContain((await amountError.getAttribute('id')) ?? 'missing id');
  expect(await focusedId(page)).toBe(await maxAmount.getAttribute('id'));
  await page.getByRole('alert').filter({ hasText: 'The rules could not be saved. Check the fields marked below.' }).waitFor();
  expect((await api(store, 'GET', '/v1/claim_rules')).body.version).toBe(0);
  await expectAccessible(page, 'the rules refused beside a field');
  await shot('refused');
  await maxAmount.fill('250');
  expect(await amountError.count()).toBe(0);

  // Moving a rule, by keyboard: the keyboard stays on the rule it moved.
  await page.getByRole('button', { name: `Move “${REVIEW}” up` }).click();
  expect(await cardNames(page)).toEqual([REVIEW, SILENT]);
  // At the top its "up" is off: the keyboard is on its "down".
  expect(await page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")')).toBe(`Move “${REVIEW}” down`);
  await page.keyboard.press('Enter');
  expect(await cardNames(page)).toEqual([SILENT, REVIEW]);
  expect(await page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")')).toBe(`Move “${REVIEW}” up`);

  // A third rule, removed again: the keyboard goes to the rule now last.
  await addRule.click();
  await page.keyboard.type('Temporary');
  expect(await cardNames(page)).toEqual([SILENT, REVIEW, 'Temporary']);
  await page.getByRole('button', { name: 'Remove “Temporary”' }).click();
  expect(await cardNames(page)).toEqual([SILENT, REVIEW]);
  expect(await focusedId(page)).toBe(await second.getByLabel('Name', { exact: true }).getAttribute('id'));

  // Trying the list on past claims (since 90 days ago): nothing is saved, nothing changes.
  const trySection = section(page, 'Try on past claims');
  const since = trySection.getByLabel('Claims filed since');
  const ninetyDaysAgo = (await page.evaluate(
    "(() => { const d = new Date(); d.setDate(d.getDate() - 90); return d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0'); })()",
  )) as string;
  expect(await since.inputValue()).toBe(ninetyDaysAgo);
  await trySection.getByRole('button', { name: 'Try on past claims' }).click();
  await trySection.getByRole('status').filter({ hasText: 'Tried on 3 claims.' }).waitFor();
  const figures = async () => Promise.all(['Claims considered', 'Approve', 'Deny', 'Review', 'No rule matched', 'Amount approved'].map((label) => figure(page, label).innerText()));
  // The lost claim (200.00) would be approved; the damaged and the other claim sent to review.
  expect(await figures()).toEqual(['3', '1', '0', '2', '0', '$200.00']);
  const byRule = trySection.getByRole('table', { name: 'What each rule would have decided, in list order' });
  expect(await rowCells(byRule, SILENT)).toEqual(['1', '0', '0', '$200.00']);
  expect(await rowCells(byRule, REVIEW)).toEqual(['0', '0', '2', '$0.00']);
  const disagreements = trySection.locator('.rules-disagreements li');
  expect(await disagreements.allInnerTexts()).toEqual([`${denied.reference}: a person denied it; rule “${SILENT}” would approve it.`]);
  expect(await disagreements.getByRole('link', { name: denied.reference }).getAttribute('href')).toBe(`/console/claims/${denied.id}`);
  expect((await api(store, 'GET', '/v1/claim_rules')).body.version).toBe(0);
  expect(await fitsWidth(page), 'the rules page fits the screen').toBe(true);
  await expectAccessible(page, 'the dry run');
  await shot('dry-run');

  // The second rule off: the results say they are out of date until tried again.
  await second.getByRole('checkbox', { name: 'On: it decides claims' }).uncheck();
  await second.getByText('Off', { exact: true }).waitFor();
  await trySection.getByText('You have changed the rules since this run').waitFor();
  await trySection.getByRole('button', { name: 'Try on past claims' }).click();
  await expect.poll(figures).toEqual(['3', '1', '0', '0', '2', '$200.00']);
  expect(await trySection.getByText('You have changed the rules since this run').count()).toBe(0);

  // Saved: version 1, as the merchant API reads it, and as a reload shows it.
  await page.getByRole('button', { name: 'Save as version 1' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved as version 1. New claims are decided by it from now on.' }).waitFor();
  await page.getByText(/^Version 1, set .+: 2 rules, 1 on\.$/).waitFor();
  await page.getByRole('button', { name: 'Save as version 2' }).waitFor();
  const saved = await api(store, 'GET', '/v1/claim_rules');
  expect(saved.body).toEqual({ version: 1, rules: SAVED_RULES, updated_at: expect.any(String) });
  await expectAccessible(page, 'the saved rules');
  await shot('saved');
  await page.reload();
  await cards(page).nth(1).waitFor();
  expect(await cardNames(page)).toEqual([SILENT, REVIEW]);
  expect(await cards(page).nth(0).getByLabel('Amount claimed at most (US dollars)').inputValue()).toBe('250.00');
  expect(await cards(page).nth(0).getByRole('radio', { name: 'Approve it' }).isChecked()).toBe(true);
  expect(await cards(page).nth(1).getByRole('checkbox', { name: 'On: it decides claims' }).isChecked()).toBe(false);
  await waitForIdle(page);

  // The next lost claim is approved by the rule as it is filed; its history says which rule, which
  // version, and what it read.
  const decided = await fileClaim(store, { source_order_id: await orderWithParcel(store), reason: 'lost' });
  expect(decided.status).toBe('approved');
  await page.goto(`${service.baseUrl}/console/claims/${decided.id}`);
  const history = section(page, 'History').getByRole('listitem');
  await history.nth(1).waitFor();
  const automatic = history.nth(1);
  expect(await automatic.locator('.claim-change-time').innerText()).toMatch(new RegExp(`· automatic: Rule “${SILENT}” \\(version 1\\)$`));
  expect(await automatic.locator('.claim-note-text').innerText()).toBe(NOTE);
  const read = automatic.locator('.claim-rule-evidence');
  expect(await read.locator('p').innerText()).toBe('What the rule read:');
  expect(await read.locator('dt').allInnerTexts()).toEqual(['Parcel status', 'Last carrier scan', 'Days without a scan', 'Delivered on', 'Claim window', 'Photos', "The shopper's earlier claims", 'Shipping address']);
  expect(await read.locator('dd').allInnerTexts()).toEqual([
    'On its way (active)',
    'No scan yet',
    'Less than a day, since the parcel was registered',
    'Not delivered',
    "Filed outside the store's claim window",
    'None',
    'None at this store in the past year',
    'Not verified',
  ]);
  const resolution = section(page, 'Resolution');
  expect(await resolution.locator('dd').allInnerTexts()).toEqual(['Refund', '$200.00', NOTE]);
  expect(await page.locator('.page-header .claim-status').innerText()).toBe('Approved');
  expect(await fitsWidth(page), 'the decided claim fits the screen').toBe(true);
  await expectAccessible(page, "a claim a rule decided");
  await shot('rule-decision');
}
