// GET /docs: the Redoc reference page, served whole from this service under a strict CSP. The
// browser test drives Debian's Chromium (`apt-get install chromium`; .ci/run installs it).
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
// A developer without Chromium can still run `npm test`; CI cannot skip it (see the test body).
const skipBrowser = !hasChromium && !inCi;
const artifacts = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service.close());

describe('GET /docs over HTTP', () => {
  it('answers the HTML page that loads the local Redoc bundle, under a CSP', async () => {
    const response = await fetch(`${service.baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<title>Order Protection API reference</title>');
    expect(html).toMatch(/<script src="\/docs\/redoc\.standalone\.js(\?v=[\w.-]+)?"><\/script>/);
    expect(html).toContain('<script src="/docs/init.js"></script>');
    expect(html).not.toMatch(/<script>/); // no inline script
    expect(html).not.toMatch(/https?:\/\//); // nothing from elsewhere

    const csp = response.headers.get('content-security-policy');
    expect(csp).toBeTruthy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-'); // neither 'unsafe-inline' nor 'unsafe-eval'
  });

  it('serves the Redoc bundle as long-cached JavaScript and init.js', async () => {
    const bundle = await fetch(`${service.baseUrl}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(bundle.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect(bundle.headers.get('content-security-policy')).toBeTruthy();
    const code = await bundle.text();
    expect(code.length).toBeGreaterThan(500_000);
    expect(code).not.toContain('cdn.redoc.ly'); // Redocly's logo, replaced

    const init = await fetch(`${service.baseUrl}/docs/init.js`);
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(await init.text()).toMatch(/Redoc\.init\(\s*'\/openapi\.json'/);
  });

  it('answers 405 to another method on /docs', async () => {
    const post = await fetch(`${service.baseUrl}/docs`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('GET /docs in Chromium', () => {
  if (skipBrowser) console.warn(`Skipping the browser test of GET /docs: ${CHROMIUM} is absent (apt-get install chromium).`);
  let browser: Browser | undefined;
  afterAll(async () => browser?.close());

  it.skipIf(skipBrowser)(
    skipBrowser
      ? `renders the reference (skipped: ${CHROMIUM} is absent; apt-get install chromium to run it)`
      : 'renders the reference with every operation, no console error and no request elsewhere',
    async () => {
      if (!hasChromium) {
        throw new Error(`CI must have Debian's Chromium at ${CHROMIUM} (.ci/run installs it with apt-get install chromium).`);
      }
      const openapi = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { summary?: string }>>;
      };
      const summaries = Object.values(openapi.paths).flatMap((methods) =>
        Object.values(methods).flatMap((operation) => (operation.summary ? [operation.summary] : [])),
      );
      expect(summaries).toEqual(expect.arrayContaining(['Create a quote', 'Create an order', 'Verify an address', 'Receive a platform message']));

      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const origin = new URL(service.baseUrl).origin;
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => requests.push(request.url()));
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      // A CSP refusal also reaches the console, but say it plainly (init scripts are not under the CSP).
      // Scripts for the page are strings: the project's type check has no DOM library.
      await page.addInitScript({
        content: `document.addEventListener('securitypolicyviolation', (event) =>
          console.error('CSP violation: ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline')));`,
      });

      const started = Date.now();
      try {
        const response = await page.goto(`${service.baseUrl}/docs`, { waitUntil: 'load' });
        expect(response?.status()).toBe(200);
        // Locators, not waitForFunction: its polling evaluates strings in the page, which the CSP refuses.
        for (const summary of summaries) {
          const heading = page.locator('h2').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(summary)}\\s*$`) });
          await heading.first().waitFor({ state: 'visible', timeout: 30_000 });
        }
        await page.waitForLoadState('networkidle');
        const text = await page.locator('body').innerText();
        for (const summary of summaries) expect(text, summary).toContain(summary);
        expect(await page.title()).toBe('Order Protection API reference');

        // The platform webhook's body (a oneOf of three named messages with a discriminator) renders
        // whole: its fields, the event chooser, and a sample payload. It used to render empty.
        const webhook = page.locator('[data-section-id="operation/webhooks.receive"]');
        await webhook.scrollIntoViewIfNeeded();
        await webhook.getByText('Slug of the store the message is for.').first().waitFor({ state: 'visible', timeout: 10_000 });
        const webhookText = await webhook.innerText();
        for (const shown of ['merchant', 'event', 'order', 'order.placed', 'protection_cents', 'wc-5001']) expect(webhookText, shown).toContain(shown);
        await webhook.screenshot({ path: `${artifacts}docs-webhook-body.png` });

        // The search index runs in Redoc's blob: worker, so searching proves the worker runs under the CSP.
        const search = page.getByPlaceholder('Search...');
        await search.fill('address');
        await page.locator('[data-role="search:results"]').getByText('Verify an address').first().waitFor({ timeout: 10_000 });
        await search.fill('');
      } catch (error) {
        // A timeout alone says little: tell what the browser saw.
        throw new Error(`${String(error)}\nBrowser problems: ${JSON.stringify(problems, null, 2)}`, { cause: error });
      } finally {
        mkdirSync(artifacts, { recursive: true });
        await page.screenshot({ path: `${artifacts}docs-page.png` });
      }
      console.info(`docs page rendered and searched in ${Date.now() - started} ms`);

      expect(problems).toEqual([]);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    },
    60_000,
  );
});
