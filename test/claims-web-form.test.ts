// The claim page's form, in Debian's Chromium at a phone's and a desktop's size, over a real server:
// closed claim windows explained, and a claim the store filed meanwhile (409); the photo limits (a
// sixth, one over 10 MB, one that is no image); an order without protection, and a cancelled one;
// the whole flow by keyboard alone, with the store's default colour and no logo. Axe on every page,
// no sideways scrolling, 44px touch targets, and a screenshot of each in test-artifacts/claims-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CLAIM_PHOTOS } from '../contract/shopper/index.js';
import { asShopper, checkPage, errorSummary, explanationOf, headingFocused, parcelCard, reasons, service, shopperWithParcel, startClaimPageService, stopClaimPageService, summaryFocused } from './support/claims-web.js';
import { artifacts, skipBrowser, VIEWPORTS, waitForIdle } from './support/console-browser.js';
import { call } from './support/http.js';
import { fact, fileByApi, focused, jpegPhoto, lookUp, openLookup, placeOrder, pngPhoto, region, rootProperty, shopperFailure, ship, tabUntil } from './support/shopper-browser.js';

beforeAll(startClaimPageService);
afterAll(stopClaimPageService);

describe.skipIf(skipBrowser)('the claim page in Chromium', () => {
  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}x${viewport.height} (${viewport.name})`, () => {
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
    });
  }
});
