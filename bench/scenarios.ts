// What the benchmark measures (bench/run.ts): the server's scenarios, one per endpoint class, and
// the baselines each is compared with (a bare Express echo, one pg INSERT of an order-shaped row,
// one indexed SELECT of such a row), as requests for bench/measurement.ts to drive. Each request
// that needs a fresh id, body or signature gets it in `setup`; what the server confirmed it created
// is remembered in Counters for the reads and the shipments that follow.
import { signWebhook } from '../contract/webhook-signature.js';
import type { AutocannonRequest, Scenario } from './measurement.js';
import { fulfillmentCreatedMessage, orderPlacedMessage, orderRequest, refundCreatedMessage, upsTrackingNumber } from './requests.js';
import { PLATFORM_SECRET, PLATFORM_SLUG, type Seeded } from './seed.js';

export interface Counters {
  orders: number;
  shipments: number;
  addresses: number;
  webhooks: number;
  fulfillments: number;
  refunds: number;
  inserts: number;
  /** What the server confirmed it created (201), for the reads and the shipments. */
  createdOrders: string[];
  createdShipments: string[];
  createdInserts: string[];
  /** The orders a platform's order.placed messages created, for its fulfilments and refunds. */
  pushedOrders: string[];
}

export const newCounters = (): Counters => ({
  orders: 0,
  shipments: 0,
  addresses: 0,
  webhooks: 0,
  fulfillments: 0,
  refunds: 0,
  inserts: 0,
  createdOrders: [],
  createdShipments: [],
  createdInserts: [],
  pushedOrders: [],
});

const pick = (values: readonly string[]): string => {
  if (values.length === 0) throw new Error('nothing created to read');
  return values[Math.floor(Math.random() * values.length)] as string;
};

/** The value of a top-level string field of a JSON answer, without parsing all of it. */
function fieldOf(body: string, field: string): string | undefined {
  const match = new RegExp(`"${field}":"([^"]+)"`).exec(body);
  return match?.[1];
}

/**
 * The server's scenarios, in the order they run; their names are what BENCH_ONLY takes. Order read
 * and the shipments need orders, so order create always runs, briefly when not wanted (bench/run.ts).
 */
export function serverScenarios(seeded: Seeded, counters: Counters, runId: string): Scenario[] {
  const auth = { token: seeded.liveKey };
  const consoleAuth = { cookie: seeded.consoleCookie };
  const json = { 'content-type': 'application/json' };
  const orderId = (n: number) => `bench-${runId}-${n}`;
  const shipmentPrefix = runId.slice(0, 6).toUpperCase().replace(/[^A-Z0-9]/g, '0');
  return [
    {
      name: 'quote_create',
      baseline: 'insert',
      method: 'POST',
      path: '/v2/quotes',
      headers: { ...auth, ...json },
      body: JSON.stringify({ cart: { covered: { amount: '125.00', currency: 'USD' }, cart_ref: 'cart-1001' } }),
    },
    {
      name: 'order_create',
      baseline: 'insert',
      method: 'POST',
      path: '/v2/orders',
      headers: { ...auth, ...json },
      setup: (req) => {
        counters.orders += 1;
        return { ...req, body: JSON.stringify(orderRequest(orderId(counters.orders), seeded.quoteId)) };
      },
      onResponse: (status, body) => {
        const id = status === 201 ? fieldOf(body, 'source_order_id') : undefined;
        if (id !== undefined) counters.createdOrders.push(id);
      },
    },
    {
      name: 'order_read',
      baseline: 'insert',
      method: 'GET',
      path: '/v2/orders/x',
      headers: auth,
      setup: (req) => ({ ...req, path: `/v2/orders/${pick(counters.createdOrders)}` }),
    },
    {
      name: 'shipment_create',
      baseline: 'insert',
      method: 'POST',
      path: '/v1/shipments',
      headers: { ...auth, ...json },
      setup: (req) => {
        counters.shipments += 1;
        const n = counters.shipments;
        // Spread over the orders created above, several shipments each.
        const orders = counters.createdOrders;
        const body = { tracking_number: upsTrackingNumber(shipmentPrefix, n), source_order_id: orders[n % orders.length] };
        return { ...req, body: JSON.stringify(body) };
      },
      onResponse: (status, body) => {
        const trackingNumber = status === 201 ? fieldOf(body, 'tracking_number') : undefined;
        if (trackingNumber !== undefined) counters.createdShipments.push(trackingNumber);
      },
    },
    {
      name: 'shipment_read',
      baseline: 'insert',
      method: 'GET',
      path: '/v1/shipments/x',
      headers: auth,
      setup: (req) => ({ ...req, path: `/v1/shipments/${pick(counters.createdShipments)}` }),
    },
    // The merchant console's reads, by session cookie: the overview (the month's ledger and 90 days of
    // it), an order search by the shopper's email (every bench order has the same one: a shopper
    // with many orders, the first page of 25), and the order page (order, ledger, shipments, claims).
    {
      name: 'console_overview_read',
      baseline: 'insert',
      method: 'GET',
      path: '/console/api/overview',
      headers: consoleAuth,
    },
    {
      name: 'console_order_search_read',
      baseline: 'insert',
      method: 'GET',
      path: `/console/api/orders?q=${encodeURIComponent('ada@example.com')}`,
      headers: consoleAuth,
    },
    {
      name: 'console_order_page_read',
      baseline: 'insert',
      method: 'GET',
      path: '/console/api/orders/x',
      headers: consoleAuth,
      setup: (req) => ({ ...req, path: `/console/api/orders/${encodeURIComponent(pick(counters.createdOrders))}` }),
    },
    {
      name: 'address_verify_offline',
      baseline: 'echo',
      method: 'POST',
      path: '/v2/addresses/verify',
      headers: { ...auth, ...json },
      setup: (req) => {
        counters.addresses += 1;
        // Another house number each time, as a stream of shoppers would send.
        const address = { street_address1: `${counters.addresses} Amphitheatre Pkwy`, city: 'Mountain View', province: 'CA', zip: '94043' };
        return { ...req, body: JSON.stringify({ address }) };
      },
    },
    platformScenario(
      'webhook_order_placed',
      () => {
        counters.webhooks += 1;
        return orderPlacedMessage(seeded.store.slug, `push-${runId}-${counters.webhooks}`, counters.webhooks);
      },
      (status, body) => {
        const id = status === 200 || status === 201 ? fieldOf(body, 'order_id') : undefined;
        if (id !== undefined) counters.pushedOrders.push(id);
      },
    ),
    // A fulfilment burst: each message brings one new tracking number for one of the pushed orders.
    platformScenario('webhook_fulfillment_created', () => {
      counters.fulfillments += 1;
      const n = counters.fulfillments;
      return fulfillmentCreatedMessage(seeded.store.slug, pushedOrder(counters, n), `ful-${runId}-${n}`, upsTrackingNumber(`F${shipmentPrefix.slice(1)}`, n));
    }),
    // Refunds of the protection line, one per pushed order (past those, a refund reverses nothing more).
    platformScenario('webhook_refund_created', () => {
      counters.refunds += 1;
      const n = counters.refunds;
      return refundCreatedMessage(seeded.store.slug, pushedOrder(counters, n), `ref-${runId}-${n}`);
    }),
  ];
}

/** A platform's message, a new one for each request (`nextMessage`), signed as the platform signs it. */
function platformScenario(name: string, nextMessage: () => unknown, onResponse?: Scenario['onResponse']): Scenario {
  return {
    name,
    baseline: 'insert',
    method: 'POST',
    path: `/api/webhooks/${PLATFORM_SLUG}`,
    headers: { 'content-type': 'application/json' },
    setup: (req) => signed(req, nextMessage()),
    ...(onResponse === undefined ? {} : { onResponse }),
  };
}

/** The n-th pushed order, round and round. */
function pushedOrder(counters: Counters, n: number): string {
  const orders = counters.pushedOrders;
  if (orders.length === 0) throw new Error('no pushed order to fulfil or refund: webhook_order_placed runs first');
  return orders[n % orders.length] as string;
}

/** A platform message, signed as the platform signs it. */
function signed(req: AutocannonRequest, message: unknown): AutocannonRequest {
  const raw = JSON.stringify(message);
  return { ...req, body: raw, headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(PLATFORM_SECRET, raw) } };
}

/** The baselines: echo and insert, which the scenarios' ratios are taken against, and select, a reference for the reads. */
export function baselineScenarios(storeId: string, counters: Counters, runId: string): { echo: Scenario; insert: Scenario; select: Scenario } {
  const json = { 'content-type': 'application/json' };
  return {
    echo: {
      name: 'baseline_echo',
      baseline: null,
      method: 'POST',
      path: '/echo',
      headers: json,
      body: JSON.stringify(orderRequest('echo-1', undefined)),
    },
    insert: {
      name: 'baseline_insert',
      baseline: null,
      method: 'POST',
      path: '/insert',
      headers: json,
      setup: (req) => {
        counters.inserts += 1;
        return { ...req, body: JSON.stringify({ store_id: storeId, ...orderRequest(`ins-${runId}-${counters.inserts}`, undefined) }) };
      },
      onResponse: (status, body) => {
        const id = status === 201 ? fieldOf(body, 'source_order_id') : undefined;
        if (id !== undefined) counters.createdInserts.push(id);
      },
    },
    select: {
      name: 'baseline_select',
      baseline: null,
      method: 'GET',
      path: '/select/x',
      setup: (req) => ({ ...req, path: `/select/${storeId}/${pick(counters.createdInserts)}` }),
    },
  };
}

const randomIndex = (count: number) => 1 + Math.floor(Math.random() * count);

/** Order read in the scale run: any of the `count()` bulk-loaded orders (bench/scale.ts), uniformly. */
export function bulkReadScenario(liveKey: string, count: () => number): Scenario {
  return {
    name: 'order_read',
    baseline: null,
    method: 'GET',
    path: '/v2/orders/x',
    headers: { token: liveKey },
    // Any of the bulk-loaded orders, uniformly: the whole index is in play.
    setup: (req) => ({ ...req, path: `/v2/orders/bulk-${randomIndex(count())}` }),
  };
}

/** The first names the scale run's bulk orders cycle through (bench/scale.ts), one per g % 8. */
export const BULK_FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John'] as const;
/** The scale run's bulk orders start on this day, one every 37 seconds (about 2,335 a day). */
export const BULK_FIRST_DAY = Date.UTC(2025, 0, 1);
const BULK_SPACING_MS = 37_000;

const bulkDay = (n: number) => new Date(BULK_FIRST_DAY + n * BULK_SPACING_MS).toISOString().slice(0, 10);
const bulkMonth = (n: number) => bulkDay(n).slice(0, 7);

/**
 * The console's orders list as a merchant uses it over a long history: the first page, then each
 * kind of search and filter, over any of the bulk-loaded orders (bench/scale.ts). A number or
 * email prefix matches a few orders; "<first> Lovelace<k>" matches a thousand at a million orders
 * (or none); a day holds about 2,300 orders; a cancelled order is one in 50.
 */
export function consoleSearchScenarios(consoleCookie: string, count: () => number): Scenario[] {
  const headers = { cookie: consoleCookie };
  const list = (name: string, query: () => string): Scenario => ({
    name,
    baseline: null,
    method: 'GET',
    path: '/console/api/orders',
    headers,
    setup: (req) => ({ ...req, path: `/console/api/orders${query()}` }),
  });
  const q = (text: string) => `?q=${encodeURIComponent(text)}`;
  return [
    list('console_orders_list', () => ''),
    list('console_orders_by_number', () => q(`#${randomIndex(count())}`)),
    list('console_orders_by_email', () => q(`ADA${randomIndex(count())}@`)),
    list('console_orders_by_name', () => {
      const n = randomIndex(count());
      return q(`${BULK_FIRST_NAMES[n % 8] ?? 'Ada'} lovelace${Math.floor(Math.random() * 1000)}`);
    }),
    list('console_orders_by_claim_reference', () => q('CLM-7K3Q9D')),
    list('console_orders_cancelled', () => '?status=cancelled'),
    list('console_orders_placed_on_a_day', () => {
      const day = bulkDay(randomIndex(count()));
      return `?status=created&protection=selected&placed_from=${day}&placed_to=${day}`;
    }),
    list('console_orders_search_and_range', () => {
      const n = randomIndex(count());
      return `${q(`ada${n}`)}&placed_from=${bulkDay(Math.max(1, n - 50_000))}&placed_to=${bulkDay(n)}`;
    }),
  ];
}

/**
 * The store's money over its long history (bench/scale.ts): the console's overview and the API's
 * billing statement, each of a month of the bulk-loaded history picked at random (about 72,000
 * bookings in a whole month at a million orders). Both read the store's daily totals.
 */
export function moneyScenarios(consoleCookie: string, liveKey: string, count: () => number): { overview: Scenario; statement: Scenario } {
  return {
    overview: {
      name: 'console_overview_month',
      baseline: null,
      method: 'GET',
      path: '/console/api/overview',
      headers: { cookie: consoleCookie },
      setup: (req) => ({ ...req, path: `/console/api/overview?month=${bulkMonth(randomIndex(count()))}` }),
    },
    statement: {
      name: 'billing_statement_month',
      baseline: null,
      method: 'GET',
      path: '/v1/billing/statements',
      headers: { token: liveKey },
      setup: (req) => ({ ...req, path: `/v1/billing/statements?month=${bulkMonth(randomIndex(count()))}` }),
    },
  };
}
