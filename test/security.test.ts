// Security properties through real HTTP and the real database (the keys, secrets and logs are in
// test/security-secrets.test.ts):
//   - cross-store isolation on every route of the contract that addresses an object;
//   - platform webhook replays and signature reuse are refused.
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../contract/index.js';
import { signWebhook } from '../contract/webhook-signature.js';
import sharp from 'sharp';
import { postgresPhotoStore, uploadClaimPhoto } from '../server/domain/claims/index.js';

import { call, orderBody, tableCounts, type ApiResponse } from './support/http.js';
import { PLATFORM_A, SECRET_A, PLATFORM_B, SECRET_B, service, storeA, storeB, unique, pushSigned, startSecurityService, stopSecurityService } from './support/security-fixture.js';
import { systemClock } from '../server/domain/kernel/index.js';
import { decideClaimAsOperator } from './support/service.js';

beforeAll(startSecurityService);
afterAll(stopSecurityService);

// ---- Cross-store isolation -----------------------------------------------------------------------

/** Objects of store A, made through A's live key, for one route's check. */
interface Fixture {
  sourceOrderId: string;
  trackingNumber: string;
  claimId: string;
  /** A webhook endpoint of A's, and A's latest event. */
  endpointId: string;
  eventId: string;
  photoId: string;
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
  // A photo on the claim, as a shopper would have attached it.
  const order = await service.db.order.findFirstOrThrow({ where: { storeId: storeA.store.id, sourceOrderId } });
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#888' } }).jpeg().toBuffer();
  const photo = await uploadClaimPhoto(service.db, { store: storeA.store, actor: { kind: 'shopper', orderId: order.id }, mode: 'live' }, postgresPhotoStore(service.db), jpeg, new Date());
  await service.db.claimPhoto.updateMany({ where: { id: photo.id }, data: { claimId: claim.body.id as string } });
  // Resolved, so that A's own cancels succeed in the positive controls below.
  await decideClaimAsOperator(service.db, claim.body.id as string, 'closed', systemClock);
  // One endpoint at a time, within the store's limit: each fixture makes its own.
  await service.db.webhookEndpoint.deleteMany({ where: { storeId: storeA.store.id } });
  const endpoint = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: storeA.liveKey, body: { url: 'https://a.example.com/hook', events: ['*'] } });
  expect(endpoint.status).toBe(201);
  const event = await service.db.event.findFirstOrThrow({ where: { storeId: storeA.store.id }, orderBy: { seq: 'desc' } });
  return { sourceOrderId, trackingNumber, claimId: claim.body.id as string, endpointId: endpoint.body.id as string, eventId: event.id, photoId: photo.id };
}

/** A's objects as stored, to prove that B's requests changed none of them. */
async function snapshotOfA(fixture: Fixture): Promise<string> {
  const order = await service.db.order.findFirst({
    where: { storeId: storeA.store.id, sourceOrderId: fixture.sourceOrderId },
    include: { lineItems: true, ledgerEntries: true, shipments: true, claims: { include: { history: true } }, refunds: true },
  });
  const endpoint = await service.db.webhookEndpoint.findFirst({ where: { id: fixture.endpointId }, include: { deliveries: { orderBy: { seq: 'asc' } } } });
  const attempts = await service.db.webhookDeliveryAttempt.findMany({ where: { deliveryId: { in: endpoint?.deliveries.map((delivery) => delivery.id) ?? [] } }, orderBy: { id: 'asc' } });
  const event = await service.db.event.findFirst({ where: { id: fixture.eventId } });
  return JSON.stringify({ order, endpoint, attempts, event }, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
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
  'GET /v1/webhook_endpoints/:id': { request: byKey('GET', (f) => `/v1/webhook_endpoints/${f.endpointId}`), statusForA: 200 },
  'PATCH /v1/webhook_endpoints/:id': { request: byKey('PATCH', (f) => `/v1/webhook_endpoints/${f.endpointId}`, () => ({ url: 'https://b.example.com/steal' })), statusForA: 200 },
  'DELETE /v1/webhook_endpoints/:id': { request: byKey('DELETE', (f) => `/v1/webhook_endpoints/${f.endpointId}`), statusForA: 200 },
  'POST /v1/webhook_endpoints/:id/rotate_secret': { request: byKey('POST', (f) => `/v1/webhook_endpoints/${f.endpointId}/rotate_secret`), statusForA: 200 },
  'GET /v1/webhook_endpoints/:id/deliveries': { request: byKey('GET', (f) => `/v1/webhook_endpoints/${f.endpointId}/deliveries`), statusForA: 200 },
  'GET /v1/events/:id': { request: byKey('GET', (f) => `/v1/events/${f.eventId}`), statusForA: 200 },
  'POST /v1/events/:id/resend': { request: byKey('POST', (f) => `/v1/events/${f.eventId}/resend`, () => ({})), statusForA: 202 },
  'GET /v1/orders/:source_order_id': { request: byKey('GET', (f) => `/v1/orders/${enc(f.sourceOrderId)}`), statusForA: 200 },
  'POST /v1/orders/:source_order_id': {
    request: byKey('POST', (f) => `/v1/orders/${enc(f.sourceOrderId)}`, () => ({ subtotal: 500, customer_details: { email: 'b@example.com' } })),
    statusForA: 200,
  },
  'GET /v1/merchants/:merchant_id': { request: byKey('GET', () => `/v1/merchants/${enc(storeA.store.id)}`), statusForA: 200 },
  'POST /v2/orders/:source_order_id': {
    request: byKey('POST', (f) => `/v2/orders/${enc(f.sourceOrderId)}`, () => ({ subtotal: 500, customer_details: { email: 'b@example.com' } })),
    statusForA: 200,
  },
  'PATCH /v2/orders/:source_order_id': {
    request: byKey('PATCH', (f) => `/v2/orders/${enc(f.sourceOrderId)}`, () => ({ insurance_selected: false, line_items: [{ source_id: 'x', name: 'X', price: 1, quantity: 1 }] })),
    statusForA: 200,
  },
  'POST /v1/orders/:source_order_id/cancel': { request: byKey('POST', (f) => `/v1/orders/${enc(f.sourceOrderId)}/cancel`), statusForA: 200 },
  'POST /v2/orders/:source_order_id/redact': { request: byKey('POST', (f) => `/v2/orders/${enc(f.sourceOrderId)}/redact`), statusForA: 200 },
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
  // A's claim is closed, so A's own decision is a 409 about its status: it reached the claim.
  'POST /v1/claims/:id/status': { request: byKey('POST', (f) => `/v1/claims/${f.claimId}/status`, () => ({ status: 'in_review', note: 'taken by B?' })), statusForA: 409 },
  // An image for A, the error as JSON for B.
  'GET /v1/claims/:id/photos/:photo_id': {
    request: async (f, as) => {
      const response = await fetch(`${service.baseUrl}/v1/claims/${f.claimId}/photos/${f.photoId}`, { headers: { token: as === 'A' ? storeA.liveKey : storeB.liveKey } });
      const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = isJson ? bytes.toString('utf8') : '';
      return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : { bytes: bytes.byteLength }, text };
    },
    statusForA: 200,
  },
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
  'GET /v1/claim_rules': "the key's own store's rules, nothing else",
  'PUT /v1/claim_rules': "sets the key's own store's rules; names no stored object",
  'POST /v1/claim_rules/dry_run': "evaluates a list against the key's own store's claims only",
  'POST /v1/webhook_endpoints': 'creates; names no stored object',
  'GET /v1/webhook_endpoints': "the key's own store's endpoints, nothing else",
  'GET /v1/events': "the key's own store's events, nothing else (its cursor is looked up in the key's store)",
  'POST /v2/orders': "creates; its only reference, quote_id, is checked below (another store's quote never prices it)",
  'POST /v2/addresses/verify': 'no side effects and no stored object',
  'POST /v2/customers/redact': "names a shopper by email; only the key's own store's orders match (test/customer-privacy.test.ts)",
  'POST /v2/customers/data_request': "names a shopper by email; only the key's own store's orders match (test/customer-privacy.test.ts)",
  'POST /v1/tracking/easypost/webhook': 'no API key: EasyPost-signed, matched by the provider reference EasyPost holds',
  'GET /v1/billing/statements': 'names no object; checked below: a store only ever sees its own figures',
  'POST /v1/orders': 'creates, as POST /v2/orders',
  'GET /v1/quote': 'prices a subtotal; names no stored object',
  'GET /v1/merchants': "the key's own store, nothing else",
  'POST /webhooks/:merchant_id': "no API key: signed with a secret derived from the named store's own keys (test/route-plugins.test.ts)",
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
