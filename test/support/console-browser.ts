// What every browser test of the merchant console needs: Debian's Chromium (CI must have it), a page
// that records what went wrong in it, axe, a console user with their setup link, and logging in.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { expect } from 'vitest';
import { actingFor, createMerchantUser, type MerchantUserRole } from '../../server/domain/access/index.js';
import { TEST_OPERATOR, type SeededStore, type TestService } from './service.js';


export const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';
/** A developer without Chromium can still run `npm test`; CI cannot skip it (launch() throws there). */
export const skipBrowser = !hasChromium && !inCi;
if (skipBrowser) console.warn(`Skipping the browser tests of /console: ${CHROMIUM} is absent (apt-get install chromium).`);

/** Screenshots go here, to be looked at. */
export const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
mkdirSync(artifacts, { recursive: true });

export const PASSWORD = 'a long and memorable passphrase';

export interface Viewport {
  name: string;
  width: number;
  height: number;
}

export const PHONE: Viewport = { name: 'phone', width: 390, height: 844 };
export const DESKTOP: Viewport = { name: 'desktop', width: 1280, height: 800 };
export const VIEWPORTS: Viewport[] = [PHONE, DESKTOP];

export async function launch(): Promise<Browser> {
  if (!hasChromium) {
    throw new Error(`CI must have Debian's Chromium at ${CHROMIUM} (.ci/run installs it with apt-get install chromium).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A console user of the store, with the setup link the operator would hand over. The link is dated
 * by the service's clock, so it still opens in a test that moved that clock on.
 */
export async function newUser(service: TestService, store: SeededStore, role: MerchantUserRole): Promise<{ email: string; setupPath: string }> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@${store.store.slug}.example`;
  const { setupPath } = await createMerchantUser(service.db, actingFor(TEST_OPERATOR, store.store), { email, role }, service.clock.now());
  return { email, setupPath };
}

/** Failed requests a flow may cause on purpose: the session read while logged out. */
export const SESSION_PROBE = /^401 GET \/console\/api\/session$/;

export interface Watched {
  page: Page;
  /** Errors in the page's console, page errors, failed requests, CSP refusals and unexpected 4xx/5xx. */
  problems: string[];
  /** Every URL the page asked for. */
  requests: string[];
}

const idleWaiters = new WeakMap<Page, () => Promise<void>>();

/**
 * Waits until a watched page has had no request in flight for half a second. A navigation (goto,
 * reload, closing) would abort one, which the watched page reports as a failure. Playwright's
 * 'networkidle' does not do this: it tracks the page's load only, not the fetches the app makes
 * when it moves from page to page inside itself.
 */
export async function waitForIdle(page: Page): Promise<void> {
  const wait = idleWaiters.get(page);
  if (wait === undefined) throw new Error('waitForIdle needs a page made by watchedPage.');
  await wait();
}

function trackRequests(page: Page): () => Promise<void> {
  const pending = new Set<Request>();
  let lastActivity = Date.now();
  const track = (change: () => void) => {
    change();
    lastActivity = Date.now();
  };
  page.on('request', (request) => track(() => pending.add(request)));
  page.on('requestfinished', (request) => track(() => pending.delete(request)));
  page.on('requestfailed', (request) => track(() => pending.delete(request)));
  return async () => {
    await expect.poll(() => pending.size === 0 && Date.now() - lastActivity >= 500, { timeout: 10_000, interval: 100 }).toBe(true);
  };
}

/** A page that records its problems; `expectedFailures` are the 4xx answers the test causes on purpose. */
export async function watchedPage(context: BrowserContext, expectedFailures: RegExp[] = [SESSION_PROBE]): Promise<Watched> {
  const page = await context.newPage();
  idleWaiters.set(page, trackRequests(page));
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every 4xx answer to fetch as an error; the responses below judge those.
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
    problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => requests.push(request.url()));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const line = `${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`;
    if (!expectedFailures.some((expected) => expected.test(line))) problems.push(`HTTP ${line}`);
  });
  // A CSP refusal also reaches the console, but say it plainly (init scripts are not under the CSP).
  // Scripts for the page are strings: the project's type check has no DOM library.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) =>
      console.error('CSP violation: ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline')));`,
  });
  return { page, problems, requests };
}

/** Axe on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const grave = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const described = grave.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(described, `axe on ${where}`).toEqual([]);
}

/** The id of the focused element, through a string: the project's type check has no DOM library. */
export const focusedId = (page: Page) => page.evaluate('document.activeElement && document.activeElement.id') as Promise<string | null>;

/** The text of the focused element (its accessible text, roughly), through a string as above. */
export const focusedText = (page: Page) => page.evaluate('document.activeElement && document.activeElement.textContent') as Promise<string | null>;

/** Waits until the page shows `pathname` (under /console). */
export const waitForPath = (page: Page, pathname: string) => page.waitForURL((url) => url.pathname === pathname, { timeout: 10_000 });

/**
 * A new user of `role` who has chosen a password through the setup link and is logged in, on
 * `page`: the console's home page is showing, its reads done, when this returns (a page loaded
 * while they run would abort them, which watchedPage counts as failed requests).
 */
export async function logInNewUser(service: TestService, page: Page, store: SeededStore, role: MerchantUserRole): Promise<{ email: string }> {
  const user = await newUser(service, store, role);
  await page.goto(`${service.baseUrl}${user.setupPath}`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and log in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  await waitForIdle(page);
  return { email: user.email };
}

/** Runs a browser flow; a failure carries what the browser saw, and the context is closed after. */
export async function inBrowser<T>(watched: Watched, context: BrowserContext, flow: () => Promise<T>, lastShot?: string): Promise<T> {
  try {
    return await flow();
  } catch (error) {
    // A timeout alone says little: tell what the browser saw.
    throw new Error(`${String(error)}\nBrowser problems: ${JSON.stringify(watched.problems, null, 2)}`, { cause: error });
  } finally {
    if (lastShot) await watched.page.screenshot({ path: `${artifacts}${lastShot}.png`, fullPage: true }).catch(() => undefined);
    await context.close();
  }
}

/** The files a built app's index.html loads: its module scripts and stylesheets. */
export function referencedFiles(html: string): { scripts: string[]; styles: string[] } {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1] as string);
  const styles = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((match) => match[1] as string);
  return { scripts, styles };
}

/** A built app's page, as its strict CSP needs it: every script a file, no inline style, nothing from elsewhere. */
export function expectSelfContainedPage(html: string): void {
  expect(html).toContain('<div id="root"></div>');
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  expect(html).not.toMatch(/<style\b/);
  expect(html).not.toMatch(/\sstyle=/);
  expect(html).not.toMatch(/https?:\/\//);
  expect(referencedFiles(html).scripts.length).toBeGreaterThan(0);
}
