// The shoppers' claim page (web/claims), served whole by this service at /claims/{store_slug} under a
// strict CSP. Over HTTP: the page at each of its paths, its headers and its files. In Debian's
// Chromium, at a phone's and a desktop's size, over a real server, with an order and its parcel made
// through the merchant API: the store's logo and colour; finding the order; its parcels, their scans
// and the way to file; a damaged parcel claimed with two real photos (the problems of an incomplete
// form summarised, focused and linked first); the claim's status page, its reference and worth; the
// store approving it in the console with a note, which the shopper then sees in words; logging out.
// Axe on every page, no sideways scrolling, 44px touch targets, and a screenshot of each step in
// test-artifacts/claims-*.png (the outcomes themselves: claims-web-outcome.test.ts).
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, expectSelfContainedPage, referencedFiles, inBrowser, logInNewUser, SESSION_PROBE, skipBrowser, VIEWPORTS, waitForIdle, watchedPage } from './support/console-browser.js';
import {
  browser,
  checkPage,
  errorSummary,
  explanationOf,
  headingFocused,
  newShopperContext,
  parcelCard,
  reasons,
  service,
  shopperWithParcel,
  startClaimPageService,
  stopClaimPageService,
  summaryFocused,
} from './support/claims-web.js';
import { call } from './support/http.js';
import { fact, focused, imageLoaded, jpegPhoto, lookUp, openLookup, pngPhoto, region, rootProperty, SHOPPER_CONTEXT, shopperFailure } from './support/shopper-browser.js';

/** The first load's JavaScript, gzipped, may not exceed this (a phone on a slow network). */
const FIRST_LOAD_JS_BUDGET_BYTES = 200 * 1024;

beforeAll(startClaimPageService);
afterAll(stopClaimPageService);

describe('GET /claims over HTTP', () => {
  it('answers the app at every path of a store, under a strict CSP, with no inline script or style', async () => {
    for (const path of ['/claims/some-store', '/claims/some-store/', '/claims/some-store/order', '/claims/some-store/order/claim?tracking=1Z999', '/claims/some-store/claims/3f1c2b7a-0000-4000-8000-000000000000']) {
      const response = await fetch(`${service.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      const csp = response.headers.get('content-security-policy') ?? '';
      for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'", "frame-ancestors 'none'"]) {
        expect(csp, `${path}: ${directive}`).toContain(directive);
      }
      expect(csp, path).not.toContain('unsafe-');
      const html = await response.text();
      expectSelfContainedPage(html);
    }
  });

  it('serves its built files long-cached, with the first load under its JavaScript budget', async () => {
    const html = await (await fetch(`${service.baseUrl}/claims/some-store`)).text();
    const { scripts, styles } = referencedFiles(html);
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    let gzippedJs = 0;
    for (const file of [...scripts, ...styles]) {
      expect(file).toMatch(/^\/claims\/assets\/[\w.-]+-[\w-]{8}\.(js|css)$/);
      const response = await fetch(`${service.baseUrl}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      const body = Buffer.from(await response.arrayBuffer());
      if (file.endsWith('.js')) gzippedJs += gzipSync(body).length;
    }
    expect(gzippedJs).toBeLessThan(FIRST_LOAD_JS_BUDGET_BYTES);
  });
});

const DAMAGE = 'The box was crushed on one corner.\nThe lamp shade is dented and one organiser is cracked.';
const NOTE = 'Thank you for the photos: we are sending a new lamp and organiser.';

describe.skipIf(skipBrowser)('the claim page in Chromium', () => {
  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}x${viewport.height} (${viewport.name})`, () => {
      it("finds the order, files a damaged claim with two photos, and shows the store's approval and note", async () => {
        const { store, slug, order, parcel } = await shopperWithParcel();
        const shopperContext = await newShopperContext(viewport);
        // After logging out, the order page is asked for once more: 401, back to the lookup page.
        const shopper = await watchedPage(shopperContext, [shopperFailure(401, 'GET', '/order')]);
        const { page } = shopper;
        const shot = (step: string) => checkPage(page, viewport, step, step);
        let claimId = '';
        try {
          // The lookup page: the store's name, logo and colour; the text on the colour readable.
          await openLookup(page, service, slug);
          expect(await page.title()).toBe(`Find your order · ${store.store.name}`);
          const banner = page.getByRole('banner');
          const logo = banner.getByRole('img', { name: store.store.name, exact: true });
          await expect.poll(() => imageLoaded(logo)).toBe(true);
          expect(await banner.innerText()).toContain(store.store.name);
          expect(await rootProperty(page, '--accent')).toBe('#ffd400');
          // Yellow is light: the header's text is near-black, not white.
          expect(await rootProperty(page, '--on-accent')).toBe('#111111');
          expect(await headingFocused(page)).toBe(true);
          await shot('lookup');

          // The order: its number, date, parcel with carrier, tracking, status and scans, newest first.
          await lookUp(page, order);
          expect(await page.title()).toBe(`Order ${order.orderNumber} · ${store.store.name}`);
          expect(await headingFocused(page)).toBe(true);
          await page.getByText(/^Placed on \w{3} \d{1,2}, \d{4}$/).waitFor();
          const card = parcelCard(page);
          expect(await card.getByRole('heading', { level: 3 }).innerText()).toBe('Your parcel');
          expect(await fact(card, 'Carrier').innerText()).toBe('UPS');
          expect(await fact(card, 'Tracking number').innerText()).toBe(parcel.trackingNumber);
          await fact(card, 'Delivered').waitFor();
          expect(await card.locator('.delivery-status').innerText()).toBe('Delivered');
          const scans = card.getByRole('list', { name: /^Tracking history/ }).getByRole('listitem');
          expect(await scans.count()).toBe(6);
          expect(await scans.first().innerText()).toContain('Delivered, left at front door');
          expect(await scans.first().innerText()).toContain('San Francisco, CA, US');
          expect(await scans.last().innerText()).toContain('Shipping label created, carrier awaiting item');
          expect(await card.innerText()).toContain('Walnut desk organiser');
          expect(await region(page, 'What you ordered').getByRole('listitem').allInnerTexts()).toEqual(['Walnut desk organiser\n× 2', 'Brass reading lamp\n× 1']);
          expect(await region(page, 'Your claims').count()).toBe(0);
          await shot('order');

          // The form for the parcel: the lost window is closed (it was delivered), and says why.
          await card.getByRole('link', { name: /^File a claim/ }).click();
          await page.getByRole('heading', { level: 1, name: 'File a claim' }).waitFor();
          const url = new URL(page.url());
          expect([url.pathname, url.searchParams.get('tracking')]).toEqual([`/claims/${slug}/order/claim`, parcel.trackingNumber]);
          expect(await headingFocused(page)).toBe(true);
          expect(await reasons(page).getByRole('radio').count()).toBe(6);
          expect(await reasons(page).getByRole('radio', { name: 'It never arrived' }).isDisabled()).toBe(true);
          expect(await explanationOf(page, 'It never arrived')).toContain('The carrier reports this parcel delivered.');
          for (const open of ['It arrived damaged', 'It was delivered but stolen', 'Items were missing', 'It went to the wrong address', 'Something else']) {
            expect(await reasons(page).getByRole('radio', { name: open }).isEnabled(), open).toBe(true);
          }
          expect(await page.getByLabel('Photos of the damage').count()).toBe(0);
          await reasons(page).getByRole('radio', { name: 'It arrived damaged' }).check();
          const photoInput = page.getByLabel('Photos of the damage');
          expect(await photoInput.getAttribute('accept')).toBe('image/jpeg,image/png,image/webp');
          expect(await photoInput.getAttribute('multiple')).not.toBeNull();
          await page.getByText('Up to 5 photos, 10 MB each').waitFor();

          // Sent without photos or words: the problems listed, linked and focused, each beside its field.
          await page.getByRole('button', { name: 'Submit claim' }).click();
          await errorSummary(page).waitFor();
          expect(await summaryFocused(page)).toBe(true);
          expect(await errorSummary(page).getByRole('listitem').allInnerTexts()).toEqual(['Photos: Add at least one photo of the damage.', 'Description: Describe what happened.']);
          const description = page.getByLabel('What happened', { exact: true });
          expect(await description.getAttribute('aria-invalid')).toBe('true');
          await page.getByText('Describe what happened.', { exact: true }).waitFor();
          await shot('form-errors');
          await errorSummary(page).getByRole('link', { name: 'Description: Describe what happened.' }).click();
          expect((await focused(page))?.id).toBe(await description.getAttribute('id'));

          // Two photos, uploaded as soon as they are chosen, each shown from the server once ready.
          await photoInput.setInputFiles([
            { name: 'box-corner.jpg', mimeType: 'image/jpeg', buffer: await jpegPhoto() },
            { name: 'lamp-shade.png', mimeType: 'image/png', buffer: await pngPhoto() },
          ]);
          const photos = page.getByRole('list', { name: /^Your photos/ });
          await expect.poll(() => photos.getByText('Ready', { exact: true }).count(), { timeout: 15_000 }).toBe(2);
          for (const name of ['box-corner.jpg', 'lamp-shade.png']) {
            const thumbnail = photos.getByRole('img', { name: `Preview of ${name}` });
            expect(await thumbnail.getAttribute('src')).toMatch(new RegExp(`^/shopper/api/stores/${slug}/photos/[0-9a-f-]{36}$`));
            await expect.poll(() => imageLoaded(thumbnail)).toBe(true);
          }
          // What is fixed leaves the summary; what is not stays.
          expect(await errorSummary(page).getByRole('listitem').allInnerTexts()).toEqual(['Description: Describe what happened.']);

          // Some of the items: the lamp, and one of the two organisers.
          await page.getByRole('checkbox', { name: 'Brass reading lamp' }).check();
          await page.getByRole('checkbox', { name: /^Walnut desk organiser/ }).check();
          const howMany = page.getByLabel('How many Walnut desk organiser?');
          expect(await howMany.inputValue()).toBe('2');
          await howMany.fill('1');
          await description.fill(DAMAGE);
          expect(await errorSummary(page).count()).toBe(0);
          expect(await description.getAttribute('aria-invalid')).toBeNull();
          await shot('form');

          // Filed: the claim's status page.
          await page.getByRole('button', { name: 'Submit claim' }).click();
          await page.waitForURL((address) => new RegExp(`^/claims/${slug}/claims/[0-9a-f-]{36}$`).test(address.pathname), { timeout: 15_000 });
          claimId = new URL(page.url()).pathname.split('/').at(-1) as string;
          await page.getByRole('heading', { level: 1, name: 'Your claim' }).waitFor();
          expect(await headingFocused(page)).toBe(true);
          expect(await page.locator('.status-text').innerText()).toBe('Received — the store will review it');
          const claimed = region(page, 'What you claimed');
          expect(await fact(claimed, 'What happened').innerText()).toBe('Parcel arrived damaged');
          expect(await fact(claimed, 'Parcel').innerText()).toBe(parcel.trackingNumber);
          expect(await fact(claimed, 'Items').getByRole('listitem').allInnerTexts()).toEqual(['Walnut desk organiser\n× 1', 'Brass reading lamp\n× 1']);
          expect(await fact(claimed, 'Your description').innerText()).toBe(DAMAGE);
          const kept = region(page, 'Your photos').getByRole('img');
          expect(await kept.count()).toBe(2);
          for (const index of [0, 1]) await expect.poll(() => imageLoaded(kept.nth(index))).toBe(true);
          expect(await region(page, 'History').getByRole('listitem').allInnerTexts()).toHaveLength(1);
          // Nothing decided yet: no note from the store.
          expect(await page.locator('section.status-panel').getByRole('figure').count()).toBe(0);

          // The merchant API has it as the shopper filed it, from the claim page.
          const filed = await call(service.baseUrl, 'GET', `/v1/claims/${claimId}`, { key: store.liveKey });
          expect(filed.status).toBe(200);
          expect(filed.body).toMatchObject({ reason: 'damaged', channel: 'shopper_page', tracking_number: parcel.trackingNumber, description: DAMAGE, status: 'open' });
          // Its reference, to quote to the store, and its worth: one organiser (62.50) and the lamp (48.25).
          const reference = filed.body.reference as string;
          expect(reference).toMatch(/^CLM-[0-9A-Z]{6}$/);
          expect(filed.body.amount_claimed).toBe(110.75);
          expect(await fact(page.locator('.claim-facts'), 'Claim reference').innerText()).toBe(reference);
          expect(await fact(page.locator('.claim-facts'), 'Amount claimed').innerText()).toBe('$110.75');
          await shot('status');
          expect(filed.body.items).toEqual([
            { source_id: 'li_desk', quantity: 1 },
            { source_id: 'li_lamp', quantity: 1 },
          ]);
          expect(filed.body.photos).toHaveLength(2);

          // Back on the order: the parcel leads to its claim, which the order's claims list.
          await page.getByRole('link', { name: 'Back to your order' }).click();
          await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
          const seeClaim = parcelCard(page).getByRole('link', { name: /^See your claim/ });
          expect(await seeClaim.getAttribute('href')).toBe(`/claims/${slug}/claims/${claimId}`);
          expect(await parcelCard(page).getByRole('link', { name: /^File a claim/ }).count()).toBe(0);
          // The parcel says what became of its claim, in the words of its status.
          expect(await parcelCard(page).locator('.parcel-action').innerText()).toMatch(/^A claim on this parcel was received; the store will review it\.\s+See your claim/);
          const listed = region(page, 'Your claims').getByRole('listitem');
          expect(await listed.count()).toBe(1);
          expect(await listed.first().innerText()).toContain('Received — the store will review it');
          expect(await listed.first().getByRole('link', { name: 'Parcel arrived damaged' }).getAttribute('href')).toBe(`/claims/${slug}/claims/${claimId}`);
          await expect.poll(() => listed.first().locator('.claim-ref').innerText()).toBe(`Reference ${reference}`);
          await shot('order-with-claim');
        } catch (error) {
          await shopperContext.close();
          throw new Error(`${String(error)}\nBrowser problems: ${JSON.stringify(shopper.problems, null, 2)}`, { cause: error });
        }

        // The store approves it in the console, with a note.
        const consoleContext = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height }, ...SHOPPER_CONTEXT });
        const merchant = await watchedPage(consoleContext, [SESSION_PROBE]);
        await inBrowser(
          merchant,
          consoleContext,
          async () => {
            const admin = merchant.page;
            await logInNewUser(service, admin, store, 'admin');
            await admin.goto(`${service.baseUrl}/console/claims/${claimId}`);
            await admin.getByRole('heading', { level: 1, name: `Claim on order ${order.sourceOrderId}` }).waitFor();
            await admin.getByLabel('Note (optional)').fill(NOTE);
            await admin.getByRole('button', { name: 'Approve', exact: true }).click();
            await admin.getByRole('dialog', { name: 'Approve this claim?' }).getByRole('button', { name: 'Approve claim' }).click();
            await admin.getByRole('status').filter({ hasText: 'The claim is approved.' }).waitFor();
            await waitForIdle(admin);
          },
          `claims-${viewport.name}-console-last`,
        );
        expect(merchant.problems).toEqual([]);

        // The shopper reloads their claim: the approval in words (how the store makes it good, as it
        // chose), with the store's note, in the history too.
        const approved = await call(service.baseUrl, 'GET', `/v1/claims/${claimId}`, { key: store.liveKey });
        expect(approved.body.status).toBe('approved');
        const resolution = approved.body.resolution as { type: 'refund' | 'reorder' | 'store_credit'; amount: number };
        const outcome = {
          refund: `Refund of $${resolution.amount.toFixed(2)} approved`,
          store_credit: `Store credit of $${resolution.amount.toFixed(2)} approved`,
          reorder: 'A replacement will be sent',
        }[resolution.type];
        await inBrowser(
          shopper,
          shopperContext,
          async () => {
            await page.goto(`${service.baseUrl}/claims/${slug}/claims/${claimId}`);
            await page.getByRole('heading', { level: 1, name: 'Your claim' }).waitFor();
            await page.getByRole('heading', { level: 2, name: outcome, exact: true }).waitFor();
            expect(await page.locator('.outcome-by').innerText()).toMatch(/^Decided by the store on /);
            const note = page.locator('section.status-panel').getByRole('figure').first();
            expect(await note.locator('blockquote').innerText()).toBe(NOTE);
            expect(await note.locator('figcaption').innerText()).toMatch(/^The store/);
            const history = region(page, 'History').getByRole('listitem');
            expect(await history.count()).toBe(2);
            expect(await history.nth(1).innerText()).toContain('Approved');
            expect(await history.nth(1).innerText()).toContain(NOTE);
            await shot('approved');

            // Logging out: back to the lookup page, which says so; the order is no longer readable.
            await page.getByRole('link', { name: 'Back to your order' }).click();
            await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
            expect(await region(page, 'Your claims').getByRole('listitem').first().innerText()).toContain('Approved');
            // Beside the "Approved" badge, the parcel no longer says its claim is merely open.
            const action = parcelCard(page).locator('.parcel-action');
            expect(await action.innerText()).toMatch(/^A claim on this parcel was approved\.\s+See your claim/);
            expect(await action.innerText()).not.toContain('is open');
            expect(await action.getByRole('link', { name: /^See your claim/ }).getAttribute('href')).toBe(`/claims/${slug}/claims/${claimId}`);
            await shot('order-approved');
            await page.getByRole('button', { name: 'Log out' }).click();
            await page.getByRole('heading', { level: 1, name: 'Find your order' }).waitFor();
            await page.getByRole('status').filter({ hasText: 'You have logged out.' }).waitFor();
            await waitForIdle(page);
            await page.goto(`${service.baseUrl}/claims/${slug}/order`);
            await page.getByRole('heading', { level: 1, name: 'Find your order' }).waitFor();
            await page.getByRole('status').filter({ hasText: 'Look up your order first' }).waitFor();
            expect(new URL(page.url()).pathname).toBe(`/claims/${slug}`);
            await waitForIdle(page);
          },
          `claims-${viewport.name}-approved-last`,
        );
        expect(shopper.problems).toEqual([]);
      }, 120_000);
    });
  }
});
