// The claim page's lookup and its refusals, in Debian's Chromium at a phone's and a desktop's size,
// over a real server: a wrong email answered as an unknown order number, keeping what was typed; an
// order number found however it is typed ("#ab12" as "AB12 "), and the store's support contact
// after an order is not found (only when the store set one); a session that ends, back to the lookup page saying why; an unknown store; too many lookups (429)
// on a service of its own. Axe on every page, no sideways scrolling, 44px touch targets, and a
// screenshot of each in test-artifacts/claims-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOPPER_SESSION_MINUTES } from '../contract/shopper/index.js';
import { DEFAULT_RATE_LIMITS } from '../server/http/rate-limit.js';
import { asShopper, checkPage, headingFocused, parcelCard, service, shopperWithParcel, startClaimPageService, stopClaimPageService } from './support/claims-web.js';
import { skipBrowser, VIEWPORTS, waitForIdle } from './support/console-browser.js';
import { startService, type TestService } from './support/service.js';
import { focused, lookUp, openLookup, placeOrder, seedShopperStore, shopperFailure } from './support/shopper-browser.js';

beforeAll(startClaimPageService);
afterAll(stopClaimPageService);

describe.skipIf(skipBrowser)('the claim page in Chromium', () => {
  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}x${viewport.height} (${viewport.name})`, () => {
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

      it("finds the order however its number is typed, and offers the store's support contact after one is not found", async () => {
        const { slug, order } = await shopperWithParcel({ delivered: false, trackingNumber: `ZZHELP${Date.now()}` });
        await asShopper(
          viewport,
          [shopperFailure(404, 'POST', '/lookup')],
          async ({ page }) => {
            await openLookup(page, service, slug);
            const help = page.getByRole('heading', { level: 2, name: 'Still cannot find your order?' });
            expect(await help.count()).toBe(0);
            const number = page.getByLabel('Order number', { exact: true });
            const email = page.getByLabel('Email', { exact: true });
            const find = page.getByRole('button', { name: 'Find my order' });

            // Not found: the one answer, then how to reach the store, as its claim page settings say.
            await number.fill(`${order.orderNumber}0`);
            await email.fill(order.email);
            const answered = page.waitForResponse((response) => response.url().endsWith('/lookup'));
            await find.click();
            expect((await answered).status()).toBe(404);
            await help.waitFor();
            const box = page.locator('.lookup-help');
            expect(await box.getByRole('link', { name: 'help@shop.example' }).getAttribute('href')).toBe('mailto:help@shop.example');
            expect(await box.getByRole('link', { name: /help page$/ }).getAttribute('href')).toBe('https://shop.example/help');
            expect(await page.locator('.error-message[role="alert"]').innerText()).toMatch(/^No order matches/);
            await checkPage(page, viewport, 'lookup-support', 'the lookup page with the store\'s support contact after an order was not found');

            // The number as a shopper may type it: no "#", lower case, spaces around it.
            const typed = ` ${order.orderNumber.replace(/^#/, '').toLowerCase()} `;
            expect(typed.trim()).not.toBe(order.orderNumber);
            await number.fill(typed);
            await find.click();
            await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
            await waitForIdle(page);
          },
          'lookup-forgiving',
        );
      }, 60_000);

      it('adds no support contact after an order is not found when the store set none', async () => {
        const { slug, order } = await shopperWithParcel({ delivered: false, trackingNumber: `ZZNOHELP${Date.now()}`, store: { supportEmail: null, supportUrl: null } });
        await asShopper(
          viewport,
          [shopperFailure(404, 'POST', '/lookup')],
          async ({ page }) => {
            await openLookup(page, service, slug);
            await page.getByLabel('Order number', { exact: true }).fill(order.orderNumber);
            await page.getByLabel('Email', { exact: true }).fill('not.me@example.com');
            const answered = page.waitForResponse((response) => response.url().endsWith('/lookup'));
            await page.getByRole('button', { name: 'Find my order' }).click();
            expect((await answered).status()).toBe(404);
            await expect.poll(() => page.locator('.error-message[role="alert"]').innerText()).toMatch(/^No order matches/);
            await waitForIdle(page);
            expect(await page.locator('.lookup-help').count()).toBe(0);
            expect(await page.getByRole('link').filter({ hasText: /help page|@/ }).count()).toBe(0);
          },
          'lookup-no-support',
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
