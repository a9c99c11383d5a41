// The claim page's outcome of a claim, in Debian's Chromium at a phone's size, over a real server,
// with the store deciding through its API (POST /v1/claims/{id}/status) or its claim rules
// (PUT /v1/claim_rules): the claim's reference (on its page and in the order's list) and the amount
// claimed; a refund approved, then paid while the page is open (the outcome updates in place, in a
// live region); store credit approved by a rule at filing, which the page says, with the rule's note;
// a claim declined with the store's note; a replacement. Axe, no sideways scrolling, 44px touch
// targets, and a screenshot of each step in test-artifacts/claims-phone-outcome-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asShopper, checkPage, parcelCard, reasons, service, shopperWithParcel, startClaimPageService, stopClaimPageService, type Shopper } from './support/claims-web.js';
import { PHONE, skipBrowser } from './support/console-browser.js';
import { call } from './support/http.js';
import { fact, fileByApi, jpegPhoto, lookUp, openLookup, region } from './support/shopper-browser.js';

beforeAll(startClaimPageService);
afterAll(stopClaimPageService);

const viewport = PHONE;
/** A day as the page writes it in the shoppers' context of these tests (en-US, UTC). */
const day = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
const REFERENCE = /^CLM-[0-9A-Z]{6}$/;

const merchant = (shopper: Shopper, method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: shopper.store.liveKey, ...(body === undefined ? {} : { body }) });

/** A claim the store files through its API; answers its id, reference and amount claimed. */
async function fileClaim(shopper: Shopper, body: Record<string, unknown>) {
  const filed = await fileByApi(service, shopper.store, { source_order_id: shopper.order.sourceOrderId, tracking_number: shopper.parcel.trackingNumber, ...body });
  expect(filed.status, JSON.stringify(filed.body)).toBe(201);
  expect(filed.body.reference).toMatch(REFERENCE);
  return filed.body as { id: string; reference: string; amount_claimed: number; created_on: string };
}

async function decide(shopper: Shopper, claimId: string, body: Record<string, unknown>) {
  const decided = await merchant(shopper, 'POST', `/v1/claims/${claimId}/status`, body);
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return decided.body as { payout: { paid_on: string } | null; history: Array<{ changed_on: string }> };
}

/** The outcome panel: the status page's first region, named by its sentence. */
const outcome = (page: Page) => page.locator('section.status-panel');
const headline = (page: Page) => outcome(page).getByRole('heading', { level: 2 });
const claimFacts = (page: Page) => page.locator('.claim-facts');
/** The order page's row of the claim filed for `reason` (its link's name). */
const claimRow = (page: Page, reason: string) => region(page, 'Your claims').getByRole('listitem').filter({ has: page.getByRole('link', { name: reason, exact: true }) });

async function openClaim(page: Page, reason: string): Promise<void> {
  await claimRow(page, reason).getByRole('link', { name: reason, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Your claim' }).waitFor();
}

async function backToOrder(page: Page, orderNumber: string): Promise<void> {
  await page.getByRole('link', { name: 'Back to your order' }).click();
  await page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` }).waitFor();
}

describe.skipIf(skipBrowser)(`the claim's outcome in Chromium at ${viewport.width}x${viewport.height}`, () => {
  it('shows the reference and a refund approved, then paid while the page is open', async () => {
    const shopper = await shopperWithParcel();
    // The lamp, 48.25: a refund of part of it.
    const claim = await fileClaim(shopper, { reason: 'damaged', description: 'The lamp shade is dented.', items: [{ source_id: 'li_lamp', quantity: 1 }] });
    expect(claim.amount_claimed).toBe(48.25);
    const approved = await decide(shopper, claim.id, { status: 'approved', resolution: { type: 'refund', amount: 24.99, note: 'Half the lamp back, to your card.' } });
    const approvedOn = approved.history.at(-1)?.changed_on as string;

    await asShopper(
      viewport,
      [],
      async ({ page }) => {
        await openLookup(page, service, shopper.slug);
        await lookUp(page, shopper.order);
        // The order's list names the claim by its reference, to quote to the store.
        const row = claimRow(page, 'Parcel arrived damaged');
        await expect.poll(() => row.locator('.claim-ref').innerText()).toBe(`Reference ${claim.reference}`);
        expect(await row.locator('.claim-status').innerText()).toBe('Approved');
        await checkPage(page, viewport, 'outcome-order', 'the order with an approved claim');

        await openClaim(page, 'Parcel arrived damaged');
        expect(await headline(page).innerText()).toBe('Refund of $24.99 approved');
        expect(await page.getByRole('region', { name: 'Refund of $24.99 approved' }).count()).toBe(1);
        expect(await page.title()).toBe(`Refund of $24.99 approved · Claim ${claim.reference}`);
        expect(await outcome(page).getAttribute('class')).toContain('tone-good');
        expect(await outcome(page).locator('.outcome-by').innerText()).toBe(`Decided by the store on ${day(approvedOn)}.`);
        // No note on the decision itself: the note on the refund is the store's word, once.
        const notes = outcome(page).getByRole('figure');
        expect(await notes.count()).toBe(1);
        expect(await notes.locator('blockquote').innerText()).toBe('Half the lamp back, to your card.');
        expect(await notes.locator('figcaption').innerText()).toBe('The store, about your refund');
        expect(await fact(claimFacts(page), 'Claim reference').innerText()).toBe(claim.reference);
        expect(await fact(claimFacts(page), 'Amount claimed').innerText()).toBe('$48.25');
        expect(await fact(claimFacts(page), 'Filed on').innerText()).toBe(day(claim.created_on));
        expect(await fact(claimFacts(page), 'Order').innerText()).toBe(shopper.order.orderNumber);
        await checkPage(page, viewport, 'outcome-refund-approved', 'a refund approved');

        // The store pays it while the page is open; coming back to the tab reads the claim again,
        // and the outcome changes in place, inside the region that announces it.
        const paid = await decide(shopper, claim.id, { status: 'paid', payout: { amount: 24.99 } });
        const paidOn = day(paid.payout?.paid_on as string);
        const before = await headline(page).elementHandle();
        await page.evaluate("window.dispatchEvent(new Event('visibilitychange'))");
        await expect.poll(() => headline(page).innerText()).toBe(`Refund of $24.99 paid on ${paidOn}`);
        expect(await before?.evaluate((element) => (element as unknown as { isConnected: boolean }).isConnected)).toBe(true);
        const live = outcome(page).locator('[aria-live="polite"]');
        expect(await live.innerText()).toContain(`Refund of $24.99 paid on ${paidOn}`);
        // The refund was decided on approval, by the store: still said so.
        expect(await outcome(page).locator('.outcome-by').innerText()).toBe(`Decided by the store on ${day(approvedOn)}.`);
        expect(await page.title()).toBe(`Refund of $24.99 paid on ${paidOn} · Claim ${claim.reference}`);
        expect(await region(page, 'History').getByRole('listitem').count()).toBe(3);
        await checkPage(page, viewport, 'outcome-refund-paid', 'a refund paid');

        // Back on the order (shown from the cache at once, then read again): paid, by its reference.
        await backToOrder(page, shopper.order.orderNumber);
        await expect.poll(() => claimRow(page, 'Parcel arrived damaged').locator('.claim-status').innerText()).toBe('Paid');
        expect(await claimRow(page, 'Parcel arrived damaged').locator('.claim-ref').innerText()).toBe(`Reference ${claim.reference}`);
      },
      'outcome-refund',
    );
  }, 90_000);

  it("says when the store's rules decided at filing, with the rule's note to the shopper", async () => {
    const shopper = await shopperWithParcel();
    const RULE_NOTE = 'Sorry it arrived damaged: store credit for it is on your account already.';
    const rules = await merchant(shopper, 'PUT', '/v1/claim_rules', {
      rules: [{ name: 'Credit damaged parcels', enabled: true, when: { reasons: ['damaged'] }, then: { action: 'approve', resolution_type: 'store_credit', note_to_shopper: RULE_NOTE } }],
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);

    await asShopper(
      viewport,
      [],
      async ({ page }) => {
        await openLookup(page, service, shopper.slug);
        await lookUp(page, shopper.order);
        // Filed as a shopper files it: the lamp, damaged, with a photo.
        await parcelCard(page).getByRole('link', { name: /^File a claim/ }).click();
        await page.getByRole('heading', { level: 1, name: 'File a claim' }).waitFor();
        await reasons(page).getByRole('radio', { name: 'It arrived damaged' }).check();
        await page.getByLabel('Photos of the damage').setInputFiles([{ name: 'lamp.jpg', mimeType: 'image/jpeg', buffer: await jpegPhoto() }]);
        await expect.poll(() => page.getByRole('list', { name: /^Your photos/ }).getByText('Ready', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
        await page.getByRole('checkbox', { name: 'Brass reading lamp' }).check();
        await page.getByLabel('What happened', { exact: true }).fill('The lamp shade is dented.');
        await page.getByRole('button', { name: 'Submit claim' }).click();
        await page.waitForURL((address) => /\/claims\/[0-9a-f-]{36}$/.test(address.pathname), { timeout: 15_000 });
        await page.getByRole('heading', { level: 1, name: 'Your claim' }).waitFor();
        const claimId = new URL(page.url()).pathname.split('/').at(-1) as string;

        // The server's record: approved at filing by the rule, for the lamp's 48.25.
        const stored = await merchant(shopper, 'GET', `/v1/claims/${claimId}`);
        expect(stored.body).toMatchObject({ status: 'approved', amount_claimed: 48.25, resolution: { type: 'store_credit', amount: 48.25, note: RULE_NOTE } });
        const ruled = (stored.body.history as Array<{ changed_on: string; by: { kind: string } }>).at(-1);
        expect(ruled?.by.kind).toBe('rule');

        expect(await headline(page).innerText()).toBe('Store credit of $48.25 approved');
        expect(await outcome(page).locator('.outcome-by').innerText()).toBe(`Decided automatically by the store's claim rules on ${day(ruled?.changed_on as string)}.`);
        // The rule's note, once (it is also the resolution's note), said to be the rules'.
        const notes = outcome(page).getByRole('figure');
        expect(await notes.count()).toBe(1);
        expect(await notes.locator('blockquote').innerText()).toBe(RULE_NOTE);
        expect(await notes.locator('figcaption').innerText()).toMatch(/^The store's claim rules · /);
        expect(await fact(claimFacts(page), 'Claim reference').innerText()).toBe(stored.body.reference);
        expect(await fact(claimFacts(page), 'Amount claimed').innerText()).toBe('$48.25');
        const history = region(page, 'History').getByRole('listitem');
        expect(await history.count()).toBe(2);
        expect(await history.first().innerText()).not.toContain('claim rules');
        expect(await history.nth(1).innerText()).toContain("Decided automatically by the store's claim rules");
        expect(await history.nth(1).innerText()).toContain(RULE_NOTE);
        await checkPage(page, viewport, 'outcome-rule', 'a claim approved by a rule');

        await backToOrder(page, shopper.order.orderNumber);
        await expect.poll(() => claimRow(page, 'Parcel arrived damaged').locator('.claim-ref').innerText()).toBe(`Reference ${stored.body.reference as string}`);
      },
      'outcome-rule',
    );
  }, 90_000);

  it("shows a declined claim with the store's note, and a replacement, each by its reference", async () => {
    const shopper = await shopperWithParcel();
    const DENY_NOTE = 'The carrier photographed the parcel intact at your door.';
    const REORDER_NOTE = 'We are sending the missing organiser today.';
    const declined = await fileClaim(shopper, { reason: 'other', description: 'The parcel came open.' });
    const denied = await decide(shopper, declined.id, { status: 'denied', note: DENY_NOTE });
    // One open claim per parcel: the declined one is not open, so another can be filed on it.
    const missing = await fileClaim(shopper, { reason: 'missing_items', description: 'One organiser was missing.', items: [{ source_id: 'li_desk', quantity: 1 }] });
    await decide(shopper, missing.id, { status: 'approved', note: REORDER_NOTE, resolution: { type: 'reorder' } });
    expect(missing.reference).not.toBe(declined.reference);

    await asShopper(
      viewport,
      [],
      async ({ page }) => {
        await openLookup(page, service, shopper.slug);
        await lookUp(page, shopper.order);
        expect(await region(page, 'Your claims').getByRole('listitem').count()).toBe(2);
        await expect.poll(() => claimRow(page, 'Other problem').locator('.claim-ref').innerText()).toBe(`Reference ${declined.reference}`);
        await expect.poll(() => claimRow(page, 'Items missing').locator('.claim-ref').innerText()).toBe(`Reference ${missing.reference}`);
        expect(await claimRow(page, 'Other problem').locator('.claim-status').innerText()).toBe('Declined');
        await checkPage(page, viewport, 'outcome-order-two', 'the order with two claims');

        await openClaim(page, 'Other problem');
        expect(await headline(page).innerText()).toBe('Your claim was declined');
        expect(await outcome(page).getAttribute('class')).toContain('tone-bad');
        expect(await outcome(page).locator('.outcome-by').innerText()).toBe(`Decided by the store on ${day(denied.history.at(-1)?.changed_on as string)}.`);
        const note = outcome(page).getByRole('figure');
        expect(await note.count()).toBe(1);
        expect(await note.locator('blockquote').innerText()).toBe(DENY_NOTE);
        expect(await note.locator('figcaption').innerText()).toMatch(/^The store · /);
        expect(await fact(claimFacts(page), 'Claim reference').innerText()).toBe(declined.reference);
        // A whole-parcel claim is worth the whole order: 2 × 62.50 + 48.25.
        expect(await fact(claimFacts(page), 'Amount claimed').innerText()).toBe('$173.25');
        expect(await page.title()).toBe(`Your claim was declined · Claim ${declined.reference}`);
        await checkPage(page, viewport, 'outcome-denied', 'a declined claim');

        await backToOrder(page, shopper.order.orderNumber);
        await openClaim(page, 'Items missing');
        expect(await headline(page).innerText()).toBe('A replacement will be sent');
        expect(await outcome(page).getByRole('figure').locator('blockquote').innerText()).toBe(REORDER_NOTE);
        expect(await fact(claimFacts(page), 'Claim reference').innerText()).toBe(missing.reference);
        expect(await fact(claimFacts(page), 'Amount claimed').innerText()).toBe('$62.50');
        await checkPage(page, viewport, 'outcome-reorder', 'a replacement approved');
      },
      'outcome-denied',
    );
  }, 90_000);

  it('says on the parcel what became of its last claim, and still lets the shopper file again once it is settled', async () => {
    const shopper = await shopperWithParcel();
    const declined = await fileClaim(shopper, { reason: 'other', description: 'The parcel came open.' });
    await decide(shopper, declined.id, { status: 'denied', note: 'The carrier photographed the parcel intact at your door.' });

    await asShopper(
      viewport,
      [],
      async ({ page }) => {
        await openLookup(page, service, shopper.slug);
        await lookUp(page, shopper.order);
        const action = parcelCard(page).locator('.parcel-action');
        // The words of the claim's status, as the "Declined" badge of the claims list says it.
        await expect.poll(() => action.locator('.muted').innerText()).toBe('A claim on this parcel was declined.');
        expect(await claimRow(page, 'Other problem').locator('.claim-status').innerText()).toBe('Declined');
        expect(await action.innerText()).not.toContain('is open');
        expect(await action.getByRole('link', { name: /^See your claim/ }).getAttribute('href')).toBe(`/claims/${shopper.slug}/claims/${declined.id}`);
        // Settled, it no longer holds the parcel: a new claim may be filed on it.
        await action.getByRole('link', { name: /^File a claim/ }).waitFor();
        await checkPage(page, viewport, 'outcome-parcel-declined', 'a parcel whose claim was declined');
      },
      'outcome-parcel-declined',
    );
  }, 90_000);
});
