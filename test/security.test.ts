// Security properties through real HTTP and the real database:
//   - cross-store isolation on every route of the contract that addresses an object;
//   - API keys at rest: no plaintext anywhere in the database, only 64-hex SHA-256 hashes;
//   - constant-time comparison of keys and signatures (a static check of the source);
//   - platform webhook replays and signature reuse are refused;
//   - after a representative run, the log output holds no key, secret or personal data.
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../contract/index.js';
import { signWebhook } from '../contract/webhook-signature.js';
import { issueApiKey, revokeApiKey } from '../server/domain/api-keys.js';
import { setClaimStatus } from '../server/domain/claims.js';
import { connectStore, createPlatform } from '../server/domain/platforms.js';
import { createLogger } from '../server/logger.js';
import { call, orderBody, tableCounts, type ApiResponse } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

// Every log line of every app in this file, for the scan at the end.
const logLines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

const PLATFORM_A = 'secplat-a';
const SECRET_A = 'security-platform-a-secret-0123456789';
const PLATFORM_B = 'secplat-b';
const SECRET_B = 'security-platform-b-secret-9876543210';
const EASYPOST_SECRET = 'whsec_security_easypost_secret_42';

let service: TestService;
let storeA: SeededStore;
let storeB: SeededStore;
/** Every key issued in this file, whatever its mode, scope or state. */
const issuedKeys: string[] = [];

beforeAll(async () => {
  service = await startService({ logger: createLogger('debug', capture), easyPostWebhookSecret: EASYPOST_SECRET });
  storeA = await seedStore(service.db);
  storeB = await seedStore(service.db);
  issuedKeys.push(storeA.liveKey, storeA.testKey, storeB.liveKey, storeB.testKey);
  await createPlatform(service.db, PLATFORM_A, SECRET_A);
  await createPlatform(service.db, PLATFORM_B, SECRET_B);
  await connectStore(service.db, storeA.store.slug, PLATFORM_A);
  await connectStore(service.db, storeB.store.slug, PLATFORM_B);
});
afterAll(async () => service.close());

let sequence = 0;
const unique = (prefix: string) => `${prefix}${Date.now()}${(sequence += 1)}`;

function pushSigned(platform: string, secret: string, message: unknown, timestamp?: number): Promise<ApiResponse> {
  const raw = JSON.stringify(message);
  return call(service.baseUrl, 'POST', `/api/webhooks/${platform}`, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(secret, raw, timestamp) },
  });
}

// ---- Cross-store isolation -----------------------------------------------------------------------

/** Objects of store A, made through A's live key, for one route's check. */
interface Fixture {
  sourceOrderId: string;
  trackingNumber: string;
  claimId: string;
}

async function fixtureOfA(): Promise<Fixture> {
  const body = orderBody({
    line_items: [{ source_id: 'li_1', name: 'Desk', price: 50, quantity: 2, source_product_id: 'prod-1' }],
  });
  const sourceOrderId = body.source_order_id as string;
  expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: storeA.liveKey, body })).status).toBe(201);
  const trackingNumber = unique('ZZSEC');
  const shipment = await call(service.baseUrl, 'POST', '/v1/shipments', {
    key: storeA.liveKey,
    body: { tracking_number: trackingNumber, source_order_id: sourceOrderId, courier_id: 'ups' },
  });
  expect(shipment.status).toBe(201);
  const claim = await call(service.baseUrl, 'POST', '/v1/claims', { key: storeA.liveKey, body: { source_order_id: sourceOrderId, reason: 'lost' } });
  expect(claim.status).toBe(201);
  // Resolved, so that A's own cancels succeed in the positive controls below.
  await setClaimStatus(service.db, claim.body.id as string, 'closed', new Date());
  return { sourceOrderId, trackingNumber, claimId: claim.body.id as string };
}

/** A's objects as stored, to prove that B's requests changed none of them. */
async function snapshotOfA(fixture: Fixture): Promise<string> {
  const order = await service.db.order.findFirst({
    where: { storeId: storeA.store.id, sourceOrderId: fixture.sourceOrderId },
    include: { lineItems: true, ledgerEntries: true, shipments: true, claims: { include: { history: true } }, refunds: true },
  });
  return JSON.stringify(order, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

type Requester = (fixture: Fixture, as: 'A' | 'B') => Promise<ApiResponse>;
const byKey =
  (method: string, path: (f: Fixture) => string, body?: (f: Fixture) => unknown): Requester =>
  (fixture, as) =>
    call(service.baseUrl, method, path(fixture), { key: as === 'A' ? storeA.liveKey : storeB.liveKey, body: body?.(fixture) });
const enc = encodeURIComponent;

/**
 * Each route of the contract that addresses an object of a store: the request naming store A's
 * object, and what A's own key gets for it (the positive control that proves the 404 is not trivial).
 */
const addressing: Record<string, { request: Requester; statusForA: number }> = {
  'GET /v2/orders/:source_order_id': { request: byKey('GET', (f) => `/v2/orders/${enc(f.sourceOrderId)}`), statusForA: 200 },
  'POST /v2/orders/:source_order_id': {
    request: byKey('POST', (f) => `/v2/orders/${enc(f.sourceOrderId)}`, () => ({ subtotal: 500, customer_details: { email: 'b@example.com' } })),
    statusForA: 200,
  },
  'PATCH /v2/orders/:source_order_id': {
    request: byKey('PATCH', (f) => `/v2/orders/${enc(f.sourceOrderId)}`, () => ({ insurance_selected: false, line_items: [{ source_id: 'x', name: 'X', price: 1, quantity: 1 }] })),
    statusForA: 200,
  },
  'POST /v1/orders/:source_order_id/cancel': { request: byKey('POST', (f) => `/v1/orders/${enc(f.sourceOrderId)}/cancel`), statusForA: 200 },
  // A create that names an order of the store.
  'POST /v1/shipments': {
    request: byKey('POST', () => '/v1/shipments', (f) => ({
      tracking_number: `${f.trackingNumber}B`,
      source_order_id: f.sourceOrderId,
      courier_id: 'ups',
      source_product_ids: ['prod-1'],
      line_items: [{ source_id: 'li_1', quantity: 1 }],
    })),
    statusForA: 201,
  },
  'GET /v1/shipments/:tracking_number': { request: byKey('GET', (f) => `/v1/shipments/${f.trackingNumber}`), statusForA: 200 },
  'POST /v1/shipments/:tracking_number': { request: byKey('POST', (f) => `/v1/shipments/${f.trackingNumber}`, () => ({ courier_id: 'fedex' })), statusForA: 200 },
  'PATCH /v1/shipments/:tracking_number': { request: byKey('PATCH', (f) => `/v1/shipments/${f.trackingNumber}`, () => ({ courier_id: 'usps' })), statusForA: 200 },
  'POST /v1/shipments/:tracking_number/cancel': { request: byKey('POST', (f) => `/v1/shipments/${f.trackingNumber}/cancel`), statusForA: 200 },
  // A create that names an order, a shipment and line items of the store.
  'POST /v1/claims': {
    request: byKey('POST', () => '/v1/claims', (f) => ({
      source_order_id: f.sourceOrderId,
      tracking_number: f.trackingNumber,
      reason: 'damaged',
      items: [{ source_id: 'li_1', quantity: 1 }],
    })),
    statusForA: 201,
  },
  'GET /v1/claims/:id': { request: byKey('GET', (f) => `/v1/claims/${f.claimId}`), statusForA: 200 },
  'GET /v1/claims': { request: byKey('GET', (f) => `/v1/claims?source_order_id=${enc(f.sourceOrderId)}`), statusForA: 200 },
  // No key: the store is named by the message and must be connected to the signing platform. B's
  // platform, with its own valid signature, names store A and A's order.
  'POST /api/webhooks/:platform_slug': {
    request: (f, as) =>
      pushSigned(as === 'A' ? PLATFORM_A : PLATFORM_B, as === 'A' ? SECRET_A : SECRET_B, {
        merchant: storeA.store.slug,
        event: 'refund.created',
        order: { id: f.sourceOrderId },
        refund: { id: unique('sec-ref-'), items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 50 }] },
      }),
    statusForA: 200,
  },
};

/** Routes that address no object of a store, and why; each is covered by its own check or needs none. */
const notAddressing: Record<string, string> = {
  'POST /v2/quotes': 'prices a cart; names no stored object',
  'POST /v2/orders': "creates; its only reference, quote_id, is checked below (another store's quote never prices it)",
  'POST /v2/addresses/verify': 'no side effects and no stored object',
  'POST /v1/tracking/easypost/webhook': 'no API key: EasyPost-signed, matched by the provider reference EasyPost holds',
  'GET /v1/billing/statements': 'names no object; checked below: a store only ever sees its own figures',
};

function flattenRoutes(router: AppRouter | AppRoute): AppRoute[] {
  if (isAppRoute(router)) return [router];
  return Object.values(router).flatMap((child) => flattenRoutes(child as AppRouter | AppRoute));
}
const contractRoutes = flattenRoutes(contract).map((route) => `${route.method} ${route.path}`);

describe('cross-store isolation', () => {
  it('classifies every route of the contract', () => {
    // A route added to the contract fails here until it is classified (and, if it addresses an object, checked).
    expect(contractRoutes.length).toBeGreaterThanOrEqual(18);
    expect([...contractRoutes].sort()).toEqual([...Object.keys(addressing), ...Object.keys(notAddressing)].sort());
  });

  it.each(Object.keys(addressing))("%s with store B's key on store A's object: 404, and nothing changes", async (route) => {
    const { request, statusForA } = addressing[route] as (typeof addressing)[string];
    const fixture = await fixtureOfA();
    const countsBefore = await tableCounts(service.db);
    const before = await snapshotOfA(fixture);

    const asB = await request(fixture, 'B');
    expect(asB.status, JSON.stringify(asB.body)).toBe(404);
    expect(asB.body.error_code).toBe('not_found');
    // The answer says nothing of A's object.
    expect(JSON.stringify(asB.body)).not.toContain(storeA.store.id);
    expect(await tableCounts(service.db)).toEqual(countsBefore);
    expect(await snapshotOfA(fixture)).toBe(before);

    // The same request with A's key reaches the object: the 404 above is isolation, not a bad request.
    const asA = await request(fixture, 'A');
    expect(asA.status, JSON.stringify(asA.body)).toBe(statusForA);
  });

  it("answers 404 to B for A's objects under B's test key too, writing nothing", async () => {
    const fixture = await fixtureOfA();
    const countsBefore = await tableCounts(service.db);
    for (const path of [`/v2/orders/${enc(fixture.sourceOrderId)}`, `/v1/shipments/${fixture.trackingNumber}`, `/v1/claims/${fixture.claimId}`]) {
      expect((await call(service.baseUrl, 'GET', path, { key: storeB.testKey })).status).toBe(404);
    }
    expect(await tableCounts(service.db)).toEqual(countsBefore);
  });

  it("lets B use A's order id, quote id, tracking number and refund id as its own, touching nothing of A's", async () => {
    const fixture = await fixtureOfA();
    const quote = await call(service.baseUrl, 'POST', '/v2/quotes', { key: storeA.liveKey, body: { cart: { covered: { amount: '125.00' } } } });
    expect(quote.status).toBe(201);
    const before = await snapshotOfA(fixture);
    // B's store has a rate of its own (3 %), so a premium from A's quote (1.88) would show.
    await service.db.store.update({ where: { id: storeB.store.id }, data: { rateBps: 300 } });
    await service.settled();
    try {
      const response = await call(service.baseUrl, 'POST', '/v2/orders', {
        key: storeB.liveKey,
        body: orderBody({ source_order_id: fixture.sourceOrderId, quote_id: quote.body.id }),
      });
      // Not 409: another store's ids are not even visible as taken.
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ merchant_id: storeB.store.id, paid_to_insure: 3.75 });
      const stored = await service.db.order.findFirstOrThrow({ where: { storeId: storeB.store.id, sourceOrderId: fixture.sourceOrderId } });
      expect(stored).toMatchObject({ quoteId: null, pricingSource: 'rate' });

      // A's active tracking number is free in B's store: not 409, which would tell B it exists.
      const shipment = await call(service.baseUrl, 'POST', '/v1/shipments', {
        key: storeB.liveKey,
        body: { tracking_number: fixture.trackingNumber, source_order_id: fixture.sourceOrderId, courier_id: 'ups' },
      });
      expect(shipment.status, JSON.stringify(shipment.body)).toBe(201);
      expect(shipment.body.merchant_id).toBe(storeB.store.id);
      // B reads its own shipment under that number, A still reads its own.
      const readB = await call(service.baseUrl, 'GET', `/v1/shipments/${fixture.trackingNumber}`, { key: storeB.liveKey });
      const readA = await call(service.baseUrl, 'GET', `/v1/shipments/${fixture.trackingNumber}`, { key: storeA.liveKey });
      expect([readB.body.id, readA.body.merchant_id]).toEqual([shipment.body.id, storeA.store.id]);
      expect(await snapshotOfA(fixture)).toBe(before);

      // A refund id A's platform already used is B's to use too, on B's order only.
      const refundId = unique('sec-shared-ref-');
      const refundOf = (platform: string, secret: string, merchant: string) =>
        pushSigned(platform, secret, { merchant, event: 'refund.created', order: { id: fixture.sourceOrderId }, refund: { id: refundId, items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 25 }] } });
      expect((await refundOf(PLATFORM_A, SECRET_A, storeA.store.slug)).body).toMatchObject({ duplicate: false, reversed_cents: 25, premium_cents: 163 });
      const beforeB = await snapshotOfA(fixture);
      expect((await refundOf(PLATFORM_B, SECRET_B, storeB.store.slug)).body).toMatchObject({ duplicate: false, reversed_cents: 25, premium_cents: 350 });
      expect(await snapshotOfA(fixture)).toBe(beforeB);
    } finally {
      await service.db.store.update({ where: { id: storeB.store.id }, data: { rateBps: 150 } });
      await service.settled();
    }
  });

  it('never shows B the figures of A in GET /v1/billing/statements', async () => {
    const month = '2026-03'; // no other test books in this month
    const statement = (key: string) => call(service.baseUrl, 'GET', `/v1/billing/statements?month=${month}`, { key });
    const emptyB = await statement(storeB.liveKey);
    expect(emptyB.status).toBe(200);
    expect(emptyB.body).toMatchObject({
      merchant_id: storeB.store.id,
      premiums: { count: 0, total: 0 },
      repricings: { count: 0, total: 0 },
      credits: { count: 0, total: 0, weeks: [] },
      net_total: 0,
    });

    // A books 3 orders and a refund in the month; B books 1.
    const placed = '2026-03-10T10:00:00Z';
    const ids: string[] = [];
    for (const subtotal of [125, 1000, 40]) {
      const body = orderBody({ subtotal, source_created_on: placed });
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: storeA.liveKey, body })).status).toBe(201);
      ids.push(body.source_order_id as string);
    }
    const refund = await pushSigned(PLATFORM_A, SECRET_A, {
      merchant: storeA.store.slug,
      event: 'refund.created',
      order: { id: ids[0] },
      refund: { id: unique('sec-bill-'), created_at: '2026-03-12T10:00:00Z', items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 50 }] },
    });
    expect(refund.body.reversed_cents).toBe(50);
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: storeB.liveKey, body: orderBody({ subtotal: 200, source_created_on: placed }) })).status).toBe(201);

    const a = await statement(storeA.liveKey);
    expect(a.body).toMatchObject({ merchant_id: storeA.store.id, premiums: { count: 3, total: 17.86 }, credits: { count: 1, total: 0.5 }, net_total: 17.36 });
    const b = await statement(storeB.liveKey);
    expect(b.body).toMatchObject({ merchant_id: storeB.store.id, premiums: { count: 1, total: 3 }, credits: { count: 0, total: 0, weeks: [] }, net_total: 3 });
    expect(JSON.stringify(b.body)).not.toContain(storeA.store.id);
  });
});

// ---- Webhook replay ------------------------------------------------------------------------------

describe('platform webhook replay', () => {
  const orderPlaced = () => ({
    merchant: storeA.store.slug,
    event: 'order.placed',
    order: {
      id: unique('sec-po-'),
      created_at: '2026-11-20T10:00:00Z',
      line_items: [
        { id: 'l1', sku: 'DESK', title: 'Desk', unit_price_cents: 10_000, quantity: 1 },
        { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 150, quantity: 1 },
      ],
    },
  });
  const deliver = (raw: string, signature: string) =>
    call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM_A}`, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-webhook-signature': signature } });
  const now = () => Math.floor(Date.now() / 1000);

  it.each([
    ['301 s old', -301],
    ['302 s ahead', 302], // 302 rather than 301: a second may tick between signing here and checking there
    ['an hour old', -3600],
  ])('refuses a correctly signed message with a timestamp %s with 401, writing nothing', async (_label, offset) => {
    const raw = JSON.stringify(orderPlaced());
    const countsBefore = await tableCounts(service.db);
    const response = await deliver(raw, signWebhook(SECRET_A, raw, now() + offset));
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe('unauthorized');
    expect(await tableCounts(service.db)).toEqual(countsBefore);
  });

  it('refuses a captured signature on another body, or with another timestamp; the exact replay within the window is a duplicate', async () => {
    const first = JSON.stringify(orderPlaced());
    const captured = signWebhook(SECRET_A, first);
    const accepted = await deliver(first, captured);
    expect(accepted.status).toBe(200);
    expect(accepted.body.duplicate).toBe(false);

    const countsBefore = await tableCounts(service.db);
    // The same signature on another message.
    const other = JSON.stringify(orderPlaced());
    expect((await deliver(other, captured)).status).toBe(401);
    // The same message with its amounts changed.
    expect((await deliver(first.replace('"unit_price_cents":150', '"unit_price_cents":15000'), captured)).status).toBe(401);
    // The captured v1 moved to a fresh timestamp: the timestamp is signed too.
    const v1 = captured.split(',v1=')[1] as string;
    expect((await deliver(first, `t=${now() + 1},v1=${v1}`)).status).toBe(401);
    expect(await tableCounts(service.db)).toEqual(countsBefore);

    // Replaying the exact captured request inside the window changes nothing either: it is a redelivery.
    const replay = await deliver(first, captured);
    expect(replay.status).toBe(200);
    expect(replay.body.duplicate).toBe(true);
    expect(await tableCounts(service.db)).toEqual(countsBefore);
  });
});

// ---- Constant-time comparison --------------------------------------------------------------------

/** The source of a top-level function, from its declaration to its closing brace. */
function functionSource(file: string, name: string): string {
  const source = readFileSync(file, 'utf8');
  const start = source.search(new RegExp(`export (async )?function ${name}\\(`));
  expect(start, `${name} in ${file}`).toBeGreaterThanOrEqual(0);
  // The body opens at the first "{" that ends a line (parameter lists and return types here hold none).
  const open = source.indexOf('{\n', start);
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    if (source[i] === '{') depth += 1;
    if (source[i] === '}') depth -= 1;
    if (depth === 0) return source.slice(start, i + 1);
  }
  throw new Error(`unbalanced braces in ${name}`);
}

describe('constant-time comparison', () => {
  // A timing measurement would be flaky on a shared CI machine (noise far above a string compare's
  // difference), so this is a static check of the source: each secret comparison goes through
  // crypto.timingSafeEqual, and none compares the secret material with === or !==.
  it.each([
    ['server/domain/api-keys.ts', 'authenticateApiKey', /keyHash|presentedHash/],
    ['contract/webhook-signature.ts', 'verifyWebhookSignature', /candidate|expected/],
    ['server/tracking/easypost.ts', 'verifyEasyPostWebhook', /hex|expected/],
  ])('%s: %s compares with timingSafeEqual', (file, name, secretNames) => {
    const source = readFileSync(file, 'utf8');
    expect(source).toMatch(/import\s*\{[^}]*\btimingSafeEqual\b[^}]*\}\s*from\s*'node:crypto'/);
    const body = functionSource(file, name);
    expect(body).toMatch(/\btimingSafeEqual\(/);
    for (const line of body.split('\n').filter((l) => /[!=]==/.test(l))) {
      const compared = line.split(/[!=]==/).map((side) => side.trim());
      // e.g. `row.keyHash === presentedHash` or `candidate === expected` would be a leak.
      expect(compared.filter((side) => secretNames.test(side)).length, `${file}: ${line.trim()}`).toBeLessThan(2);
      expect(line, `${file}: ${line.trim()}`).not.toMatch(/(keyHash|presentedHash|candidate|expected|digest\(\S*\))\s*[!=]==\s*\S/);
    }
  });
});

// ---- Logs after a full run -----------------------------------------------------------------------

/** Personal data sent in the run below, every piece of which must stay out of the logs. */
const PERSONAL = {
  firstNames: ['Wilhelmina', 'Bartholomew', 'Philippa'],
  lastNames: ['Featherstonehaugh', 'Cholmondeley', 'Marjoribanks'],
  emails: ['wilhelmina.f@example.org', 'bart.cholmondeley@example.net', 'philippa.m@example.com'],
  phones: ['+1 415 555 0142', '+1 212 555 0199', '+1 303 555 0177'],
  streets: ['4242 Marigold Crescent', '77 Quillfeather Lane', '9 Zephyrine Boulevard', '31 Larkspur Mews'],
};

describe('logs after a full run', () => {
  let logged: TestService;
  let storeC: SeededStore;
  let accountKey: string;
  let revokedKey: string;

  beforeAll(async () => {
    // A second app on the same database: rate limits on, tracking workers on, debug logging into
    // the same capture as the first.
    logged = await startService({
      databaseUrl: service.databaseUrl,
      logger: createLogger('debug', capture),
      work: true,
      easyPostWebhookSecret: EASYPOST_SECRET,
      rateLimits: { ordersPerMinute: 40, addressesPerMinute: 3, addressesPerDay: 100, quotesPerMinute: 100, quotesPerMinutePerIp: 100, otherPerMinute: 40 },
    });
    storeC = await seedStore(service.db);
    issuedKeys.push(storeC.liveKey, storeC.testKey);
    accountKey = (await issueApiKey(service.db, { storeSlug: storeA.store.slug, mode: 'live', scope: 'account' })).key;
    const revoked = await issueApiKey(service.db, { storeSlug: storeA.store.slug, mode: 'live', scope: 'store' });
    await revokeApiKey(service.db, revoked.id, new Date());
    revokedKey = revoked.key;
    issuedKeys.push(accountKey, revokedKey);
  });
  afterAll(async () => logged.close());

  it('hold no key, secret, email, name, phone or street line', async () => {
    const base = logged.baseUrl;
    const key = storeA.liveKey;
    const seen = new Set<number>();
    const api = async (method: string, path: string, options: Parameters<typeof call>[3] = {}) => {
      const response = await call(base, method, path, options);
      seen.add(response.status);
      return response;
    };
    const person = (i: number) => ({
      first_name: PERSONAL.firstNames[i] as string,
      last_name: PERSONAL.lastNames[i] as string,
      email: PERSONAL.emails[i] as string,
      phone: PERSONAL.phones[i] as string,
    });
    const address = (i: number) => ({ street_address1: PERSONAL.streets[i] as string, street_address2: 'Apt 5', city: 'Portland', province: 'OR', zip: '97201', country_code: 'US' });

    // Quotes, with a key in either header.
    const quote = await api('POST', '/v2/quotes', { key, body: { cart: { covered: { amount: '125.00' }, cart_ref: `cart-${PERSONAL.lastNames[0]}` } } });
    expect(quote.status).toBe(201);
    await api('POST', '/v2/quotes', { bearer: storeA.testKey, body: { cart: { covered: { amount: '10.00' } } } });

    // Orders with personal data: create, read, update, and a test-key create.
    const orderIds: string[] = [];
    for (const i of [0, 1]) {
      const body = orderBody({ quote_id: quote.body.id, customer_details: person(i), shipping_details: address(i), billing_address: address(3) });
      expect((await api('POST', '/v2/orders', { key, body })).status).toBe(201);
      orderIds.push(body.source_order_id as string);
    }
    await api('GET', `/v2/orders/${orderIds[0]}`, { bearer: key });
    await api('PATCH', `/v2/orders/${orderIds[0]}`, { key, body: { customer_details: person(2), shipping_details: { street_address1: PERSONAL.streets[2] } } });
    await api('POST', '/v2/orders', { key: storeA.testKey, body: orderBody({ customer_details: person(2), shipping_details: address(2) }) });
    // A repeat (409), personal data in the path (404), and bad bodies carrying personal data (400, 422).
    const repeat = orderBody({ source_order_id: orderIds[1], customer_details: person(1) });
    expect((await api('POST', '/v2/orders', { key, body: repeat })).status).toBe(409);
    expect((await api('GET', `/v2/orders/${enc(PERSONAL.emails[0] as string)}`, { key })).status).toBe(404);
    expect((await api('POST', '/v2/orders', { key, body: { customer_details: { ...person(0), email: `${PERSONAL.firstNames[0]} at home` }, shipping_details: address(0) } })).status).toBe(400);
    const twice = { source_id: 'same', name: PERSONAL.lastNames[2], price: 1, quantity: 1 };
    expect((await api('POST', '/v2/orders', { key, body: orderBody({ customer_details: person(0), line_items: [twice, twice] }) })).status).toBe(422);
    expect((await api('POST', '/v2/orders', { key, rawBody: `{"customer_details": {"email": "${PERSONAL.emails[1]}"`, headers: { 'content-type': 'application/json' } })).status).toBe(400);

    // Shipments: create, read, carrier update, and a second one cancelled.
    const tracking = unique('1Z999AA1');
    expect((await api('POST', '/v1/shipments', { key, body: { tracking_number: tracking, source_order_id: orderIds[0], courier_id: 'ups' } })).status).toBe(201);
    await api('GET', `/v1/shipments/${tracking}`, { key });
    await api('PATCH', `/v1/shipments/${tracking}`, { key, body: { courier_id: 'UPS Ground' } });
    const second = unique('SBXDELIVERED');
    await api('POST', '/v1/shipments', { key, body: { tracking_number: second, source_order_id: orderIds[1] } });
    await api('POST', `/v1/shipments/${second}/cancel`, { key });

    // Claims: filed, read, listed; a claim on a missing order (404).
    const claim = await api('POST', '/v1/claims', { key, body: { source_order_id: orderIds[0], tracking_number: tracking, reason: 'stolen', description: `Left with ${PERSONAL.firstNames[1]} at ${PERSONAL.streets[1]}` } });
    expect(claim.status).toBe(201);
    await api('GET', `/v1/claims/${claim.body.id}`, { key });
    await api('GET', `/v1/claims?source_order_id=${orderIds[0]}`, { key });
    expect((await api('POST', '/v1/claims', { key, body: { source_order_id: PERSONAL.emails[2], reason: 'lost' } })).status).toBe(404);

    // Address verification, names and phones included (they are ignored).
    await api('POST', '/v2/addresses/verify', { key, body: { address: { ...address(0), first_name: PERSONAL.firstNames[0], phone: PERSONAL.phones[0] } } });
    await api('POST', '/v2/addresses/verify', { bearer: storeA.testKey, body: { shipping_details: address(1) } });

    // Platform webhooks: an order with personal data, its fulfilment, a refund; a bad signature.
    const pushedId = unique('sec-log-po-');
    const pushed = {
      merchant: storeA.store.slug,
      event: 'order.placed',
      order: {
        id: pushedId,
        created_at: '2026-11-20T10:00:00Z',
        customer: person(2),
        shipping_address: address(2),
        line_items: [
          { id: 'l1', sku: 'DESK', title: `Engraved for ${PERSONAL.firstNames[2]}`, unit_price_cents: 10_000, quantity: 1 },
          { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 150, quantity: 1 },
        ],
      },
    };
    const raw = JSON.stringify(pushed);
    const webhook = (body: string, signature: string) =>
      api('POST', `/api/webhooks/${PLATFORM_A}`, { rawBody: body, headers: { 'content-type': 'application/json', 'x-webhook-signature': signature } });
    expect((await webhook(raw, signWebhook(SECRET_A, raw))).status).toBe(200);
    expect((await webhook(raw, signWebhook('not-the-secret-at-all-000', raw))).status).toBe(401);
    expect((await webhook(raw, signWebhook(SECRET_A, raw, Math.floor(Date.now() / 1000) - 400))).status).toBe(401);
    const fulfil = JSON.stringify({ merchant: storeA.store.slug, event: 'fulfillment.created', order: { id: pushedId }, fulfillment: { id: unique('ful-'), shipments: [{ tracking_number: unique('SBXINTRANSIT') }] } });
    expect((await webhook(fulfil, signWebhook(SECRET_A, fulfil))).status).toBe(200);
    const refund = JSON.stringify({ merchant: storeA.store.slug, event: 'refund.created', order: { id: pushedId }, refund: { id: unique('ref-'), note: `Refunded to ${PERSONAL.emails[2]}`, items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 50 }] } });
    expect((await webhook(refund, signWebhook(SECRET_A, refund))).status).toBe(200);
    // EasyPost: a bad signature, then a signed event that matches nothing.
    const event = JSON.stringify({ object: 'Event', description: 'batch.created', result: {} });
    expect((await api('POST', '/v1/tracking/easypost/webhook', { rawBody: event, headers: { 'content-type': 'application/json', 'x-hmac-signature': 'hmac-sha256-hex=00' } })).status).toBe(401);
    const easyPostSignature = `hmac-sha256-hex=${createHmac('sha256', EASYPOST_SECRET).update(event).digest('hex')}`;
    expect((await api('POST', '/v1/tracking/easypost/webhook', { rawBody: event, headers: { 'content-type': 'application/json', 'x-hmac-signature': easyPostSignature } })).status).toBe(200);

    // Billing, and the key failures: unknown, malformed, revoked (401), account-scoped (403).
    await api('GET', '/v1/billing/statements?month=2026-11', { key });
    expect((await api('GET', `/v2/orders/${orderIds[0]}`, { key: `${key.slice(0, -1)}X` })).status).toBe(401);
    expect((await api('GET', `/v2/orders/${orderIds[0]}`, { key: `${PERSONAL.emails[0]}` })).status).toBe(401);
    expect((await api('GET', `/v2/orders/${orderIds[0]}`, { key: revokedKey })).status).toBe(401);
    expect((await api('GET', `/v2/orders/${orderIds[0]}`, { bearer: accountKey })).status).toBe(403);

    // 429: store C goes past its address and order limits, with personal data in the bodies.
    for (let i = 0; i < 4; i += 1) {
      await api('POST', '/v2/addresses/verify', { key: storeC.liveKey, body: { address: address(i % 4) } });
    }
    let limited = false;
    for (let i = 0; i < 41 && !limited; i += 1) {
      const response = await api('POST', '/v2/orders', { key: storeC.liveKey, body: orderBody({ customer_details: person(i % 3), shipping_details: address(i % 4) }) });
      limited = response.status === 429;
    }
    expect(limited).toBe(true);
    // Unknown route and wrong method.
    expect((await api('GET', `/v2/customers/${enc(PERSONAL.emails[1] as string)}`, { key })).status).toBe(404);
    expect((await api('DELETE', `/v2/orders/${orderIds[0]}`, { key })).status).toBe(405);

    // Let the tracking workers poll the new shipments, so their log lines are in the scan too.
    for (let waited = 0; waited < 10_000; waited += 200) {
      const polled = await service.db.shipment.count({ where: { storeId: storeA.store.id, lastPolledAt: { not: null } } });
      if (polled >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // The run went through the logger: one line per request, every kind of answer.
    expect([...seen].sort()).toEqual(expect.arrayContaining([200, 201, 400, 401, 403, 404, 405, 409, 422, 429]));
    const requestLines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request');
    expect(requestLines.length).toBeGreaterThan(80);
    expect(requestLines.some((entry) => entry.status === 429)).toBe(true);

    // The scan.
    const everything = logLines.join('\n');
    const digitsOnly = (phone: string) => phone.replace(/\D/g, '');
    const forbidden = [
      ...issuedKeys,
      ...issuedKeys.map((k) => k.slice('ak_live_'.length)), // the random part alone
      SECRET_A,
      SECRET_B,
      EASYPOST_SECRET,
      ...PERSONAL.firstNames,
      ...PERSONAL.lastNames,
      ...PERSONAL.emails,
      ...PERSONAL.phones,
      ...PERSONAL.phones.map((p) => p.slice(3)), // "415 555 0142"
      ...PERSONAL.phones.map(digitsOnly),
      ...PERSONAL.streets,
      ...PERSONAL.streets.map((s) => s.split(' ')[1] as string), // "Marigold", ...
      // What orderBody() sends in every order of this file.
      'Lovelace',
      'ada@example.com',
      '555 0100',
      '1600 Amphitheatre',
    ];
    expect(issuedKeys.length).toBe(8);
    for (const secret of forbidden) expect(everything.includes(secret), `the log output contains "${secret}"`).toBe(false);
  });
});

// ---- Keys at rest (last: after every request of this file) -----------------------------------------

describe('API keys at rest', () => {
  it('leave no plaintext, nor its random part, in any text or json column of any table', async () => {
    // Every text-like and json column of every table, in every schema (pg-boss's included).
    const columns = await service.db.$queryRawUnsafe<Array<{ schema: string; table: string; column: string }>>(`
      SELECT c.table_schema AS schema, c.table_name AS "table", c.column_name AS column
      FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE t.table_type = 'BASE TABLE'
        AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
        AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
             OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar', '_json', '_jsonb')))
      ORDER BY 1, 2, 3`);
    const names = columns.map((c) => `${c.schema}.${c.table}.${c.column}`);
    // The scan reaches the columns that matter.
    expect(names).toEqual(
      expect.arrayContaining([
        'public.api_keys.key_hash',
        'public.api_keys.last4',
        'public.orders.customer_email',
        'public.orders.shipping_address',
        'public.shipments.merchant_messages',
        'public.rate_limit_counters.key',
        'public.address_lookups.result',
        'pgboss.job.data',
      ]),
    );

    const values: string[] = [];
    for (const { schema, table, column } of columns) {
      const rows = await service.db.$queryRawUnsafe<Array<{ v: string }>>(`SELECT "${column}"::text AS v FROM "${schema}"."${table}" WHERE "${column}" IS NOT NULL`);
      values.push(...rows.map((row) => row.v));
    }
    expect(values.length).toBeGreaterThan(500);
    const everything = values.join('\n');
    expect(issuedKeys.length).toBe(8);
    for (const key of issuedKeys) {
      expect(everything.includes(key), `a column holds the key ${key.slice(0, 12)}...`).toBe(false);
      expect(everything.includes(key.slice('ak_live_'.length)), `a column holds the random part of ${key.slice(0, 12)}...`).toBe(false);
      // Nor any 16 characters of it.
      const random = key.slice('ak_live_'.length);
      for (let i = 0; i + 16 <= random.length; i += 8) expect(everything.includes(random.slice(i, i + 16))).toBe(false);
    }

    // The hashes: 64 hex characters, one per issued key, each the SHA-256 of its key.
    const rows = await service.db.apiKey.findMany({ select: { keyHash: true, last4: true } });
    expect(rows.length).toBeGreaterThanOrEqual(issuedKeys.length);
    for (const row of rows) {
      expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.last4).toMatch(/^[A-Za-z0-9]{4}$/);
    }
    const hashes = new Set(rows.map((row) => row.keyHash));
    for (const key of issuedKeys) expect(hashes.has(createHash('sha256').update(key).digest('hex'))).toBe(true);
  });
});
