// The console's Settings page in Debian's Chromium, over the real server (the Developers page has
// its own file, console-web-developers.test.ts): the settings in the
// order a merchant uses them (claim page, users, integration, pricing) with "On this page"; the integration
// declarations changed by an admin by keyboard (the server's field errors beside their SKU), the
// operator's pricing terms, a viewer's read-only page, and an owner's users: an invitation whose
// setup link is shown once and works, and a user disabled whose session ends. Axe and a
// screenshot of every page and dialog at a phone's and a desktop's size.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../contract/console/index.js';
import { updateStoreDeclarations } from '../server/domain/stores/index.js';
import {
  artifacts,
  DESKTOP,
  expectAccessible,
  focusedId,
  focusedText,
  inBrowser,
  launch,
  logInNewUser,
  PASSWORD,
  PHONE,
  SESSION_PROBE,
  skipBrowser,
  waitForIdle,
  waitForPath,
  watchedPage,
} from './support/console-browser.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, TEST_OPERATOR, type TestService } from './support/service.js';
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

/** The browser's locale and zone are fixed, so the dates the page writes can be worked out here. */
const CONTEXT = { locale: 'en-US', timezoneId: 'UTC' } as const;
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const formatted = (iso: string | Date) => dateTime.format(new Date(iso));

const newContext = async () => {
  const context = await (browser as Browser).newContext({ viewport: { width: DESKTOP.width, height: DESKTOP.height }, ...CONTEXT });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(service.baseUrl).origin });
  return context;
};

/**
 * Axe and a screenshot at each size, then back to the desktop's. Nothing may be wider than a
 * phone's screen. A dialog is shot as the user sees it (its backdrop covers the viewport only).
 */
async function checkAtEachSize(page: Page, area: 'developers' | 'settings', step: string, where: string, fullPage = true): Promise<void> {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await expectAccessible(page, `${where} (${viewport.name})`);
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    expect(overflow, `${where} is wider than the ${viewport.name} screen`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}console-${area}-${step}-${viewport.name}.png`, fullPage });
  }
}

const rowsOf = (page: Page, tableName: string) => page.getByRole('table', { name: tableName }).locator('tbody tr');

/** The settings page's parts, by their headings, top to bottom (the cards, not "On this page"). */
const partHeadings = (page: Page) => page.locator('main section.section-card > header h2').allInnerTexts();

/** "On this page": each link's name and where it leads. */
const onThisPage = (page: Page) =>
  page
    .getByRole('navigation', { name: 'On this page' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute('href')]));
const clipboard = (page: Page) => page.evaluate('navigator.clipboard.readText()') as Promise<string>;


describe.skipIf(skipBrowser)('the settings page', () => {
  it("lets an admin change the declarations by keyboard, with the server's field errors beside their SKU, and shows the operator's terms exactly", async () => {
    // Terms an operator set with the CLI's functions: 275 bps, 1.25 USD minimum, 5,000 USD cap, 365 days.
    const store = await seedStore(service.db, { rateBps: 275, minPremiumCents: 125, maxCoveredCents: 500_000 });
    await updateStoreDeclarations(service.db, actingFor(TEST_OPERATOR, store.store), { protectionSkus: ['GIFT-PROTECT'], personalDataRetentionDays: 365 });
    // A Route plugin's integer order id: refused while the store's profile is standard.
    const routeOrder = () => call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody({ source_order_id: Date.now() }) });
    await service.settled();
    expect((await routeOrder()).status).toBe(400);

    const context = await newContext();
    const watched = await watchedPage(context, [SESSION_PROBE, /^400 PATCH \/console\/api\/settings$/]);
    const { page, problems, requests } = watched;
    const idle = () => waitForIdle(page);
    await inBrowser(
      watched,
      context,
      async () => {
        await logInNewUser(service, page, store, 'admin');
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
        await waitForPath(page, '/console/settings');
        await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
        expect(await page.title()).toBe(`Settings · ${store.store.name} · Merchant console`);

        // The pricing terms, worked out by hand from what was seeded.
        const term = (name: string) => page.locator('dl div').filter({ has: page.getByRole('term').getByText(name, { exact: true }) }).locator('.settings-figure');
        expect(await term('Rate').innerText()).toBe('2.75 %');
        expect(await term('Minimum premium').innerText()).toBe('$1.25');
        expect(await term('Maximum covered').innerText()).toBe('$5,000.00');
        expect(await term('Personal-data retention').innerText()).toBe('365 days');
        // No part explains what is not a setting (price basis is each order's own; docs/console.md says so).
        expect(await page.getByRole('heading', { name: 'Price basis' }).count()).toBe(0);
        expect(await page.getByText('price_basis').count()).toBe(0);

        // The parts in the order a merchant uses them, and "On this page" leading to each.
        await page.getByRole('region', { name: 'Integration', exact: true }).waitFor();
        expect(await partHeadings(page)).toEqual(['Claim page', 'Integration', 'Pricing']);
        expect(await onThisPage(page)).toEqual([
          ['Claim page', '#claim-page'],
          ['Integration', '#integration'],
          ['Pricing', '#pricing'],
        ]);

        // An admin manages no users: no section, and the page never asked for them.
        expect(await page.getByRole('heading', { name: 'Users' }).count()).toBe(0);
        expect(requests.filter((url) => new URL(url).pathname === '/console/api/users')).toEqual([]);

        expect(await page.getByLabel('Protection SKU 1').inputValue()).toBe('GIFT-PROTECT');
        expect(await page.getByRole('radio', { name: 'Backend' }).isChecked()).toBe(true);
        expect(await page.getByRole('radio', { name: 'Standard' }).isChecked()).toBe(true);
        await checkAtEachSize(page, 'settings', 'admin', "an admin's settings page");

        // Add a SKU by keyboard: the new input takes the focus. Saved empty, the server refuses it there.
        await page.getByRole('button', { name: 'Add a SKU' }).focus();
        await page.keyboard.press('Enter');
        const second = page.getByLabel('Protection SKU 2');
        expect(await focusedId(page)).toBe(await second.getAttribute('id'));
        await page.keyboard.press('Enter');
        await page.getByText('Must not be empty.').waitFor();
        expect(await second.getAttribute('aria-invalid')).toBe('true');
        expect(await page.locator(`#${await second.getAttribute('aria-describedby')}`).innerText()).toBe('Must not be empty.');
        expect(await focusedId(page)).toBe(await second.getAttribute('id'));
        await page.getByRole('alert').filter({ hasText: 'The settings could not be saved' }).waitFor();
        await checkAtEachSize(page, 'settings', 'sku-error', 'the settings page with a SKU error');

        // Too long (256 characters): refused, beside the same field.
        await page.keyboard.insertText('X'.repeat(256));
        await page.keyboard.press('Enter');
        await page.getByText('Must be at most 255 characters.').waitFor();
        expect(await page.locator(`#${await second.getAttribute('aria-describedby')}`).innerText()).toBe('Must be at most 255 characters.');
        expect((await service.db.store.findUniqueOrThrow({ where: { id: store.store.id } })).protectionSkus).toEqual(['GIFT-PROTECT']);

        // Fixed, then the two choices by arrow keys, then saved with Enter on the button.
        await page.keyboard.press('Control+A');
        await page.keyboard.type('route-ins');
        await page.keyboard.press('Tab'); // Remove SKU 2
        await page.keyboard.press('Tab'); // Add a SKU
        await page.keyboard.press('Tab');
        expect(await focusedId(page)).toBe(await page.getByRole('radio', { name: 'Backend' }).getAttribute('id'));
        await page.keyboard.press('ArrowDown');
        expect(await page.getByRole('radio', { name: 'Browser' }).isChecked()).toBe(true);
        await page.keyboard.press('Tab');
        expect(await focusedId(page)).toBe(await page.getByRole('radio', { name: 'Standard' }).getAttribute('id'));
        await page.keyboard.press('ArrowDown');
        expect(await page.getByRole('radio', { name: 'Route' }).isChecked()).toBe(true);
        await page.keyboard.press('Tab');
        expect(await focusedText(page)).toBe('Save declarations');
        await page.keyboard.press('Enter');
        await page.getByRole('status').filter({ hasText: 'Declarations saved.' }).waitFor();
        await checkAtEachSize(page, 'settings', 'saved', 'the settings page after a save');

        // The database has them, and the merchant API acts on them: the Route plugin's order is read.
        const saved = await service.db.store.findUniqueOrThrow({ where: { id: store.store.id } });
        expect({ skus: saved.protectionSkus, origin: saved.quoteOrigin, profile: saved.clientProfile }).toEqual({
          skus: ['GIFT-PROTECT', 'route-ins'],
          origin: 'browser',
          profile: 'route',
        });
        await service.settled();
        expect((await routeOrder()).status).toBe(201);

        // A reload reads them back.
        await idle();
        await page.reload();
        expect(await page.getByLabel('Protection SKU 2').inputValue()).toBe('route-ins');
        expect(await page.getByRole('radio', { name: 'Browser' }).isChecked()).toBe(true);
        expect(await page.getByRole('radio', { name: 'Route' }).isChecked()).toBe(true);

        // Removing a SKU by keyboard puts the focus on the one that took its place.
        await page.getByRole('button', { name: 'Remove SKU 1' }).focus();
        await page.keyboard.press('Enter');
        expect(await focusedId(page)).toBe(await page.getByLabel('Protection SKU 1').getAttribute('id'));
        expect(await page.getByLabel('Protection SKU 1').inputValue()).toBe('route-ins');
        await idle();
      },
      'console-settings-admin-last',
    );
    expect(problems).toEqual([]);
  }, 90_000);

  it('shows a viewer the settings read only, with the default terms', async () => {
    const store = await seedStore(service.db);
    const context = await newContext();
    const watched = await watchedPage(context);
    const { page, problems, requests } = watched;
    const idle = () => waitForIdle(page);
    await inBrowser(watched, context, async () => {
      await logInNewUser(service, page, store, 'viewer');
      await idle();
      await page.goto(`${service.baseUrl}/console/settings`);
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      await page.getByText('Your role (viewer) can see the settings but not change them.', { exact: false }).waitFor();
      const term = (name: string) => page.locator('dl div').filter({ has: page.getByRole('term').getByText(name, { exact: true }) }).getByRole('definition');
      await term('Protection SKUs').getByText('None declared: only the built-in SKUs count.').waitFor();
      expect(await term('Quote origin').innerText()).toMatch(/^Backend · Your server or platform asks for quotes\.\n/);
      expect(await term('Client profile').innerText()).toMatch(/^Standard · Requests are read in the documented forms only\.\n/);
      expect(await term('Rate').locator('.settings-figure').innerText()).toBe('1.50 %');
      expect(await term('Minimum premium').locator('.settings-figure').innerText()).toBe('$0.98');
      expect(await term('Maximum covered').locator('.settings-figure').innerText()).toBe('No limit');
      expect(await term('Personal-data retention').locator('.settings-figure').innerText()).toBe('730 days');
      for (const role of ['textbox', 'radio', 'combobox'] as const) expect(await page.getByRole(role).count(), role).toBe(0);
      expect(await page.getByRole('button', { name: /Save|Add|Remove|Invite|Disable/ }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Users' }).count()).toBe(0);
      expect(requests.filter((url) => new URL(url).pathname === '/console/api/users')).toEqual([]);
      expect(await partHeadings(page)).toEqual(['Claim page', 'Integration', 'Pricing']);
      expect((await onThisPage(page)).map(([name]) => name)).toEqual(['Claim page', 'Integration', 'Pricing']);
      await checkAtEachSize(page, 'settings', 'viewer', "a viewer's settings page");
      await idle();
    });
    expect(problems).toEqual([]);
  }, 60_000);

  it('lets an owner invite a user (the link shown once, and working) and disable one, whose session ends at once', async () => {
    const store = await seedStore(service.db);
    const cookieOf = async (context: Awaited<ReturnType<typeof newContext>>) =>
      (await context.cookies(`${service.baseUrl}/console/`)).find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '';
    const sessionWith = (cookie: string) => fetch(`${service.baseUrl}/console/api/session`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });

    // An admin, logged in elsewhere: the user to disable.
    const adminContext = await newContext();
    const adminWatched = await watchedPage(adminContext);
    const adminIdle = () => waitForIdle(adminWatched.page);
    const admin = await inBrowser(adminWatched, adminContext, async () => {
      const { email } = await logInNewUser(service, adminWatched.page, store, 'admin');
      await adminIdle();
      return { email, cookie: await cookieOf(adminContext) };
    });
    expect(adminWatched.problems).toEqual([]);
    expect((await sessionWith(admin.cookie)).status).toBe(200);

    const invitedEmail = `new-teammate-${Date.now()}@${store.store.slug}.example`;
    const context = await newContext();
    const watched = await watchedPage(context, [SESSION_PROBE, /^400 POST \/console\/api\/users$/]);
    const { page, problems } = watched;
    const idle = () => waitForIdle(page);
    let setupUrl = '';
    let ownerEmail = '';
    await inBrowser(
      watched,
      context,
      async () => {
        const owner = await logInNewUser(service, page, store, 'owner');
        ownerEmail = owner.email;
        await idle();
        await page.goto(`${service.baseUrl}/console/settings`);
        await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
        const users = rowsOf(page, "The store's console users, oldest first");
        await users.nth(1).waitFor();
        expect(await users.count()).toBe(2);
        const self = users.filter({ hasText: owner.email });
        for (const text of ['(you)', 'Owner', 'Set', 'Active', 'You cannot disable yourself']) await self.getByText(text, { exact: true }).waitFor();
        expect(await self.getByRole('button').count()).toBe(0);

        // One page in the order an owner uses it: the claim page and its look, the users, then the integration.
        await page.getByRole('region', { name: 'Pricing', exact: true }).waitFor();
        expect(await partHeadings(page)).toEqual(['Claim page', 'Users', 'Integration', 'Pricing']);
        const parts = [
          ['Claim page', '#claim-page'],
          ['Users', '#users'],
          ['Integration', '#integration'],
          ['Pricing', '#pricing'],
        ];
        expect(await onThisPage(page)).toEqual(parts);
        // Each link's target is its part's heading.
        for (const [name, hash] of parts) expect(await page.locator(hash as string).innerText(), name).toBe(name);
        await checkAtEachSize(page, 'settings', 'owner', "an owner's settings page");

        // "On this page" by keyboard: Integration scrolls its part into view and moves the keyboard there.
        await page.evaluate('window.scrollTo(0, 0)');
        const toc = page.getByRole('navigation', { name: 'On this page' });
        await toc.getByRole('link', { name: 'Integration' }).focus();
        await page.keyboard.press('Enter');
        await page.waitForURL((url) => url.pathname === '/console/settings' && url.hash === '#integration');
        await expect.poll(() => page.evaluate('Math.round(document.getElementById("integration").getBoundingClientRect().top)')).toBeLessThan(100);
        expect(await page.evaluate('Math.round(document.getElementById("integration").getBoundingClientRect().top)')).toBeGreaterThanOrEqual(0);
        await page.keyboard.press('Tab');
        // The next stop is inside the Integration part: its first control (no SKU declared yet).
        expect(await focusedText(page)).toBe('Add a SKU');
        await page.screenshot({ path: `${artifacts}console-settings-on-this-page-integration.png` });
        await toc.getByRole('link', { name: 'Users' }).click();
        await page.waitForURL((url) => url.hash === '#users');
        await expect.poll(() => page.evaluate('Math.round(document.getElementById("users").getBoundingClientRect().top)')).toBeLessThan(100);
        await page.evaluate('window.scrollTo(0, 0)');

        // A malformed email: the server's field error, beside the field.
        const email = page.getByLabel('Email');
        await email.fill('not an email');
        await page.getByRole('button', { name: 'Invite user' }).click();
        await page.getByText('Must be an email address.').waitFor();
        expect(await email.getAttribute('aria-invalid')).toBe('true');
        await checkAtEachSize(page, 'settings', 'invite-error', 'the invitation form with its error');

        // Invited by keyboard: the link, shown once, with a copy button.
        await email.focus();
        await page.keyboard.press('Control+A');
        await page.keyboard.type(invitedEmail);
        await page.getByLabel('Role').selectOption('admin');
        await email.focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: `Setup link for ${invitedEmail}` });
        await dialog.waitFor();
        expect(await dialog.innerText()).toContain('will not be shown again');
        // The title names the user; the text does not say it again.
        expect((await dialog.innerText()).split(invitedEmail).length - 1).toBe(1);
        setupUrl = await dialog.getByLabel('Setup link').inputValue();
        expect(setupUrl).toMatch(new RegExp(`^${service.baseUrl.replaceAll('.', '\\.')}/console/setup\\?token=[^&]+$`));
        await dialog.getByRole('button', { name: 'Copy the setup link' }).click();
        await dialog.getByText('Copied to the clipboard.').waitFor();
        expect(await clipboard(page)).toBe(setupUrl);
        await checkAtEachSize(page, 'settings', 'invite-link', 'the setup link dialog', false);
        await dialog.getByRole('button', { name: 'I have copied the link' }).click();
        await dialog.waitFor({ state: 'hidden' });
        const invitedRow = users.filter({ hasText: invitedEmail });
        for (const text of ['Admin', 'Invited', 'Active']) await invitedRow.getByText(text, { exact: true }).waitFor();

        // Shown once: after closing and reloading, the link is nowhere on the page.
        const token = new URL(setupUrl).searchParams.get('token') ?? '';
        expect(token.length).toBeGreaterThan(20);
        expect(await page.content()).not.toContain(token);
        await idle();
        await page.reload();
        await invitedRow.waitFor();
        expect(await page.content()).not.toContain(token);

        // The link works: the invited user chooses a password and is in.
        const invitedContext = await newContext();
        const invitedWatched = await watchedPage(invitedContext);
        const invitedIdle = () => waitForIdle(invitedWatched.page);
        await inBrowser(invitedWatched, invitedContext, async () => {
          await invitedWatched.page.goto(setupUrl);
          await invitedWatched.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
          await invitedWatched.page.getByLabel('Confirm password').fill(PASSWORD);
          await invitedWatched.page.getByRole('button', { name: 'Set password and log in' }).click();
          await invitedWatched.page.getByRole('navigation', { name: 'Console' }).waitFor();
          await invitedWatched.page.getByText(invitedEmail).waitFor();
          await invitedIdle();
        });
        expect(invitedWatched.problems).toEqual([]);
        await idle();
        await page.reload();
        await invitedRow.getByText('Set', { exact: true }).waitFor();

        // Disable the admin, after a confirmation given by keyboard.
        const adminRow = users.filter({ hasText: admin.email });
        await adminRow.getByRole('button', { name: `Disable ${admin.email}` }).click();
        const confirm = page.getByRole('dialog', { name: `Disable ${admin.email}?` });
        await confirm.waitFor();
        expect(await focusedText(page)).toBe('Cancel');
        await checkAtEachSize(page, 'settings', 'disable', 'the disable dialog', false);
        await page.keyboard.press('Tab');
        expect(await focusedText(page)).toBe('Disable user');
        await page.keyboard.press('Enter');
        await confirm.waitFor({ state: 'hidden' });
        await adminRow.getByText('Disabled', { exact: true }).waitFor();
        expect(await adminRow.getByRole('button').count()).toBe(1);
        await adminRow.getByRole('button', { name: `Enable ${admin.email}`, exact: true }).waitFor();
        const disabledAt = (await service.db.merchantUser.findUniqueOrThrow({ where: { email: admin.email } })).disabledAt;
        await adminRow.getByRole('cell').filter({ hasText: 'Disabled' }).getByText(formatted(disabledAt ?? ''), { exact: true }).waitFor();
        await checkAtEachSize(page, 'settings', 'owner-after', "the owner's settings page after an invitation and a disable");
        await idle();
      },
      'console-settings-owner-last',
    );
    expect(problems).toEqual([]);

    // The disabled admin's session is over.
    expect((await sessionWith(admin.cookie)).status).toBe(401);

    // Enabled again (by keyboard), the admin's row is active and they may log in; their old session stays dead.
    const again = await newContext();
    const rewatched = await watchedPage(again, [SESSION_PROBE]);
    await inBrowser(rewatched, again, async () => {
      const { page } = rewatched;
      await page.goto(`${service.baseUrl}/console/login`);
      await page.getByLabel('Email').fill(ownerEmail);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('navigation', { name: 'Console' }).waitFor();
      await waitForIdle(page);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings' }).click();
      const adminRow = page.getByRole('table', { name: "The store's console users, oldest first" }).locator('tbody tr').filter({ hasText: admin.email });
      const enable = adminRow.getByRole('button', { name: `Enable ${admin.email}` });
      await enable.focus();
      await page.keyboard.press('Enter');
      await adminRow.getByText('Active', { exact: true }).waitFor();
      await adminRow.getByRole('button', { name: `Disable ${admin.email}` }).waitFor();
      await expectAccessible(page, 'the users after enabling one');
    });
    expect(rewatched.problems).toEqual([]);
    expect((await service.db.merchantUser.findUniqueOrThrow({ where: { email: admin.email } })).disabledAt).toBeNull();
    expect((await sessionWith(admin.cookie)).status).toBe(401);
  }, 120_000);
});
