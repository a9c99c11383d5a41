// What the browser tests of the shoppers' claim page (web/claims) need beside the console's support
// (console-browser.ts): a store with its claim page set up, orders and parcels made through the
// merchant API over real HTTP, a parcel the sandbox carrier has delivered, real photos, the lookup
// done as a shopper does it, and checks of what the page shows.
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { setStoreLogo, updateClaimPage } from '../../server/domain/claims/index.js';
import { pollShipment } from '../../server/domain/shipments/index.js';
import { call, orderBody } from './http.js';
import { seedStore, TEST_OPERATOR, type SeededStore, type TestService } from './service.js';
import { actingFor } from '../../server/domain/access/index.js';

export const HOUR_MS = 60 * 60 * 1000;

/** Dates and times the same on every machine: the page writes them in the browser's zone and language. */
export const SHOPPER_CONTEXT = { locale: 'en-US', timezoneId: 'UTC' } as const;

/** The sandbox's script that ends delivered, 50 hours after registration (docs/tracking.md). */
export const DELIVERED_SCRIPT = 'SBXDELIVERED';

export interface ClaimPageSetup {
  accentColor?: string | null;
  supportEmail?: string | null;
  supportUrl?: string | null;
  logo?: boolean;
}

/** A store whose claim page has its own colour, contacts and logo (each can be left out). */
export async function seedShopperStore(service: TestService, setup: ClaimPageSetup = {}): Promise<SeededStore> {
  const store = await seedStore(service.db);
  const { accentColor = '#ffd400', supportEmail = 'help@shop.example', supportUrl = 'https://shop.example/help', logo = true } = setup;
  await updateClaimPage(service.db, actingFor(TEST_OPERATOR, store.store), { accent_color: accentColor, support_email: supportEmail, support_url: supportUrl }, new Date());
  if (logo) await setStoreLogo(service.db, actingFor(TEST_OPERATOR, store.store), await logoPng(), new Date());
  return store;
}

/** A logo: 300×100, a dark blue field with a white band. */
export const logoPng = () =>
  sharp({ create: { width: 300, height: 100, channels: 4, background: '#123a7a' } })
    .composite([{ input: { create: { width: 300, height: 20, channels: 4, background: '#ffffff' } }, top: 40, left: 0 }])
    .png()
    .toBuffer();

/** Photos of a damaged parcel, as a phone makes them. */
export const jpegPhoto = (background = '#c33') => sharp({ create: { width: 800, height: 600, channels: 3, background } }).jpeg().toBuffer();
export const pngPhoto = (background = '#3a7') => sharp({ create: { width: 640, height: 480, channels: 3, background } }).png().toBuffer();

export interface PlacedOrder {
  sourceOrderId: string;
  /** The number the shopper has from the store (source_order_number), which the lookup takes. */
  orderNumber: string;
  email: string;
}

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence += 1)}`;

const merchant = (service: TestService, store: SeededStore, method: string, path: string, body?: unknown) =>
  call(service.baseUrl, method, path, { key: store.liveKey, ...(body === undefined ? {} : { body }) });

/** An order through the merchant API (POST /v1/orders), protected unless told otherwise. */
export async function placeOrder(service: TestService, store: SeededStore, overrides: Record<string, unknown> = {}): Promise<PlacedOrder> {
  const id = unique();
  const email = `shopper-${id}@example.com`;
  const body = orderBody({
    source_order_id: `order-${id}`,
    source_order_number: `#${id.toUpperCase()}`,
    source_created_on: new Date().toISOString(),
    insurance_selected: true,
    subtotal: 173.25,
    customer_details: { first_name: 'Ada', last_name: 'Lovelace', email, phone: '+1 555 0100' },
    line_items: [
      { source_id: 'li_desk', name: 'Walnut desk organiser', price: 62.5, quantity: 2, sku: 'DESK-ORG-W' },
      { source_id: 'li_lamp', name: 'Brass reading lamp', price: 48.25, quantity: 1, sku: 'LAMP-BR' },
    ],
    ...overrides,
  });
  const created = await merchant(service, store, 'POST', '/v1/orders', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { sourceOrderId: body.source_order_id as string, orderNumber: body.source_order_number as string, email };
}

export interface Parcel {
  id: string;
  trackingNumber: string;
  createdOn: Date;
}

/** A shipment of the order through the merchant API (POST /v1/shipments). */
export async function ship(service: TestService, store: SeededStore, sourceOrderId: string, trackingNumber: string, courierId = 'ups'): Promise<Parcel> {
  const created = await merchant(service, store, 'POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: sourceOrderId, courier_id: courierId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id as string, trackingNumber: created.body.tracking_number as string, createdOn: new Date(created.body.created_on as string) };
}

/** One tracking poll as the worker runs it, 51 hours after registration: the sandbox parcel is delivered. */
export async function deliver(service: TestService, parcel: Parcel): Promise<void> {
  const at = new Date(parcel.createdOn.getTime() + 51 * HOUR_MS);
  expect(await pollShipment(service.db, service.provider, service.jobs.scheduler, { shipmentId: parcel.id }, at, new Date(at.getTime() + HOUR_MS))).toBe('stop');
}

/** A claim filed by the store through its API, e.g. while the shopper's form is open. */
export async function fileByApi(service: TestService, store: SeededStore, body: Record<string, unknown>) {
  return merchant(service, store, 'POST', '/v1/claims', body);
}

/** The store's lookup page, loaded. */
export async function openLookup(page: Page, service: TestService, slug: string): Promise<void> {
  await page.goto(`${service.baseUrl}/claims/${slug}`);
  await page.getByRole('heading', { level: 1, name: 'Find your order' }).waitFor();
}

/** Looks the order up as a shopper does, and waits for the order page. */
export async function lookUp(page: Page, order: Pick<PlacedOrder, 'orderNumber' | 'email'>): Promise<void> {
  await page.getByLabel('Order number', { exact: true }).fill(order.orderNumber);
  await page.getByLabel('Email', { exact: true }).fill(order.email);
  await page.getByRole('button', { name: 'Find my order' }).click();
  await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor();
}

/** The 4xx answers a shopper's flow may cause on purpose, as watchedPage writes them. */
export const shopperFailure = (status: number, method: string, below: string) => new RegExp(`^${status} ${method} /shopper/api/stores/[a-z0-9-]+${below}$`);

/** A titled part of a page, by its heading. */
export const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A labelled value of a description list in `scope`. */
export const fact = (scope: Locator, term: string) => scope.locator('dl > div').filter({ has: scope.page().getByRole('term').getByText(term, { exact: true }) }).getByRole('definition');

/** Whether an image has arrived and decoded (a CSP refusal or an error answer leaves it at 0×0). */
export const imageLoaded = (image: Locator) =>
  image.evaluate((element) => {
    // The project's type check has no DOM library: the element is described here.
    const img = element as unknown as { complete: boolean; naturalWidth: number };
    return img.complete && img.naturalWidth > 0;
  });

/** The page is no wider than the screen: nothing to scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
  expect(overflow, `${where} is wider than the screen`).toBeLessThanOrEqual(0);
}

/** What has the keyboard focus: its tag, id, accessible-ish text, and type. */
export const focused = (page: Page) =>
  page.evaluate(`(() => { const e = document.activeElement; return e ? { tag: e.tagName.toLowerCase(), id: e.id, text: (e.textContent || '').trim(), type: e.getAttribute('type'), label: e.labels && e.labels[0] ? e.labels[0].textContent.trim() : null } : null; })()`) as Promise<{
    tag: string;
    id: string;
    text: string;
    type: string | null;
    label: string | null;
  } | null>;

/** Presses Tab until `reached` holds, as a keyboard user would; fails if it never does. */
export async function tabUntil(page: Page, what: string, reached: (element: Awaited<ReturnType<typeof focused>>) => boolean, most = 25): Promise<void> {
  for (let step = 0; step < most; step += 1) {
    await page.keyboard.press('Tab');
    if (reached(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${what} (last: ${JSON.stringify(await focused(page))})`);
}

/** The computed value of a custom property on the document root. */
export const rootProperty = (page: Page, name: string) => page.evaluate(`getComputedStyle(document.documentElement).getPropertyValue(${JSON.stringify(name)}).trim()`) as Promise<string>;

/**
 * Every control a finger aims at is at least 44px tall (links inside running text excepted): the
 * buttons, fields, choice rows, and the links that stand on their own.
 */
export async function expectTouchTargets(page: Page, where: string): Promise<void> {
  const small = (await page.evaluate(`(() => {
    const selector = 'button, a.button, input:not([type=radio]):not([type=checkbox]), textarea, .choice > label, .back-link a, .claim-link, .contact-list a, .tracking-number a, .conflict-link a';
    return [...document.querySelectorAll(selector)]
      .filter((element) => element.getClientRects().length > 0 && !element.closest('.visually-hidden, .skip-link'))
      .map((element) => ({ what: element.outerHTML.slice(0, 80), height: element.getBoundingClientRect().height }))
      .filter((target) => target.height < 43.5);
  })()`)) as Array<{ what: string; height: number }>;
  expect(small, `touch targets under 44px on ${where}`).toEqual([]);
}
