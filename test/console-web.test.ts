// GET /console: the merchant console's web app (web/console), served whole from this service under
// a strict CSP. Over HTTP: the page, its headers and its files. In Debian's Chromium, at a phone's
// and a desktop's size: a setup link, logging out and in (by keyboard too), a key named and
// created, shown once, used on the API and revoked, a viewer's read-only page, a used or expired
// setup link (a page that says so and leads to the login, no form), and axe on every page visited.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../contract/console/index.js';
import { consoleApp } from '../server/http/web-app.js';
import { artifacts, expectAccessible, expectSelfContainedPage, referencedFiles, focusedId, launch, newUser as newUserOf, PASSWORD, SESSION_PROBE, skipBrowser, VIEWPORTS, watchedPage } from './support/console-browser.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';
import type { MerchantUserRole } from '../server/domain/access/index.js';

/** The first load's JavaScript, gzipped, may not exceed this. */
const FIRST_LOAD_JS_BUDGET_BYTES = 300 * 1024;

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

describe('GET /console over HTTP', () => {
  it('answers the app at /console and at any of its paths, under a strict CSP, with no inline script or style', async () => {
    for (const path of ['/console', '/console/', '/console/login', '/console/keys', '/console/setup?token=abc', '/console/no/such/page']) {
      const response = await fetch(`${service.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      const csp = response.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ]) {
        expect(csp, `${path}: ${directive}`).toContain(directive);
      }
      expect(csp, path).not.toContain('unsafe-');

      const html = await response.text();
      expectSelfContainedPage(html);
    }
  });

  it('serves the built files long-cached, with the first load under its JavaScript budget', async () => {
    const html = await (await fetch(`${service.baseUrl}/console`)).text();
    const { scripts, styles } = referencedFiles(html);
    expect(styles.length).toBeGreaterThan(0);
    let gzippedJs = 0;
    for (const file of [...scripts, ...styles]) {
      expect(file).toMatch(/^\/console\/assets\/[\w.-]+-[\w-]{8}\.(js|css)$/); // content-hashed names
      const response = await fetch(`${service.baseUrl}${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type'), file).toMatch(file.endsWith('.js') ? /^(application|text)\/javascript/ : /^text\/css/);
      const body = Buffer.from(await response.arrayBuffer());
      if (file.endsWith('.js')) gzippedJs += gzipSync(body, { level: 9 }).length;
    }
    // Module preloads are part of the first load too.
    for (const [, file] of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) {
      gzippedJs += gzipSync(Buffer.from(await (await fetch(`${service.baseUrl}${file as string}`)).arrayBuffer()), { level: 9 }).length;
    }
    console.info(`console first load: ${(gzippedJs / 1024).toFixed(1)} KB of gzipped JavaScript`);
    expect(gzippedJs).toBeLessThan(FIRST_LOAD_JS_BUDGET_BYTES);
  });

  it('leaves /console/api to the API, and answers 404 for a file no build made', async () => {
    const session = await fetch(`${service.baseUrl}/console/api/session`);
    expect(session.status).toBe(401);
    expect(session.headers.get('content-type')).toMatch(/^application\/json/);
    const unknownApi = await fetch(`${service.baseUrl}/console/api/nothing-here`);
    expect(unknownApi.status).toBe(404);
    expect(await unknownApi.json()).toMatchObject({ error_code: 'not_found' });

    // The app's pages are read only; any other method is 405, naming what is allowed.
    for (const path of ['/console', '/console/keys']) {
      const posted = await fetch(`${service.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(posted.status, path).toBe(405);
      expect(posted.headers.get('allow'), path).toBe('GET, HEAD');
      expect(await posted.json(), path).toMatchObject({ error_code: 'method_not_allowed', errors: [] });
    }

    const missing = await fetch(`${service.baseUrl}/console/assets/missing-00000000.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error_code: 'not_found' });
  });

  it('answers 503 in the error format, naming the build command, when the app is not built', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'op-console-dist-'));
    const app = express();
    app.use(consoleApp({ distDir: join(emptyDir, 'dist') }));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ['/console', '/console/keys', '/console/assets/index-00000000.js']) {
        const response = await fetch(`${base}${path}`);
        expect(response.status, path).toBe(503);
        const body = (await response.json()) as { error: string; error_code: string; errors: unknown[] };
        expect(body, path).toMatchObject({ error_code: 'internal_error', errors: [] });
        expect(body.error, path).toContain('npm run build:web');
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });
});

const newUser = (store: SeededStore, role: MerchantUserRole) => newUserOf(service, store, role);

/** Failed requests the flow causes on purpose: the session read while logged out, and a wrong password. */
const EXPECTED_FAILURES = [SESSION_PROBE, /^401 POST \/console\/api\/session$/];

describe('the console in Chromium', () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!skipBrowser) browser = await launch();
  });
  afterAll(async () => browser?.close());

  for (const viewport of VIEWPORTS) {
    it.skipIf(skipBrowser)(
      `at ${viewport.width}x${viewport.height} (${viewport.name}): setup link, log out and in, a key created once, used and revoked`,
      async () => {
        const store = await seedStore(service.db);
        const owner = await newUser(store, 'owner');
        const origin = new URL(service.baseUrl).origin;
        const context = await (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height } });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
        const { page, problems, requests } = await watchedPage(context, EXPECTED_FAILURES);
        // A modal's backdrop covers the viewport only: a dialog is shot as the user sees it.
        const shot = (step: string, fullPage = true) => page.screenshot({ path: `${artifacts}console-${viewport.name}-${step}.png`, fullPage });
        const at = (path: string) => page.waitForURL((url) => url.pathname === path, { timeout: 10_000 });

        try {
          // Logged out, every page leads to the login page.
          for (const path of ['/console/keys', '/console']) {
            await page.goto(`${service.baseUrl}${path}`);
            await at('/console/login');
            await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
          }

          // The setup link: the contract's password rule first, then a password, and the user is in.
          await page.goto(`${service.baseUrl}${owner.setupPath}`);
          await page.getByRole('heading', { level: 1, name: 'Choose your password' }).waitFor();
          await expectAccessible(page, 'the setup page');
          await shot('setup');
          await page.getByLabel('Password', { exact: true }).fill('too short');
          await page.getByLabel('Confirm password').fill('not the same');
          await page.getByRole('button', { name: 'Set password and log in' }).click();
          await page.getByText('Must be at least 12 characters.').waitFor();
          await page.getByText('The two passwords are not the same.').waitFor();
          await expectAccessible(page, 'the setup page with its errors');
          await shot('setup-errors');
          await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
          await page.getByLabel('Confirm password').fill(PASSWORD);
          await page.getByRole('button', { name: 'Set password and log in' }).click();
          // The console's home is the overview; the keys are a link away.
          await at('/console/overview');
          await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
          await page.getByText(store.store.name, { exact: true }).waitFor();
          await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
          await at('/console/keys');
          await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
          await page.locator('tbody tr').first().waitFor(); // the store's seeded keys
          await expectAccessible(page, 'the API keys page');
          await shot('keys');

          // Log out, then a wrong password, then in by keyboard alone through the labelled fields.
          await page.getByRole('button', { name: 'Log out' }).click();
          await at('/console/login');
          await page.getByLabel('Email').fill(owner.email);
          await page.getByLabel('Password').fill('not the password at all');
          await page.getByRole('button', { name: 'Log in' }).click();
          await page.getByRole('alert').filter({ hasText: 'Email or password is incorrect.' }).waitFor();
          await expectAccessible(page, 'the login page with its error');
          await shot('login-error');

          await page.goto(`${service.baseUrl}/console/login`);
          await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
          await expectAccessible(page, 'the login page');
          await shot('login');
          const emailField = page.getByLabel('Email');
          const passwordField = page.getByLabel('Password');
          await page.keyboard.press('Tab');
          expect(await focusedId(page)).toBe(await emailField.getAttribute('id'));
          await page.keyboard.type(owner.email);
          await page.keyboard.press('Tab');
          expect(await focusedId(page)).toBe(await passwordField.getAttribute('id'));
          await page.keyboard.type(PASSWORD);
          await page.keyboard.press('Enter');
          await at('/console/overview');
          await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
          await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
          await at('/console/keys');
          await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();

          // A name the contract refuses is named beside the field, and nothing is created.
          const form = page.getByRole('form', { name: 'Create a key' });
          const nameField = form.getByLabel('Name');
          expect(await nameField.getAttribute('maxlength')).toBe('100');
          await nameField.fill('Bell\u0007server');
          await form.getByRole('button', { name: 'Create live key' }).click();
          await form.getByText('Must not contain control characters', { exact: false }).waitFor();
          expect(await nameField.getAttribute('aria-invalid')).toBe('true');
          await expectAccessible(page, 'the API keys page with a bad name');
          await shot('key-name-error');

          // A named live key: its secret shown once, with a copy button and the warning.
          await nameField.fill('  Production server ');
          await form.getByRole('button', { name: 'Create live key' }).click();
          const created = page.getByRole('dialog', { name: 'Your new live key' });
          await created.waitFor();
          expect(await created.innerText()).toContain('It will not be shown again');
          await created.getByText('Named “Production server”.').waitFor();
          const secret = await created.getByLabel('Secret key').inputValue();
          expect(secret).toMatch(/^ak_live_\w+$/);
          await created.getByRole('button', { name: 'Copy' }).click();
          await created.getByText('Copied to the clipboard.').waitFor();
          expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
          await expectAccessible(page, 'the new key dialog');
          await shot('key-created', false);

          // The key works on the merchant API: 404 for an unknown order, not 401.
          await service.settled();
          const used = await fetch(`${service.baseUrl}/v2/orders/nope`, { headers: { authorization: `Bearer ${secret}` } });
          expect(used.status).toBe(404);

          await created.getByRole('button', { name: 'I have saved the key' }).click();
          await created.waitFor({ state: 'hidden' });
          const masked = `••••${secret.slice(-4)}`;
          const row = page.locator('tbody tr').filter({ hasText: masked });
          await row.getByText('Active').waitFor();
          // The list names it; the field is empty for the next key; the seeded keys have no name.
          await row.getByText('Production server', { exact: true }).waitFor();
          expect(await nameField.inputValue()).toBe('');
          await page.locator('tbody tr').filter({ hasText: `••••${store.liveKey.slice(-4)}` }).getByText('No name').waitFor();
          await shot('keys-named');

          // Shown once: after a reload it is nowhere on the page.
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
          await row.waitFor();
          expect(await page.content()).not.toContain(secret);
          expect(await page.locator('body').innerText()).not.toContain(secret);

          // Revoke, after a confirmation; the API refuses the key at once.
          await page.getByRole('button', { name: `Revoke live key "Production server" ${masked}` }).click();
          const confirm = page.getByRole('dialog', { name: `Revoke the live key "Production server" ${masked}?` });
          await confirm.waitFor();
          await expectAccessible(page, 'the revoke dialog');
          await shot('revoke', false);
          await confirm.getByRole('button', { name: 'Revoke key' }).click();
          await confirm.waitFor({ state: 'hidden' });
          await row.getByText('Revoked').waitFor();
          await expectAccessible(page, 'the API keys page after a revocation');
          await shot('keys-revoked');
          await service.settled();
          const refused = await fetch(`${service.baseUrl}/v2/orders/nope`, { headers: { authorization: `Bearer ${secret}` } });
          expect(refused.status).toBe(401);

          // Logging out ends the session on the server: the old cookie opens nothing.
          const cookie = (await context.cookies(`${service.baseUrl}/console/`)).find((item) => item.name === SESSION_COOKIE);
          expect(cookie?.httpOnly).toBe(true);
          await page.getByRole('button', { name: 'Log out' }).click();
          await at('/console/login');
          const after = await fetch(`${service.baseUrl}/console/api/session`, { headers: { cookie: `${SESSION_COOKIE}=${cookie?.value ?? ''}` } });
          expect(after.status).toBe(401);
        } catch (error) {
          // A timeout alone says little: tell what the browser saw.
          throw new Error(`${String(error)}\nBrowser problems: ${JSON.stringify(problems, null, 2)}`, { cause: error });
        } finally {
          await shot('last');
          await context.close();
        }

        expect(problems).toEqual([]);
        expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      },
      120_000,
    );
  }

  it.skipIf(skipBrowser)(
    'shows a viewer the keys without a button to create or revoke one; a spent setup link says so',
    async () => {
      const store = await seedStore(service.db);
      const viewer = await newUser(store, 'viewer');
      const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
      const { page, problems } = await watchedPage(context, EXPECTED_FAILURES);
      try {
        await page.goto(`${service.baseUrl}${viewer.setupPath}`);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByLabel('Confirm password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Set password and log in' }).click();
        await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
        await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
        await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
        await page.getByText(`••••${store.liveKey.slice(-4)}`).waitFor();
        await page.getByText('Your role (viewer) can see the keys but not create or revoke them.', { exact: false }).waitFor();
        expect(await page.getByRole('button', { name: /^Create/ }).count()).toBe(0);
        expect(await page.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
        await expectAccessible(page, 'the API keys page of a viewer');
        await page.screenshot({ path: `${artifacts}console-desktop-viewer.png`, fullPage: true });

      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);

      // The link is spent: opened again (in another browser, logged out), the page says so before
      // any form, and leads to the login page.
      const later = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
      const again = await watchedPage(later, [...EXPECTED_FAILURES, /^404 POST \/console\/api\/setup\/check$/]);
      try {
        await again.page.goto(`${service.baseUrl}${viewer.setupPath}`);
        await spentLinkPage(again.page, 'used');
        const login = again.page.getByRole('link', { name: 'Go to the login page' });
        expect(await login.getAttribute('href')).toBe('/console/login');
        await login.click();
        await again.page.waitForURL((url) => url.pathname === '/console/login');
        await again.page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      } finally {
        await later.close();
      }
      expect(again.problems).toEqual([]);
    },
    60_000,
  );

  it.skipIf(skipBrowser)(
    'shows an expired setup link as expired, with the way to the login page, at each size',
    async () => {
      const store = await seedStore(service.db);
      const invited = await newUser(store, 'admin');
      const user = await service.db.merchantUser.findUniqueOrThrow({ where: { email: invited.email } });
      await service.db.userSetupToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(service.clock.now().getTime() - 60_000) } });
      for (const viewport of VIEWPORTS) {
        const context = await (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height } });
        const { page, problems } = await watchedPage(context, [...EXPECTED_FAILURES, /^404 POST \/console\/api\/setup\/check$/]);
        try {
          await page.goto(`${service.baseUrl}${invited.setupPath}`);
          await spentLinkPage(page, `expired-${viewport.name}`);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
        } finally {
          await context.close();
        }
        expect(problems).toEqual([]);
      }
      // Asking spent nothing: the link is still unused (only expired).
      expect((await service.db.userSetupToken.findFirstOrThrow({ where: { userId: user.id } })).usedAt).toBeNull();
    },
    60_000,
  );
});

/** The page of a setup link that no longer works: it says so, offers the login, and no password form. */
async function spentLinkPage(page: Page, step: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'This setup link was already used or has expired.' }).waitFor();
  expect(await page.title()).toBe('Setup link used or expired · Merchant console');
  expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Set password and log in' }).count()).toBe(0);
  await page.getByRole('link', { name: 'Go to the login page' }).waitFor();
  // One sentence about the link, not two: the server's own wording is not added to it.
  expect(await page.locator('main').innerText()).not.toContain('unknown, used or expired');
  await expectAccessible(page, `the page of a spent setup link (${step})`);
  await page.screenshot({ path: `${artifacts}console-setup-spent-${step}.png`, fullPage: true });
}
