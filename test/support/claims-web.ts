// The ground the claim page's browser tests share: the test file's own service and Chromium, a
// store whose claim page is set up with an order and its parcel, and the checks each page gets
// (axe, no sideways scrolling, 44px touch targets, a screenshot in test-artifacts/claims-*.png).
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { artifacts, expectAccessible, inBrowser, launch, skipBrowser, waitForIdle, watchedPage, type Viewport, type Watched } from './console-browser.js';
import { startService, type SeededStore, type TestService } from './service.js';
import {
  deliver,
  DELIVERED_SCRIPT,
  expectNoSidewaysScroll,
  expectTouchTargets,
  focused,
  placeOrder,
  region,
  seedShopperStore,
  ship,
  SHOPPER_CONTEXT,
  type Parcel,
  type PlacedOrder,
} from './shopper-browser.js';

export let service: TestService;
export let browser: Browser | undefined;

export async function startClaimPageService(): Promise<void> {
  service = await startService();
  if (!skipBrowser) browser = await launch();
}

export async function stopClaimPageService(): Promise<void> {
  await browser?.close();
  await service?.close();
}

export interface Shopper {
  store: SeededStore;
  slug: string;
  order: PlacedOrder;
  parcel: Parcel;
}

/** A store with its claim page set up, a protected order, and its one parcel (delivered unless told). */
export async function shopperWithParcel(options: { delivered?: boolean; trackingNumber?: string; store?: Parameters<typeof seedShopperStore>[1]; order?: Record<string, unknown> } = {}): Promise<Shopper> {
  const store = await seedShopperStore(service, options.store);
  const order = await placeOrder(service, store, options.order);
  const parcel = await ship(service, store, order.sourceOrderId, options.trackingNumber ?? DELIVERED_SCRIPT);
  if (options.delivered ?? true) await deliver(service, parcel);
  return { store, slug: store.store.slug, order, parcel };
}

export const newShopperContext = (viewport: Viewport) => (browser as Browser).newContext({ viewport: { width: viewport.width, height: viewport.height }, ...SHOPPER_CONTEXT });

/** Axe, no sideways scrolling, and a screenshot of the whole page. */
export async function checkPage(page: Page, viewport: Viewport, step: string, where: string): Promise<void> {
  await waitForIdle(page);
  await expectAccessible(page, `${where} (${viewport.name})`);
  await expectNoSidewaysScroll(page, `${where} (${viewport.name})`);
  await expectTouchTargets(page, `${where} (${viewport.name})`);
  await page.screenshot({ path: `${artifacts}claims-${viewport.name}-${step}.png`, fullPage: true });
}

/** The claim form's parcel card on the order page. */
export const parcelCard = (page: Page) => region(page, 'Your parcels').getByRole('article').first();

/** Whether the keyboard focus is on the page's h1. */
export const headingFocused = async (page: Page) => (await focused(page))?.tag === 'h1';

/** The reason choices of the claim form. */
export const reasons = (page: Page) => page.getByRole('group', { name: 'What happened?' });

/** The text that explains a reason's window, through the radio's aria-describedby. */
export async function explanationOf(page: Page, choice: string): Promise<string> {
  const describedBy = await reasons(page).getByRole('radio', { name: choice, exact: true }).getAttribute('aria-describedby');
  expect(describedBy, `${choice} is described`).toBeTruthy();
  const texts = await Promise.all((describedBy as string).split(' ').map((id) => page.locator(`[id="${id}"]`).innerText()));
  return texts.join(' ');
}

export const errorSummary = (page: Page) => page.getByRole('region', { name: /^There (is a problem|are \d+ problems)$/ });
export const summaryFocused = (page: Page) => page.evaluate('document.activeElement !== null && document.activeElement.classList.contains("error-summary")') as Promise<boolean>;

/** Runs a shopper's flow in its own context; a failure carries what the browser saw. */
export async function asShopper(viewport: Viewport, expectedFailures: RegExp[], flow: (watched: Watched) => Promise<void>, lastShot: string): Promise<void> {
  const context = await newShopperContext(viewport);
  const watched = await watchedPage(context, expectedFailures);
  await inBrowser(watched, context, () => flow(watched), `claims-${viewport.name}-${lastShot}-last`);
  expect(watched.problems).toEqual([]);
}
