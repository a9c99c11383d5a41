// The shoppers' claim page (web/claims), served whole by this service at /claims/{store_slug} under a
// strict CSP. Over HTTP: the page at each of its paths, its headers and its files. In Debian's
// Chromium, at a phone's and a desktop's size, over a real server, with orders and parcels made
// through the merchant API: the store's logo and colour; finding an order; its parcels, their
// scans and the way to file; a damaged parcel claimed with two real photos (the problems of an
// incomplete form summarised, focused and linked first); the claim's status page; the store
// approving it with a note in the console, which the shopper then sees; logging out; a wrong email
// answered as an unknown order number; too many lookups (429); closed claim windows explained; a
// claim filed meanwhile (409); the photo limits (a sixth, one over 10 MB, one that is no image); an
// order without protection, and a cancelled one; a session that ends; an unknown store; and the
// whole flow by keyboard alone. Axe on every page, no sideways scrolling, 44px touch targets, and a
// screenshot of each step in test-artifacts/claims-*.png.
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CLAIM_PHOTOS, SHOPPER_SESSION_MINUTES } from '../contract/shopper/index.js';
import { artifacts, DESKTOP, expectAccessible, expectSelfContainedPage, referencedFiles, inBrowser, launch, logInNewUser, SESSION_PROBE, skipBrowser, VIEWPORTS, waitForIdle, watchedPage, type Viewport, type Watched } from './support/console-browser.js';
import { DEFAULT_RATE_LIMITS } from '../server/http/rate-limit.js';
import { call } from './support/http.js';
import { startService, type SeededStore, type TestService } from './support/service.js';
import {
  deliver,
  DELIVERED_SCRIPT,
  expectNoSidewaysScroll,
  expectTouchTargets,
  fact,
  fileByApi,
  focused,
  imageLoaded,
  jpegPhoto,
  lookUp,
  openLookup,
  placeOrder,
  pngPhoto,
  region,
  rootProperty,
  seedShopperStore,
  ship,
  SHOPPER_CONTEXT,
  shopperFailure,
  tabUntil,
  type Parcel,
  type PlacedOrder,
} from './support/shopper-browser.js';

/** The first load's JavaScript, gzipped, may not exceed this (a phone on a slow network). */
const FIRST_LOAD_JS_BUDGET_BYTES = 200 * 1024;

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

interface Shopper {
  store: SeededStore;
  slug: string;
  order: PlacedOrder;
  parcel: Parcel;
}

/** A store with its claim page set up, a protected order, and its one parcel (delivered unless told). */
async function shopperWithParcel(options: { delivered?: boolean; trackingNumber?: string; store?: Parameters<typeof seedShopperStore>[1]; order?: Record<string, unknown> } = {}): Promise<Shopper> {
  const store = await seedShopperStore(service, options.store);
  const order = await placeOrder(service, store, options.order);
  const parcel = await ship(service, store, order.sourceOrderId, options.trackingNumber ?? DELIVERED_SCRIPT);
  if (options.delivered ?? true) await deliver(service, parcel);
  return { store, slug: store.store.slug, order, parcel };
}

const newShopperContext = (viewport: Viewport) => (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height }, ...SHOPPER_CONTEXT });

/** Axe, no sideways scrolling, and a screenshot of the whole page. */
async function checkPage(page: Page, viewport: Viewport, step: string, where: string): Promise<void> {
  await waitForIdle(page);
  await expectAccessible(page, `${where} (${viewport.name})`);
  await expectNoSidewaysScroll(page, `${where} (${viewport.name})`);
  await expectTouchTargets(page, `${where} (${viewport.name})`);
  await page.screenshot({ path: `${artifacts}claims-${viewport.name}-${step}.png`, fullPage: true });
}

/** The claim form's parcel card on the order page. */
const parcelCard = (page: Page) => region(page, 'Your parcels').getByRole('article').first();

/** Whether the keyboard focus is on the page's h1. */
const headingFocused = async (page: Page) => (await focused(page))?.tag === 'h1';

/** The reason choices of the claim form. */
const reasons = (page: Page) => page.getByRole('group', { name: 'What happened?' });

/** The text that explains a reason's window, through the radio's aria-describedby. */
async function explanationOf(page: Page, choice: string): Promise<string> {
  const describedBy = await reasons(page).getByRole('radio', { name: choice, exact: true }).getAttribute('aria-describedby');
  expect(describedBy, `${choice} is described`).toBeTruthy();
  const texts = await Promise.all((describedBy as string).split(' ').map((id) => page.locator(`[id="${id}"]`).innerText()));
  return texts.join(' ');
}

const errorSummary = (page: Page) => page.getByRole('region', { name: /^There (is a problem|are \d+ problems)$/ });
const summaryFocused = (page: Page) => page.evaluate('document.activeElement !== null && document.activeElement.classList.contains("error-summary")') as Promise<boolean>;

/** Runs a shopper's flow in its own context; a failure carries what the browser saw. */
async function asShopper(viewport: Viewport, expectedFailures: RegExp[], flow: (watched: Watched) => Promise<void>, lastShot: string): Promise<void> {
  const context = await newShopperContext(viewport);
  const watched = await watchedPage(context, expectedFailures);
  await inBrowser(watched, context, () => flow(watched), `claims-${viewport.name}-${lastShot}-last`);
  expect(watched.problems).toEqual([]);
}

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
          expect(await region(page, "The store's note").count()).toBe(0);
          await shot('status');

          // The merchant API has it as the shopper filed it, from the claim page.
          const filed = await call(service.baseUrl, 'GET', `/v1/claims/${claimId}`, { key: store.liveKey });
          expect(filed.status).toBe(200);
          expect(filed.body).toMatchObject({ reason: 'damaged', channel: 'shopper_page', tracking_number: parcel.trackingNumber, description: DAMAGE, status: 'open' });
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
          const listed = region(page, 'Your claims').getByRole('listitem');
          expect(await listed.count()).toBe(1);
          expect(await listed.first().innerText()).toContain('Received — the store will review it');
          expect(await listed.first().getByRole('link', { name: 'Parcel arrived damaged' }).getAttribute('href')).toBe(`/claims/${slug}/claims/${claimId}`);
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

        // The shopper reloads their claim: approved, with the store's note, in the history too.
        await inBrowser(
          shopper,
          shopperContext,
          async () => {
            await page.goto(`${service.baseUrl}/claims/${slug}/claims/${claimId}`);
            await page.getByRole('heading', { level: 1, name: 'Your claim' }).waitFor();
            await page.locator('.status-text').filter({ hasText: /^Approved$/ }).waitFor();
            const note = region(page, "The store's note");
            expect(await note.locator('blockquote').innerText()).toBe(NOTE);
            expect(await note.locator('figcaption').innerText()).toMatch(/^Approved · /);
            const history = region(page, 'History').getByRole('listitem');
            expect(await history.count()).toBe(2);
            expect(await history.nth(1).innerText()).toContain('Approved');
            expect(await history.nth(1).innerText()).toContain(NOTE);
            await shot('approved');

            // Logging out: back to the lookup page, which says so; the order is no longer readable.
            await page.getByRole('link', { name: 'Back to your order' }).click();
            await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
            expect(await region(page, 'Your claims').getByRole('listitem').first().innerText()).toContain('Approved');
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

      it('gives a wrong email the same answer as an unknown order number, and keeps what was typed', async () => {
        const { slug, order } = await shopperWithParcel({ delivered: false, trackingNumber: `ZZLOOKUP${Date.now()}` });
        const failures = [shopperFailure(404, 'POST', '/lookup'), shopperFailure(400, 'POST', '/lookup')];
        await asShopper(
          viewport,
          failures,
          async ({ page, requests }) => {
            await openLookup(page, service, slug);
            const number = page.getByLabel('Order number', { exact: true });
            const email = page.getByLabel('Email', { exact: true });
            const find = page.getByRole('button', { name: 'Find my order' });
            const alert = page.locator('.error-message[role="alert"]');
            const lookups = () => requests.filter((address) => address.endsWith('/lookup')).length;

            // Nothing typed: said beside each field, and nothing asked.
            await find.click();
            await page.getByText('Enter your order number.').waitFor();
            await page.getByText('Enter the email you ordered with.').waitFor();
            expect(await number.getAttribute('aria-invalid')).toBe('true');
            expect(lookups()).toBe(0);

            const answerTo = async (orderNumber: string, address: string): Promise<string> => {
              await number.fill(orderNumber);
              await email.fill(address);
              const answered = page.waitForResponse((response) => response.url().endsWith('/lookup'));
              await find.click();
              expect((await answered).status()).toBe(404);
              await expect.poll(() => alert.innerText()).not.toBe('');
              // Still there to correct, and the focus still on the button.
              expect([await number.inputValue(), await email.inputValue()]).toEqual([orderNumber, address]);
              expect((await focused(page))?.text).toBe('Find my order');
              return alert.innerText();
            };
            const wrongEmail = await answerTo(order.orderNumber, 'someone.else@example.com');
            await checkPage(page, viewport, 'lookup-not-found', 'the lookup page after a wrong email');
            const unknownNumber = await answerTo(`${order.orderNumber}999`, order.email);
            expect(wrongEmail).toBe(unknownNumber);
            expect(wrongEmail).toMatch(/^No order matches/);

            // A field the server refuses (400): its message beside the field.
            await email.fill(`${'a'.repeat(250)}@example.com`);
            await find.click();
            await page.getByText('Must be at most 254 characters.').waitFor();
            expect(await email.getAttribute('aria-invalid')).toBe('true');
            expect(await alert.innerText()).toBe('Check the fields marked below.');

            // And the right pair finds it.
            await email.fill(order.email);
            await number.fill(order.orderNumber);
            await find.click();
            await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
            await waitForIdle(page);
          },
          'lookup',
        );
      }, 60_000);

      it('explains the claim windows that are closed, and a claim the store filed meanwhile (409)', async () => {
        // A parcel just registered, with no scan yet: lost opens after 7 days without a scan,
        // damage and the rest once it is delivered.
        const { store, slug, order, parcel } = await shopperWithParcel({ delivered: false, trackingNumber: `ZZWINDOW${Date.now()}` });
        await asShopper(
          viewport,
          [shopperFailure(409, 'POST', '/claims')],
          async ({ page }) => {
            await openLookup(page, service, slug);
            await lookUp(page, order);
            const card = parcelCard(page);
            expect(await card.innerText()).toContain('No scans from the carrier yet.');
            await card.getByRole('link', { name: /^File a claim/ }).click();
            await page.getByRole('heading', { level: 1, name: 'File a claim' }).waitFor();

            const lost = reasons(page).getByRole('radio', { name: 'It never arrived' });
            expect(await lost.isDisabled()).toBe(true);
            const opensOn = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(parcel.createdOn.getTime() + 7 * 86_400_000));
            const lostWhy = await explanationOf(page, 'It never arrived');
            expect(lostWhy).toContain('it can be reported lost once it has had no carrier scan for 7 days');
            expect(lostWhy).toContain(`You can report it from ${opensOn}.`);
            // Shown beside it, not only to screen readers.
            expect(await reasons(page).getByText(`You can report it from ${opensOn}.`, { exact: false }).isVisible()).toBe(true);
            for (const afterDelivery of ['It arrived damaged', 'It was delivered but stolen', 'Items were missing']) {
              expect(await reasons(page).getByRole('radio', { name: afterDelivery }).isDisabled(), afterDelivery).toBe(true);
              expect(await explanationOf(page, afterDelivery)).toBe('This can be reported once the carrier shows the parcel delivered.');
            }
            for (const open of ['It went to the wrong address', 'Something else']) {
              expect(await reasons(page).getByRole('radio', { name: open }).isEnabled(), open).toBe(true);
              expect(await reasons(page).getByRole('radio', { name: open }).getAttribute('aria-describedby')).toBeNull();
            }
            await checkPage(page, viewport, 'form-windows', 'the claim form with closed windows');

            // Meanwhile the store files a claim on the same parcel: one open claim per parcel.
            await reasons(page).getByRole('radio', { name: 'Something else' }).check();
            await page.getByLabel('What happened', { exact: true }).fill('The parcel came open in transit.');
            const byStore = await fileByApi(service, store, { source_order_id: order.sourceOrderId, tracking_number: parcel.trackingNumber, reason: 'other', description: 'Filed by the store.' });
            expect(byStore.status).toBe(201);
            const answered = page.waitForResponse((response) => response.url().endsWith('/claims') && response.request().method() === 'POST');
            await page.getByRole('button', { name: 'Submit claim' }).click();
            const conflict = await answered;
            expect(conflict.status()).toBe(409);
            const said = ((await conflict.json()) as { error: string }).error;
            const alert = page.locator('.error-message[role="alert"]');
            await expect.poll(() => alert.innerText()).toContain(said.replace(/\.$/, ''));
            expect(await alert.innerText()).toMatch(/^Your claim was not sent: /);
            expect(await page.getByRole('link', { name: 'See your order and its claims' }).getAttribute('href')).toBe(`/claims/${slug}/order`);
            // The form keeps what was typed, and the button is usable again.
            expect(await page.getByLabel('What happened', { exact: true }).inputValue()).toBe('The parcel came open in transit.');
            expect(await page.getByRole('button', { name: 'Submit claim' }).getAttribute('aria-disabled')).toBeNull();
            await checkPage(page, viewport, 'form-conflict', 'the claim form after a 409');

            // The order page now leads to the store's claim on the parcel instead of a form.
            await page.getByRole('link', { name: 'Back to your order' }).click();
            await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
            expect(await parcelCard(page).getByRole('link', { name: /^See your claim/ }).getAttribute('href')).toBe(`/claims/${slug}/claims/${byStore.body.id as string}`);
            await waitForIdle(page);
          },
          'windows',
        );
      }, 60_000);

      it('refuses a sixth photo and a file over 10 MB on the page, and shows the server refusing a file that is no image', async () => {
        const { slug, order } = await shopperWithParcel();
        await asShopper(
          viewport,
          [shopperFailure(400, 'POST', '/photos')],
          async ({ page, requests }) => {
            await openLookup(page, service, slug);
            await lookUp(page, order);
            await parcelCard(page).getByRole('link', { name: /^File a claim/ }).click();
            await reasons(page).getByRole('radio', { name: 'It arrived damaged' }).check();
            const input = page.getByLabel('Photos of the damage');
            const photos = page.getByRole('list', { name: /^Your photos/ });
            const entry = (name: string) => photos.getByRole('listitem').filter({ hasText: name });
            const uploads = () => requests.filter((address) => address.endsWith(`/shopper/api/stores/${slug}/photos`)).length;

            // Text named .jpg: the server judges the bytes, and the page shows its answer.
            const answered = page.waitForResponse((response) => response.url().endsWith('/photos') && response.request().method() === 'POST');
            await input.setInputFiles({ name: 'not-a-photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('This is a shopping list, not a photo.') });
            const refusal = await answered;
            expect(refusal.status()).toBe(400);
            // Its detail about the file, as the server wrote it.
            const said = ((await refusal.json()) as { errors: Array<{ message: string }> }).errors[0]?.message;
            expect(said).toBeTruthy();
            await entry('not-a-photo.jpg').getByText(`This file ${said as string}.`, { exact: true }).waitFor();
            expect(await entry('not-a-photo.jpg').locator('.photo-state').innerText()).toBe('Not added');

            // Over 10 MB: refused before any upload.
            await input.setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
            await entry('huge.jpg').getByText('This file is larger than 10 MB.').waitFor();
            expect(uploads()).toBe(1);

            // Six at once: five uploaded, the sixth refused on the page.
            const six = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => ({ name: `parcel-${n}.jpg`, mimeType: 'image/jpeg', buffer: await jpegPhoto(`#${n}${n}3`) })));
            await input.setInputFiles(six);
            await expect.poll(() => photos.getByText('Ready', { exact: true }).count(), { timeout: 20_000 }).toBe(MAX_CLAIM_PHOTOS);
            await entry('parcel-6.jpg').getByText(`A claim can have at most ${MAX_CLAIM_PHOTOS} photos: remove one to add another.`).waitFor();
            expect(uploads()).toBe(1 + MAX_CLAIM_PHOTOS);
            await checkPage(page, viewport, 'form-photos', 'the claim form with photos refused and ready');

            // Remove: the photo goes, and the focus returns to where photos are added.
            await entry('not-a-photo.jpg').getByRole('button', { name: 'Remove not-a-photo.jpg' }).click();
            expect(await entry('not-a-photo.jpg').count()).toBe(0);
            expect((await focused(page))?.id).toBe(await input.getAttribute('id'));
            await entry('parcel-2.jpg').getByRole('button', { name: 'Remove parcel-2.jpg' }).click();
            await expect.poll(() => photos.getByText('Ready', { exact: true }).count()).toBe(MAX_CLAIM_PHOTOS - 1);
            // Room for one more again.
            await input.setInputFiles({ name: 'one-more.png', mimeType: 'image/png', buffer: await pngPhoto() });
            await entry('one-more.png').getByText('Ready', { exact: true }).waitFor();
            await waitForIdle(page);
          },
          'photos',
        );
      }, 60_000);

      it("shows an order without protection, and a cancelled one, the store's contact and no claim form", async () => {
        const { store, slug, order, parcel } = await shopperWithParcel({ order: { insurance_selected: false } });
        await asShopper(
          viewport,
          [],
          async ({ page }) => {
            await openLookup(page, service, slug);
            await lookUp(page, order);
            await page.getByRole('heading', { level: 2, name: 'This order has no shipment protection' }).waitFor();
            const mail = page.getByRole('link', { name: 'help@shop.example' });
            expect(await mail.getAttribute('href')).toBe('mailto:help@shop.example');
            const help = page.getByRole('link', { name: /help page$/ });
            expect(await help.getAttribute('href')).toBe('https://shop.example/help');
            expect(await help.getAttribute('rel')).toBe('noopener noreferrer');
            // The parcel and its tracking are still there; the way to file is not.
            expect(await fact(parcelCard(page), 'Tracking number').innerText()).toBe(parcel.trackingNumber);
            expect(await page.getByRole('link', { name: /File a claim/ }).count()).toBe(0);
            await checkPage(page, viewport, 'order-unprotected', 'an order without protection');

            // Nor does the form's own address show a form.
            await page.goto(`${service.baseUrl}/claims/${slug}/order/claim?tracking=${encodeURIComponent(parcel.trackingNumber)}`);
            await page.getByRole('heading', { level: 1, name: 'File a claim' }).waitFor();
            await page.getByText('This order has no shipment protection, so a claim cannot be filed here.').waitFor();
            expect(await page.getByRole('link', { name: 'help@shop.example' }).count()).toBe(1);
            expect(await page.getByRole('button', { name: 'Submit claim' }).count()).toBe(0);
            expect(await page.getByRole('radio').count()).toBe(0);
            await waitForIdle(page);

            // A protected order the store cancelled: said so, the same contact, no way to file.
            const cancelled = await placeOrder(service, store);
            await ship(service, store, cancelled.sourceOrderId, `ZZCANCEL${Date.now()}`);
            expect((await call(service.baseUrl, 'POST', `/v1/orders/${encodeURIComponent(cancelled.sourceOrderId)}/cancel`, { key: store.liveKey })).status).toBe(200);
            await openLookup(page, service, slug);
            await lookUp(page, cancelled);
            await page.getByRole('heading', { level: 2, name: 'This order was cancelled' }).waitFor();
            expect(await page.getByRole('link', { name: 'help@shop.example' }).getAttribute('href')).toBe('mailto:help@shop.example');
            expect(await page.getByRole('link', { name: /File a claim/ }).count()).toBe(0);
            await checkPage(page, viewport, 'order-cancelled', 'a cancelled order');
          },
          'unprotected',
        );
      }, 60_000);

      it('sends the shopper back to the lookup page, saying why, when the session has ended', async () => {
        const { slug, order } = await shopperWithParcel();
        await asShopper(
          viewport,
          [shopperFailure(401, 'GET', '/order')],
          async ({ page }) => {
            await openLookup(page, service, slug);
            await lookUp(page, order);
            await waitForIdle(page);
            // The session lasts SHOPPER_SESSION_MINUTES from the lookup; the server's clock moves past it.
            service.clock.advance((SHOPPER_SESSION_MINUTES + 1) * 60_000);
            await parcelCard(page).getByRole('link', { name: /^File a claim/ }).click();
            await page.getByRole('heading', { level: 1, name: 'Find your order' }).waitFor();
            expect(new URL(page.url()).pathname).toBe(`/claims/${slug}`);
            await page.getByRole('status').filter({ hasText: 'Your session has ended. Look up your order again.' }).waitFor();
            expect(await headingFocused(page)).toBe(true);
            await checkPage(page, viewport, 'session-ended', 'the lookup page after the session ended');
            // Looking up again opens a new session.
            await lookUp(page, order);
            await waitForIdle(page);
          },
          'session',
        );
      }, 60_000);

      it('files a claim by keyboard alone', async () => {
        const { slug, order } = await shopperWithParcel({ store: { accentColor: null, logo: false } });
        await asShopper(
          viewport,
          [],
          async ({ page }) => {
            await openLookup(page, service, slug);
            // The default colour, white text on it; no logo.
            expect(await rootProperty(page, '--accent')).toBe('#2450c7');
            expect(await rootProperty(page, '--on-accent')).toBe('#ffffff');
            expect(await page.getByRole('banner').getByRole('img').count()).toBe(0);
            const key = (name: string) => page.keyboard.press(name);

            // From the heading: the number, the email, Enter.
            expect(await headingFocused(page)).toBe(true);
            await key('Tab');
            expect((await focused(page))?.label).toBe('Order number');
            await page.keyboard.type(order.orderNumber);
            await key('Tab');
            expect((await focused(page))?.label).toBe('Email');
            await page.keyboard.type(order.email);
            await key('Enter');
            await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
            expect(await headingFocused(page)).toBe(true);

            // To the parcel's "File a claim", Enter.
            await tabUntil(page, 'File a claim', (element) => element?.text.startsWith('File a claim') ?? false);
            await key('Enter');
            await page.getByRole('heading', { level: 1, name: 'File a claim' }).waitFor();
            expect(await headingFocused(page)).toBe(true);

            // Into the reasons: "It never arrived" is closed (delivered), so the first open one.
            await key('Tab');
            expect((await focused(page))?.label).toBe('It arrived damaged');
            await key('Space');
            expect(await reasons(page).getByRole('radio', { name: 'It arrived damaged' }).isChecked()).toBe(true);
            // Arrows move the choice; back up to damaged.
            await key('ArrowDown');
            expect(await reasons(page).getByRole('radio', { name: 'It was delivered but stolen' }).isChecked()).toBe(true);
            await key('ArrowUp');
            expect(await reasons(page).getByRole('radio', { name: 'It arrived damaged' }).isChecked()).toBe(true);

            // The photo field comes next; the file chooser itself is the browser's.
            await key('Tab');
            expect((await focused(page))?.label).toBe('Photos of the damage');
            await page.getByLabel('Photos of the damage').setInputFiles({ name: 'dent.jpg', mimeType: 'image/jpeg', buffer: await jpegPhoto('#a52') });
            await page.getByRole('list', { name: /^Your photos/ }).getByText('Ready', { exact: true }).waitFor({ timeout: 15_000 });

            // Past the photo's Remove button to the items: tick the organisers, one of them.
            await key('Tab');
            expect((await focused(page))?.text).toBe('Remove dent.jpg');
            await key('Tab');
            expect((await focused(page))?.label).toMatch(/^Walnut desk organiser/);
            await key('Space');
            await key('Tab');
            expect((await focused(page))?.label).toBe('How many Walnut desk organiser?');
            await key('ControlOrMeta+A');
            await page.keyboard.type('1');
            // Past the lamp and the description, to send: the description is missing.
            await key('Tab');
            expect((await focused(page))?.label).toBe('Brass reading lamp');
            await key('Tab');
            expect((await focused(page))?.label).toBe('What happened');
            await key('Tab');
            expect((await focused(page))?.text).toBe('Submit claim');
            await key('Enter');
            await errorSummary(page).waitFor();
            expect(await summaryFocused(page)).toBe(true);
            // From the summary, its link to the field, Enter: the focus is in the field.
            await key('Tab');
            expect((await focused(page))?.text).toBe('Description: Describe what happened.');
            await key('Enter');
            expect((await focused(page))?.label).toBe('What happened');
            await page.keyboard.type('Dented lid.');
            await key('Tab');
            expect((await focused(page))?.text).toBe('Submit claim');
            await key('Enter');
            await page.getByRole('heading', { level: 1, name: 'Your claim' }).waitFor({ timeout: 15_000 });
            expect(await headingFocused(page)).toBe(true);
            expect(await fact(region(page, 'What you claimed'), 'Items').innerText()).toContain('Walnut desk organiser');

            // Back to the order (just before the heading), and log out.
            await key('Shift+Tab');
            expect((await focused(page))?.text).toBe('Back to your order');
            await key('Enter');
            await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
            await tabUntil(page, 'Log out', (element) => element?.text === 'Log out');
            await key('Enter');
            await page.getByRole('heading', { level: 1, name: 'Find your order' }).waitFor();
            await waitForIdle(page);
            await page.screenshot({ path: `${artifacts}claims-${viewport.name}-keyboard-done.png`, fullPage: true });
          },
          'keyboard',
        );
      }, 60_000);

      it('says "No such store" for a store the server does not know', async () => {
        await asShopper(
          viewport,
          [/^404 GET \/shopper\/api\/stores\/no-such-store$/, /^400 GET \/shopper\/api\/stores\/Not_A_Slug$/],
          async ({ page }) => {
            await page.goto(`${service.baseUrl}/claims/no-such-store`);
            await page.getByRole('heading', { level: 1, name: 'No such store' }).waitFor();
            expect(await page.title()).toBe('No such store');
            expect(await page.getByRole('textbox').count()).toBe(0);
            await checkPage(page, viewport, 'no-store', 'the page of an unknown store');
            await page.goto(`${service.baseUrl}/claims/Not_A_Slug/order`);
            await page.getByRole('heading', { level: 1, name: 'No such store' }).waitFor();
            await waitForIdle(page);
          },
          'no-store',
        );
      }, 30_000);
    });
  }
});

describe.skipIf(skipBrowser)('the claim page when lookups are limited', () => {
  // A service of its own, whose limit of lookups of one order number from one address is reached on the third.
  let limited: TestService;
  beforeAll(async () => {
    limited = await startService({ rateLimits: { ...DEFAULT_RATE_LIMITS, shopperLookupsPerOrderPerIp: 2 } });
  });
  afterAll(async () => limited?.close());

  for (const viewport of VIEWPORTS) {
    it(`says "Too many attempts" and when to try again (429), at ${viewport.name} size`, async () => {
      const store = await seedShopperStore(limited);
      const order = await placeOrder(limited, store);
      await asShopper(
        viewport,
        [shopperFailure(404, 'POST', '/lookup'), shopperFailure(429, 'POST', '/lookup')],
        async ({ page }) => {
          await openLookup(page, limited, store.store.slug);
          await page.getByLabel('Order number', { exact: true }).fill(order.orderNumber);
          await page.getByLabel('Email', { exact: true }).fill('not.me@example.com');
          const alert = page.locator('.error-message[role="alert"]');
          for (const expected of [404, 404, 429]) {
            const answered = page.waitForResponse((response) => response.url().endsWith('/lookup'));
            await page.getByRole('button', { name: 'Find my order' }).click();
            const answer = await answered;
            expect(answer.status()).toBe(expected);
            if (expected === 429) {
              const said = ((await answer.json()) as { error: string }).error;
              expect(said).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
              await expect.poll(() => alert.innerText()).toBe(said);
            }
            await waitForIdle(page);
          }
          await checkPage(page, viewport, 'lookup-too-many', 'the lookup page after too many attempts');
        },
        'too-many',
      );
    }, 60_000);
  }
});
