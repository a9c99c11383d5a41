// The console's side of the shoppers' claim page, in Debian's Chromium over the real server: an
// admin sets the page's accent colour, support contacts and claim windows (the server's field
// errors beside their fields, the keyboard sent to the first), uploads a logo (a PNG made here; a
// file that is no image refused beside the file input), and a reload keeps them, as the database
// and the claim page's own API do; the logo removed. A viewer reads them and can change nothing. A
// claim a shopper filed on the claim page with two photos shows where it was filed, the photos as
// thumbnails (lazy, sized from the data, read through the console's own route) that open in a new
// tab, and the shopper in the history; a claim filed through the API shows neither. Axe, and a
// screenshot of each step at a phone's and a desktop's size.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaimPhotoRecord, fileClaim, postgresPhotoStore, setStoreLogo, updateClaimPage, uploadClaimPhoto } from '../server/domain/claims/index.js';



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
} from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

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

const CONTEXT = { locale: 'en-US', timezoneId: 'UTC' } as const;
const newContext = async () => {
  const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height }, ...CONTEXT });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(service.baseUrl).origin });
  return context;
};

/** The 4xx answers the admin's flow causes on purpose: refused values, and a file that is no image. */
const ADMIN_FAILURES = [SESSION_PROBE, /^400 PATCH \/console\/api\/settings$/, /^400 PUT \/console\/api\/settings\/logo$/];

/** The logo the brief describes: 300×100, a green field. */
const logoPng = () => sharp({ create: { width: 300, height: 100, channels: 4, background: '#2a6' } }).png().toBuffer();

/** Axe, no sideways scrolling, and a screenshot at each size, then back to the desktop's. */
async function checkAtEachSize(page: Page, step: string, where: string): Promise<void> {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await expectAccessible(page, `${where} (${viewport.name})`);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    expect(overflow, `${where} is wider than the ${viewport.name} screen`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}console-claim-page-${step}-${viewport.name}.png`, fullPage: true });
  }
}

/** A section of a page, by its heading. */
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A labelled value of a section's facts. */
const fact = (page: Page, sectionName: string, term: string) =>
  section(page, sectionName).locator('dl div').filter({ has: page.getByRole('term').getByText(term, { exact: true }) }).getByRole('definition');

/** Whether an image has arrived and decoded (a CSP refusal or a 404 leaves it at 0×0). */
const loaded = (page: Page, selector: string) =>
  page.evaluate(`(() => { const img = document.querySelector(${JSON.stringify(selector)}); return img !== null && img.complete && img.naturalWidth > 0; })()`) as Promise<boolean>;

/** A user of `role` logged in, on the settings page, reached through the navigation. */
async function logInToSettings(page: Page, store: SeededStore, role: 'admin' | 'viewer'): Promise<void> {
  await logInNewUser(service, page, store, role);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
  await waitForPath(page, '/console/settings');
  await section(page, 'Claim page').waitFor();
}

describe.skipIf(skipBrowser)("the claim page's settings", () => {
  it('lets an admin set the colour, contacts, windows and logo, refusing what the server refuses, and keeps them', async () => {
    const store = await seedStore(service.db);
    const slug = store.store.slug;
    const context = await newContext();
    const watched = await watchedPage(context, ADMIN_FAILURES);
    const { page, problems } = watched;
    const idle = () => waitForIdle(page);
    await inBrowser(
      watched,
      context,
      async () => {
        await logInToSettings(page, store, 'admin');
        const claimPage = section(page, 'Claim page');

        // The public page's address, to open in a new tab or to copy.
        const link = claimPage.getByRole('link', { name: `${service.baseUrl}/claims/${slug} (opens in a new tab)` });
        expect(await link.getAttribute('href')).toBe(`/claims/${slug}`);
        expect(await link.getAttribute('target')).toBe('_blank');
        await claimPage.getByRole('button', { name: "Copy the claim page's address" }).click();
        await claimPage.getByText('Copied to the clipboard.').waitFor();
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${service.baseUrl}/claims/${slug}`);

        // The defaults: no colour of the store's own, no contacts, 7 and 30 days, no logo.
        const accent = page.getByLabel('Accent colour');
        const email = page.getByLabel('Support e-mail');
        const url = page.getByLabel('Support URL');
        const lost = page.getByLabel('Lost parcels: days without a scan');
        const afterDelivery = page.getByLabel('Damage, missing items, theft: days after delivery');
        expect(await accent.getAttribute('type')).toBe('color');
        const hex = claimPage.locator('.settings-hex');
        expect(await hex.innerText()).toBe('Default');
        expect((await accent.getAttribute('aria-describedby'))?.split(' ')).toContain(await hex.getAttribute('id'));
        expect(await claimPage.getByRole('button', { name: 'Use the default colour' }).count()).toBe(0);
        expect([await email.inputValue(), await url.inputValue(), await lost.inputValue(), await afterDelivery.inputValue()]).toEqual(['', '', '7', '30']);
        await claimPage.getByText('Shoppers can report a parcel lost once it has gone this many days without a carrier scan. The default, 7 days,', { exact: false }).waitFor();
        await claimPage.getByText('up to this many days after delivery. The default, 30 days,', { exact: false }).waitFor();
        await claimPage.getByText('Current logo').waitFor();
        expect(await claimPage.getByRole('img').count()).toBe(0);
        expect(await claimPage.getByRole('button', { name: 'Remove logo' }).count()).toBe(0);
        await checkAtEachSize(page, 'admin-defaults', "an admin's claim page settings, as they start");

        // A support URL that is not https and a window of 0 days: both refused, each beside its
        // field, and the keyboard goes to the first.
        await accent.fill('#22aa66');
        expect(await hex.innerText()).toBe('#22aa66');
        await email.fill('help@shop.example');
        await url.fill('http://help.shop.example/claims');
        await lost.fill('0');
        await afterDelivery.fill('45');
        await claimPage.getByRole('button', { name: 'Save claim page' }).click();
        await page.getByText('Must start with https://.').waitFor();
        await page.getByText('Must be at least 1.').waitFor();
        expect(await url.getAttribute('aria-invalid')).toBe('true');
        expect(await lost.getAttribute('aria-invalid')).toBe('true');
        expect(await email.getAttribute('aria-invalid')).toBeNull();
        expect(await page.locator(`#${(await url.getAttribute('aria-describedby')) ?? ''}`).innerText()).toBe('Must start with https://.');
        expect(await focusedId(page)).toBe(await url.getAttribute('id'));
        await page.getByRole('alert').filter({ hasText: 'The claim page could not be saved' }).waitFor();
        await checkAtEachSize(page, 'admin-refused', 'the claim page settings with two refused fields');
        expect((await service.db.store.findUniqueOrThrow({ where: { id: store.store.id } })).brandAccentColor).toBeNull();

        // An empty window is not sent at all: it is no number.
        await lost.fill('');
        await claimPage.getByRole('button', { name: 'Save claim page' }).click();
        await page.getByText('Must be a whole number of days.').waitFor();
        expect(await focusedId(page)).toBe(await lost.getAttribute('id'));

        // Fixed, and saved by keyboard (Enter in a field submits the form).
        await url.fill('https://help.shop.example/claims');
        await lost.fill('10');
        await page.keyboard.press('Enter');
        await page.getByRole('status').filter({ hasText: 'Claim page saved.' }).waitFor();
        expect(await claimPage.locator('[aria-invalid="true"]').count()).toBe(0);
        const saved = await service.db.store.findUniqueOrThrow({ where: { id: store.store.id } });
        expect({
          accent: saved.brandAccentColor,
          email: saved.supportEmail,
          url: saved.supportUrl,
          lost: saved.claimLostAfterDays,
          afterDelivery: saved.claimAfterDeliveryDays,
        }).toEqual({ accent: '#22aa66', email: 'help@shop.example', url: 'https://help.shop.example/claims', lost: 10, afterDelivery: 45 });
        await claimPage.getByRole('button', { name: 'Use the default colour' }).waitFor();

        // Upload with no file chosen: said beside the file input, nothing sent.
        const logo = page.getByLabel('Logo', { exact: true });
        expect(await logo.getAttribute('type')).toBe('file');
        await claimPage.getByRole('button', { name: 'Upload logo' }).click();
        await claimPage.getByText('Choose an image file first.').waitFor();
        expect(await focusedId(page)).toBe(await logo.getAttribute('id'));

        // A file that is no image, whatever its name says: the server's word, beside the input.
        await logo.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
        await claimPage.getByRole('button', { name: 'Upload logo' }).click();
        await page.getByRole('alert').filter({ hasText: 'The logo could not be uploaded' }).waitFor();
        expect(await logo.getAttribute('aria-invalid')).toBe('true');
        expect(await page.locator(`#${((await logo.getAttribute('aria-describedby')) ?? '').split(' ')[1]}`).innerText()).toMatch(/^Must be a JPEG, PNG or WebP image/);
        expect(await service.db.storeLogo.count({ where: { storeId: store.store.id } })).toBe(0);

        // The PNG: uploaded as its bytes, shown at once from the claim page's own logo URL.
        await logo.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logoPng() });
        await claimPage.getByRole('button', { name: 'Upload logo' }).click();
        await page.getByRole('status').filter({ hasText: 'Logo uploaded.' }).waitFor();
        // The button keeps the keyboard: it was never disabled, so the focus did not fall to the page.
        expect(await focusedText(page)).toBe('Upload logo');
        const preview = claimPage.getByRole('img', { name: 'Your logo, as the claim page shows it' });
        await preview.waitFor();
        await expect.poll(() => loaded(page, 'img.settings-logo')).toBe(true);
        expect(await logo.inputValue()).toBe('');
        expect(await logo.getAttribute('aria-invalid')).toBeNull();
        const stored = await service.db.storeLogo.findUniqueOrThrow({ where: { storeId: store.store.id } });
        expect((await sharp(Buffer.from(stored.content)).metadata()).format).toBe('png');
        await checkAtEachSize(page, 'admin-saved', 'the claim page settings, saved, with a logo');

        // A reload reads every one of them back.
        await idle();
        await page.reload();
        await section(page, 'Claim page').waitFor();
        expect(await accent.inputValue()).toBe('#22aa66');
        expect(await hex.innerText()).toBe('#22aa66');
        expect([await email.inputValue(), await url.inputValue(), await lost.inputValue(), await afterDelivery.inputValue()]).toEqual([
          'help@shop.example',
          'https://help.shop.example/claims',
          '10',
          '45',
        ]);
        await preview.waitFor();
        await expect.poll(() => loaded(page, 'img.settings-logo')).toBe(true);

        // The claim page's own API shows the shoppers the same.
        const shopperStore = await call(service.baseUrl, 'GET', `/shopper/api/stores/${slug}`, {});
        expect(shopperStore.status).toBe(200);
        expect(shopperStore.body).toMatchObject({
          accent_color: '#22aa66',
          support_email: 'help@shop.example',
          support_url: 'https://help.shop.example/claims',
          claim_windows: { lost_after_days: 10, after_delivery_days: 45 },
        });
        expect(await preview.getAttribute('src')).toBe(shopperStore.body.logo_url);

        // The colour back to the default, and the logo removed: the keyboard goes to the file input.
        await claimPage.getByRole('button', { name: 'Use the default colour' }).click();
        expect(await focusedId(page)).toBe(await accent.getAttribute('id'));
        expect(await hex.innerText()).toBe('Default');
        await claimPage.getByRole('button', { name: 'Save claim page' }).click();
        await page.getByRole('status').filter({ hasText: 'Claim page saved.' }).waitFor();
        expect(await focusedText(page)).toBe('Save claim page');
        expect((await service.db.store.findUniqueOrThrow({ where: { id: store.store.id } })).brandAccentColor).toBeNull();
        await claimPage.getByRole('button', { name: 'Remove logo' }).click();
        await page.getByRole('status').filter({ hasText: 'Logo removed.' }).waitFor();
        expect(await focusedId(page)).toBe(await logo.getAttribute('id'));
        expect(await claimPage.getByRole('img').count()).toBe(0);
        expect(await claimPage.getByRole('button', { name: 'Remove logo' }).count()).toBe(0);
        expect(await service.db.storeLogo.count({ where: { storeId: store.store.id } })).toBe(0);
        await checkAtEachSize(page, 'admin-removed', 'the claim page settings after removing the logo');
        await idle();
      },
      'console-claim-page-admin-last',
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows a viewer the claim page settings read only', async () => {
    const store = await seedStore(service.db);
    await updateClaimPage(
      service.db,
      actingFor(TEST_OPERATOR, store.store),
      { accent_color: '#7a1f5c', support_email: 'care@shop.example', support_url: 'https://shop.example/help', lost_after_days: 5, after_delivery_days: 14 },
      new Date(),
    );
    await setStoreLogo(service.db, actingFor(TEST_OPERATOR, store.store), await logoPng(), new Date());
    const context = await newContext();
    const watched = await watchedPage(context);
    const { page, problems } = watched;
    await inBrowser(watched, context, async () => {
      await logInToSettings(page, store, 'viewer');
      const claimPage = section(page, 'Claim page');
      expect(await claimPage.getByRole('link', { name: `${service.baseUrl}/claims/${store.store.slug} (opens in a new tab)` }).getAttribute('href')).toBe(
        `/claims/${store.store.slug}`,
      );
      expect(await fact(page, 'Claim page', 'Accent colour').innerText()).toBe('#7a1f5c');
      expect(await fact(page, 'Claim page', 'Support e-mail').innerText()).toBe('care@shop.example');
      expect(await fact(page, 'Claim page', 'Support URL').getByRole('link').getAttribute('href')).toBe('https://shop.example/help');
      expect(await fact(page, 'Claim page', 'Lost parcels').locator('.settings-figure').innerText()).toBe('5 days');
      expect(await fact(page, 'Claim page', 'Damage, missing items, theft').locator('.settings-figure').innerText()).toBe('14 days');
      await fact(page, 'Claim page', 'Logo').getByRole('img', { name: 'Your logo, as the claim page shows it' }).waitFor();
      await expect.poll(() => loaded(page, 'img.settings-logo')).toBe(true);
      // Nothing to change: no field, no file input, no button but the copy button.
      for (const role of ['textbox', 'spinbutton', 'radio', 'combobox'] as const) expect(await page.getByRole(role).count(), role).toBe(0);
      expect(await page.locator('input[type="color"], input[type="file"]').count()).toBe(0);
      expect(await claimPage.getByRole('button').count()).toBe(1);
      await claimPage.getByRole('button', { name: "Copy the claim page's address" }).waitFor();
      await checkAtEachSize(page, 'viewer', "a viewer's claim page settings");
      await waitForIdle(page);
    });
    expect(problems).toEqual([]);
  }, 60_000);
});

describe.skipIf(skipBrowser)('a claim filed on the claim page', () => {
  it('shows where it was filed, the photos as thumbnails opening in a new tab, and the shopper in its history', async () => {
    const store = await seedStore(service.db);
    const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { bearer: store.liveKey, ...(body === undefined ? {} : { body }) });
    const order = orderBody();
    expect((await api('POST', '/v2/orders', order)).status).toBe(201);
    const sourceOrderId = order.source_order_id as string;
    const trackingNumber = `ZZCLAIMPAGE${Date.now()}`;
    expect((await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: sourceOrderId, courier_id: 'ups' })).status).toBe(201);
    // Delivered just now: a damaged parcel may be reported.
    await service.db.shipment.updateMany({ where: { storeId: store.store.id, trackingNumber }, data: { deliveryStatus: 'Delivered', updatedOn: new Date() } });
    const { id: orderId } = await service.db.order.findFirstOrThrow({ where: { storeId: store.store.id, sourceOrderId }, select: { id: true } });

    // What the claim page does: each photo uploaded on its own, then the claim naming them.
    const photoStore = postgresPhotoStore(service.db);
    const photoOf = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } }).jpeg().toBuffer();
    const photos: ClaimPhotoRecord[] = [];
    for (const [width, height, background] of [[1200, 900, '#a0522d'], [600, 800, '#4682b4']] as const) {
      photos.push(await uploadClaimPhoto(service.db, { store: store.store, actor: { kind: 'shopper', orderId: orderId }, mode: 'live' }, photoStore, await photoOf(width, height, background), new Date()));
    }
    const shopperClaim = await fileClaim(
      service.db,
      { store: store.store, actor: { kind: 'shopper', orderId }, mode: 'live' },
      { source_order_id: sourceOrderId, tracking_number: trackingNumber, reason: 'damaged', description: 'The box was crushed and the organiser split.' },
      new Date(),
      { photoIds: photos.map((photo) => photo.id) },
    );
    expect(shopperClaim.channel).toBe('shopper_page');
    // Filed through the API: no photos, and it says so.
    const apiClaim = await api('POST', '/v1/claims', { source_order_id: sourceOrderId, reason: 'other', description: 'Asked by phone.' });
    expect(apiClaim.status).toBe(201);

    const context = await newContext();
    const watched = await watchedPage(context);
    const { page, problems, requests } = watched;
    await inBrowser(
      watched,
      context,
      async () => {
        await logInNewUser(service, page, store, 'viewer');
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Claims' }).click();
        await waitForPath(page, '/console/claims');
        // What each claim covers, in the queue: the shopper's is on the parcel (all of it), the API's on the whole order.
        const covers = (reference: string) => page.locator('tbody tr').filter({ hasText: reference }).locator('td[data-label="Covers"]');
        expect(await covers(shopperClaim.reference).innerText()).toBe(`Parcel ${trackingNumber}`);
        expect(await covers(apiClaim.body.reference as string).innerText()).toBe('Whole order');
        await page.getByRole('link', { name: `Claim ${shopperClaim.reference}` }).click();
        await waitForPath(page, `/console/claims/${shopperClaim.id}`);
        await page.getByRole('heading', { level: 1, name: `Claim on order ${sourceOrderId}` }).waitFor();

        expect(await fact(page, 'Claim', 'Filed on').innerText()).toBe('The claim page');
        // The description, under who wrote it.
        const description = section(page, 'Description');
        expect(await description.locator('.section-card-description').innerText()).toBe('Written by the shopper on the claim page.');
        expect(await description.locator('blockquote').innerText()).toBe('The box was crushed and the organiser split.');
        const history = section(page, 'History').getByRole('listitem');
        expect(await history.first().innerText()).toMatch(/^Open\s+Filed\s+.+ · by the shopper, on the claim page$/);

        // The photos: thumbnails from the console's own route, sized from the data, lazy, each a
        // link to the full image in a new tab, with its size.
        const gallery = section(page, 'Photos');
        await gallery.getByText('2 photos from the shopper.', { exact: false }).waitFor();
        const items = gallery.getByRole('listitem');
        expect(await items.count()).toBe(2);
        for (const [index, photo] of photos.entries()) {
          const path = `/console/api/claims/${shopperClaim.id}/photos/${photo.id}`;
          const img = items.nth(index).getByRole('img', { name: `Photo ${index + 1} of 2 from the shopper` });
          expect(await img.getAttribute('src')).toBe(path);
          expect([await img.getAttribute('width'), await img.getAttribute('height')]).toEqual([String(photo.width), String(photo.height)]);
          expect(await img.getAttribute('loading')).toBe('lazy');
          const link = items.nth(index).getByRole('link', { name: `Photo ${index + 1} of 2 from the shopper (opens in a new tab)` });
          expect([await link.getAttribute('href'), await link.getAttribute('target')]).toEqual([path, '_blank']);
          const size = photo.bytes < 1000 ? `${photo.bytes} bytes` : `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(photo.bytes / 1000)} kB`;
          expect(await items.nth(index).locator('p').innerText()).toBe(`${photo.width} × ${photo.height} pixels, ${size}`);
          await img.scrollIntoViewIfNeeded();
          await expect.poll(() => loaded(page, `img[src="${path}"]`)).toBe(true);
        }
        expect([photos[0]?.width, photos[0]?.height, photos[1]?.width, photos[1]?.height]).toEqual([1200, 900, 600, 800]);
        // Never the merchant API's URL: that one needs the store's key.
        expect(requests.filter((url) => new URL(url).pathname.startsWith('/v1/'))).toEqual([]);
        await checkAtEachSize(page, 'claim-photos', 'a claim with photos from the claim page');

        // The link opens the full JPEG in a new tab, under the session.
        const [tab] = await Promise.all([context.waitForEvent('page'), items.first().getByRole('link').click()]);
        await tab.waitForLoadState('load');
        const opened = tab.url();
        expect(new URL(opened).pathname).toBe(`/console/api/claims/${shopperClaim.id}/photos/${photos[0]?.id}`);
        const full = await page.request.get(opened);
        expect([full.status(), full.headers()['content-type']]).toEqual([200, 'image/jpeg']);
        expect((await sharp(await full.body()).metadata()).width).toBe(1200);
        await tab.close();

        // The claim filed through the API: filed on the API, no photos section.
        await page.goto(`${service.baseUrl}/console/claims/${apiClaim.body.id as string}`);
        await page.getByRole('heading', { level: 1, name: `Claim on order ${sourceOrderId}` }).waitFor();
        expect(await fact(page, 'Claim', 'Filed on').innerText()).toBe('The API');
        expect(await section(page, 'Photos').count()).toBe(0);
        // Written by no shopper: sent with the store's live key, which is named, never shown.
        expect(await section(page, 'Description').locator('.section-card-description').innerText()).toBe(`Sent through the API with the live API key ••••${store.liveKey.slice(-4)}.`);
        expect(await section(page, 'Description').locator('blockquote').innerText()).toBe('Asked by phone.');
        expect(await section(page, "The shopper's description").count()).toBe(0);
        await checkAtEachSize(page, 'claim-by-api', 'a claim filed through the API');
        await waitForIdle(page);
      },
      'console-claim-page-claim-last',
    );
    expect(problems).toEqual([]);
  }, 90_000);
});
