// The inbound platform webhook (README, Platform webhooks) through real HTTP with real signatures:
// trust, order.placed pricing, fulfilments, refunds and their exact totals under concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { call, orderBody, tableCounts } from './support/http.js';
import { firstPollOf, seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const PLATFORM = 'shopwire';
const SECRET = 'shopwire-shared-secret-0123456789';
let service: TestService;
let shop: SeededStore;
let unconnected: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db); // 1.5 %, minimum 0.98
  unconnected = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, SECRET);
  await createPlatform(service.db, TEST_OPERATOR, 'otherplatform', 'another-secret-0123456789');
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
});
afterAll(async () => service.close());

interface PushOptions {
  secret?: string;
  timestamp?: number;
  /** Seconds from now, worked out when the message is sent (a table computed at load time goes stale). */
  timestampOffset?: number;
  platform?: string;
  signature?: string | null;
}

function pushRaw(raw: string, options: PushOptions = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000) + (options.timestampOffset ?? 0);
  if (options.signature !== null) headers['x-webhook-signature'] = options.signature ?? signWebhook(options.secret ?? SECRET, raw, timestamp);
  return call(service.baseUrl, 'POST', `/api/webhooks/${options.platform ?? PLATFORM}`, { rawBody: raw, headers });
}
const push = (message: unknown, options: PushOptions = {}) => pushRaw(JSON.stringify(message), options);

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}`;

/** An order.placed whose cart is 2 x 62.50 of merchandise plus a protection line. */
function orderPlaced(overrides: Record<string, unknown> = {}, lines?: unknown[]) {
  return {
    merchant: shop.store.slug,
    event: 'order.placed',
    order: {
      id: nextId('po'),
      number: '#5001',
      created_at: '2026-11-20T10:00:00Z',
      customer: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      line_items: lines ?? [
        { id: 'l1', sku: 'DESK-ORG', title: 'Desk organiser', unit_price_cents: 6250, quantity: 2 },
        { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 188, quantity: 1 },
      ],
      ...overrides,
    },
  };
}

async function placed(overrides: Record<string, unknown> = {}, lines?: unknown[]) {
  const message = orderPlaced(overrides, lines);
  const response = await push(message);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { id: message.order.id, ack: response.body };
}

const readOrder = (id: string) => call(service.baseUrl, 'GET', `/v2/orders/${encodeURIComponent(id)}`, { key: shop.liveKey });
const ledger = (sourceOrderId: string) =>
  service.db.premiumLedgerEntry.findMany({ where: { order: { sourceOrderId } }, orderBy: { id: 'asc' }, select: { amountCents: true, reason: true, effectiveAt: true } });

describe('trust', () => {
  it('accepts a correctly signed message', async () => {
    const { ack } = await placed();
    expect(ack).toMatchObject({ received: true, event: 'order.placed', mode: 'live', duplicate: false });
  });

  it.each([
    ['no signature', { signature: null }, 401],
    ['a signature made with another secret', { secret: 'not-the-shared-secret-at-all' }, 401],
    ['a garbled signature header', { signature: 'v1=abc' }, 401],
    ['a timestamp 301 s old (replay)', { timestampOffset: -301 }, 401],
    // 302 rather than 301: a second may tick between signing here and checking there.
    ['a timestamp 302 s ahead', { timestampOffset: 302 }, 401],
    ['an unknown platform', { platform: 'nosuchplatform' }, 404],
  ])('refuses %s, writing nothing', async (_label, options, status) => {
    const before = await tableCounts(service.db);
    const response = await push(orderPlaced(), options as PushOptions);
    expect(response.status).toBe(status);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('accepts a timestamp 299 s old', async () => {
    // 299 s before the second it is signed in: at most 300 s old when checked.
    const response = await push(orderPlaced(), { timestampOffset: -299 });
    expect(response.status).toBe(200);
  });

  it('refuses a body changed after signing', async () => {
    const raw = JSON.stringify(orderPlaced());
    const signature = signWebhook(SECRET, raw);
    const response = await pushRaw(raw.replace('"quantity":2', '"quantity":3'), { signature });
    expect(response.status).toBe(401);
  });

  it('answers 404 for a store without that platform connected, or unknown', async () => {
    for (const merchant of [unconnected.store.slug, 'no-such-store']) {
      const response = await push({ ...orderPlaced(), merchant });
      expect(response.status).toBe(404);
    }
    const viaOther = await push(orderPlaced(), { platform: 'otherplatform', secret: 'another-secret-0123456789' });
    expect(viaOther.status).toBe(404);
  });

  it('refuses cents written with a decimal point, judged on the raw text, and names each field', async () => {
    const before = await tableCounts(service.db);
    const raw = JSON.stringify(orderPlaced({ protection_cents: 777 }))
      .replace('"unit_price_cents":6250', '"unit_price_cents":6250.00')
      .replace('"protection_cents":777', '"protection_cents":7.77e2');
    const response = await pushRaw(raw);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['order.line_items[0].unit_price_cents', 'order.protection_cents']);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('validates the payload, listing every bad field', async () => {
    const response = await push({ merchant: shop.store.slug, event: 'order.placed', order: { line_items: [{ unit_price_cents: -1 }] } });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'order.created_at',
      'order.id',
      'order.line_items[0].id',
      'order.line_items[0].quantity',
      'order.line_items[0].title',
      'order.line_items[0].unit_price_cents',
    ]);
    const unknownEvent = await push({ merchant: shop.store.slug, event: 'order.deleted' });
    expect(unknownEvent.status).toBe(400);
    expect(unknownEvent.body.errors).toEqual([{ field: 'event', message: 'must be one of order.placed, fulfillment.created, refund.created, customer.redact, customer.data_request, store.redact, store.redact_cancelled' }]);
  });
});

describe('order.placed', () => {
  it('books the premium from the configured rate without a quote or protection_cents', async () => {
    const { id, ack } = await placed();
    expect(ack.premium_cents).toBe(188); // 125.00 x 1.5 % = 1.875 -> 1.88
    const order = await readOrder(id);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      platform_id: PLATFORM,
      subtotal: 125,
      amount_covered: 125,
      paid_to_insure: 1.88,
      insured_status: 'insured_selected',
      source_order_number: '#5001',
      first_name: 'Grace',
      source_created_on: '2026-11-20T10:00:00.000Z',
    });
    // The protection line is not merchandise: it is not among the order's line items.
    expect(order.body.line_items.map((l: { source_id: string }) => l.source_id)).toEqual(['l1']);
    expect(await ledger(id)).toEqual([{ amountCents: 188n, reason: 'booking', effectiveAt: new Date('2026-11-20T10:00:00Z') }]);
  });

  it('uses protection_cents when no quote resolves', async () => {
    const { ack } = await placed({ protection_cents: 299 });
    expect(ack.premium_cents).toBe(299);
  });

  describe('with a quote', () => {
    let quoteId: string;
    beforeAll(async () => {
      const quote = await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: { cart: { covered: { amount: '200.00' } } } });
      quoteId = quote.body.id; // 200.00 x 1.5 % = 3.00
    });
    const cart = (cents: number, extra: Record<string, unknown> = {}) => [
      { id: 'm', sku: 'MERCH', title: 'Merchandise', unit_price_cents: cents, quantity: 1 },
      { id: 'p', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 300, quantity: 1, ...extra },
    ];

    it('takes the premium from the quote row, not from protection_cents', async () => {
      expect((await placed({ quote_id: quoteId, protection_cents: 999 }, cart(20_000))).ack.premium_cents).toBe(300);
    });

    it('accepts a cart within max(1 USD, 1 %) of the quote and drops the quote beyond it', async () => {
      // 1 % of 200.00 is 2.00
      expect((await placed({ quote_id: quoteId, protection_cents: 777 }, cart(20_200))).ack.premium_cents).toBe(300);
      expect((await placed({ quote_id: quoteId, protection_cents: 777 }, cart(19_800))).ack.premium_cents).toBe(300);
      expect((await placed({ quote_id: quoteId, protection_cents: 777 }, cart(20_201))).ack.premium_cents).toBe(777);
      expect((await placed({ quote_id: quoteId, protection_cents: 777 }, cart(19_799))).ack.premium_cents).toBe(777);
      // swapped cart, no protection_cents: the rate on 250.00 is 3.75
      expect((await placed({ quote_id: quoteId }, cart(25_000))).ack.premium_cents).toBe(375);
    });

    it('takes tax out of tax-inclusive prices before comparing, and only when tax_cents is sent', async () => {
      const taxed = cart(21_650);
      expect((await placed({ quote_id: quoteId, protection_cents: 777, price_basis: 'tax_inclusive', tax_cents: 1650 }, taxed)).ack.premium_cents).toBe(300);
      expect((await placed({ quote_id: quoteId, protection_cents: 777, price_basis: 'tax_inclusive' }, taxed)).ack.premium_cents).toBe(777);
      expect((await placed({ quote_id: quoteId, protection_cents: 777, tax_cents: 1650 }, taxed)).ack.premium_cents).toBe(777); // pre_tax
    });
  });

  it('recognises the protection line by a declared SKU, then by title; otherwise the order is unprotected', async () => {
    await service.db.store.update({ where: { id: shop.store.id }, data: { protectionSkus: ['ACME-SHIELD'] } });
    await service.settled();
    try {
      const declared = await placed({}, [
        { id: 'a', sku: 'DESK', title: 'Desk', unit_price_cents: 10_000, quantity: 1 },
        { id: 'b', sku: 'acme-shield', title: 'Peace of mind', unit_price_cents: 150, quantity: 1 },
      ]);
      expect(declared.ack.premium_cents).toBe(150); // 100.00 x 1.5 %
      const byTitle = await placed({}, [
        { id: 'a', sku: 'DESK', title: 'Desk', unit_price_cents: 10_000, quantity: 1 },
        { id: 'b', sku: 'SPP-1', title: 'Package Protection Plan', unit_price_cents: 150, quantity: 1 },
      ]);
      expect(byTitle.ack.premium_cents).toBe(150);
      const none = await placed({}, [{ id: 'a', sku: 'DESK', title: 'Desk', unit_price_cents: 10_000, quantity: 1 }]);
      expect(none.ack.premium_cents).toBe(0);
      expect((await readOrder(none.id)).body).toMatchObject({ insured_status: 'not_selected', paid_to_insure: 0, subtotal: 100 });
    } finally {
      await service.db.store.update({ where: { id: shop.store.id }, data: { protectionSkus: [] } });
      await service.settled();
    }
  });

  it('acknowledges a redelivery as a duplicate and books nothing twice', async () => {
    const message = orderPlaced();
    const first = await push(message);
    const again = await push(message);
    expect(first.body.duplicate).toBe(false);
    expect(again.body).toMatchObject({ duplicate: true, premium_cents: 188 });
    expect(await ledger(message.order.id)).toHaveLength(1);
  });

  it('handles 20 parallel deliveries of one order exactly once', async () => {
    const message = orderPlaced();
    const responses = await Promise.all(Array.from({ length: 20 }, () => push(message)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(await ledger(message.order.id)).toHaveLength(1);
  });

  it.each([
    ['mode test', { mode: 'test' }],
    ['mode TEST', { mode: 'TEST' }],
    ['test: true', { test: true }],
  ])('keeps a sandbox order (%s) out of live data and billing', async (_label, flag) => {
    const statement = () => call(service.baseUrl, 'GET', '/v1/billing/statements?month=2026-11', { key: shop.liveKey });
    const billedBefore = (await statement()).body;
    const before = await service.db.premiumLedgerEntry.count();
    const message = orderPlaced(flag);
    const response = await push(message);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ mode: 'test', premium_cents: 188, duplicate: false });
    expect(response.headers.get('x-service-mode')).toBe('test');
    expect((await readOrder(message.order.id)).status).toBe(404);
    expect(await service.db.premiumLedgerEntry.count()).toBe(before);
    expect((await statement()).body).toEqual(billedBefore);
    expect((await push(message)).body.duplicate).toBe(true);
  });

  it('refuses a mode it does not know rather than guessing live', async () => {
    const response = await push(orderPlaced({ mode: 'sandbox' }));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'order.mode', message: 'must be test or live (or absent for live)' }]);
  });
});

describe('fulfillment.created', () => {
  const fulfillment = (orderId: string, id: string, numbers: string[]) => ({
    merchant: shop.store.slug,
    event: 'fulfillment.created',
    order: { id: orderId },
    fulfillment: { id, shipments: numbers.map((tracking_number) => ({ tracking_number })) },
  });

  it('registers each tracking number as a shipment of the order, once', async () => {
    const { id } = await placed();
    const numbers = ['1Z999AA10123456784', `ZZFUL${Date.now()}`];
    const message = fulfillment(id, nextId('ful'), numbers);
    const first = await push(message);
    expect(first.body).toMatchObject({ event: 'fulfillment.created', order_id: id, shipments_registered: 2, duplicate: false });
    const ups = await call(service.baseUrl, 'GET', '/v1/shipments/1Z999AA10123456784', { key: shop.liveKey });
    expect(ups.body).toMatchObject({ courier: 'ups', delivery_status: 'Active' });
    const again = await push(message);
    expect(again.body).toMatchObject({ duplicate: true, shipments_registered: 0 });
    expect(await service.db.shipment.count({ where: { order: { sourceOrderId: id } } })).toBe(2);
    await call(service.baseUrl, 'POST', '/v1/shipments/1Z999AA10123456784/cancel', { key: shop.liveKey });
  });

  it('registers a number named twice in one message once, with one event and one first poll', async () => {
    const { id } = await placed();
    const number = `ZZTWICE${Date.now()}`;
    // The same number as two spellings: normalised, they are one parcel.
    const response = await push(fulfillment(id, nextId('ful'), [number, number.toLowerCase()]));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ shipments_registered: 1, duplicate: false });
    const shipments = await service.db.shipment.findMany({ where: { order: { sourceOrderId: id } }, select: { id: true } });
    expect(shipments).toHaveLength(1);
    const events = await service.db.event.findMany({ where: { storeId: shop.store.id, type: 'shipment.created' }, select: { data: true } });
    expect(events.filter((event) => (event.data as { id?: string }).id === shipments[0]?.id)).toHaveLength(1);
    // Its first poll, waiting in the outbox or already queued, exists once.
    const poll = await firstPollOf(service.db, shipments[0]?.id ?? '');
    expect(poll.waiting + poll.queued).toBe(1);
  });

  it('answers 500 order_not_yet_ingested for an order it has not received, so the sender retries', async () => {
    const response = await push(fulfillment('never-pushed', nextId('ful'), ['ZZNOTYET1']));
    expect(response.status).toBe(500);
    expect(response.body.error_code).toBe('order_not_yet_ingested');
  });

  it('acknowledges a fulfilment of a sandbox order without registering anything', async () => {
    const message = orderPlaced({ mode: 'test' });
    await push(message);
    const response = await push(fulfillment(message.order.id, nextId('ful'), ['ZZSANDBOX1']));
    expect(response.body).toMatchObject({ mode: 'test', shipments_registered: 0 });
    expect(await service.db.shipment.count({ where: { trackingNumber: 'ZZSANDBOX1' } })).toBe(0);
  });
});

describe('refund.created', () => {
  const refund = (orderId: string, refundFields: Record<string, unknown>) => ({
    merchant: shop.store.slug,
    event: 'refund.created',
    order: { id: orderId },
    refund: { id: nextId('ref'), ...refundFields },
  });
  /** An order whose premium is 3.00: protection_cents 300 on 2 x 62.50 of merchandise. */
  const orderWithPremium300 = () =>
    placed({ protection_cents: 300 }, [
      { id: 'l1', sku: 'DESK-ORG', title: 'Desk organiser', unit_price_cents: 6250, quantity: 2 },
      { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 300, quantity: 1 },
      { id: 'l3', sku: 'SLEEVE-1', title: 'Package protection sleeve (accessory)', unit_price_cents: 500, quantity: 1 },
    ]);

  it('moves nothing for a merchandise-only refund', async () => {
    const { id } = await orderWithPremium300();
    const response = await push(refund(id, { amount_cents: 12_500, items: [{ sku: 'DESK-ORG', refunded_cents: 12_500 }] }));
    expect(response.body).toMatchObject({ reversed_cents: 0, premium_cents: 300, duplicate: false });
    expect((await ledger(id)).map((e) => e.reason)).toEqual(['booking']);
  });

  it('reverses exactly the protection line refunded, dated to refund.created_at', async () => {
    const { id } = await orderWithPremium300();
    const response = await push(
      refund(id, { created_at: '2026-11-21T12:00:00Z', items: [{ sku: 'shipping-protection', refunded_cents: 120 }, { sku: 'DESK-ORG', refunded_cents: 6250 }] }),
    );
    expect(response.body).toMatchObject({ reversed_cents: 120, premium_cents: 180 });
    expect((await ledger(id)).at(-1)).toEqual({ amountCents: -120n, reason: 'reversal', effectiveAt: new Date('2026-11-21T12:00:00Z') });
    expect((await readOrder(id)).body).toMatchObject({ paid_to_insure: 1.8, status: 'created' });
  });

  it('matches by SKU only: a line whose title reads like protection, under another SKU, is not reversed', async () => {
    const { id } = await orderWithPremium300();
    const response = await push(refund(id, { items: [{ sku: 'SLEEVE-1', refunded_cents: 500 }] }));
    expect(response.body).toMatchObject({ reversed_cents: 0, premium_cents: 300 });
  });

  it("matches the SKU of a protection line that was found by its title", async () => {
    const { id } = await placed({}, [
      { id: 'a', sku: 'DESK', title: 'Desk', unit_price_cents: 10_000, quantity: 1 },
      { id: 'b', sku: 'SPP-9', title: 'Shipping Protection Plan', unit_price_cents: 150, quantity: 1 },
    ]);
    const response = await push(refund(id, { items: [{ sku: 'SPP-9', refunded_cents: 150 }] }));
    expect(response.body).toMatchObject({ reversed_cents: 150, premium_cents: 0 });
  });

  it('treats a full reversal as a cancellation: cancelled_on set, no new claims', async () => {
    const { id } = await orderWithPremium300();
    const response = await push(refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 300 }] }));
    expect(response.body).toMatchObject({ reversed_cents: 300, premium_cents: 0 });
    const order = await readOrder(id);
    expect(order.body).toMatchObject({ status: 'cancelled', paid_to_insure: 0 });
    expect(order.body.cancelled_on).not.toBeNull();
    // The cancellation is audited as the merchant's is: who (the platform), why, and when.
    const audited = await service.db.auditEvent.findMany({ where: { action: 'order.cancelled', subjectId: order.body.id } });
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ actorKind: 'platform', subjectType: 'order', details: { cause: 'refund' } });
    expect(audited[0]?.createdAt.toISOString()).toBe(order.body.cancelled_on);
    const claim = await call(service.baseUrl, 'POST', '/v1/claims', { key: shop.liveKey, body: { source_order_id: id, reason: 'lost' } });
    expect(claim.status).toBe(409);
  });

  it('clamps several partial refunds to the premium remaining', async () => {
    const { id } = await orderWithPremium300();
    const refunds = [200, 200, 50].map((cents) => refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: cents }] }));
    const reversed: number[] = [];
    for (const message of refunds) reversed.push((await push(message)).body.reversed_cents);
    expect(reversed).toEqual([200, 100, 0]);
    expect((await ledger(id)).map((e) => Number(e.amountCents))).toEqual([300, -200, -100]);
  });

  it('is a no-op when redelivered', async () => {
    const { id } = await orderWithPremium300();
    const message = refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 100 }] });
    expect((await push(message)).body).toMatchObject({ reversed_cents: 100, duplicate: false });
    expect((await push(message)).body).toMatchObject({ reversed_cents: 0, premium_cents: 200, duplicate: true });
    expect(await ledger(id)).toHaveLength(2);
  });

  it('reverses once under 50 parallel deliveries of one refund', async () => {
    const { id } = await orderWithPremium300();
    const message = refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 120 }] });
    const responses = await Promise.all(Array.from({ length: 50 }, () => push(message)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses.filter((r) => !r.body.duplicate).map((r) => r.body.reversed_cents)).toEqual([120]);
    expect((await ledger(id)).map((e) => Number(e.amountCents))).toEqual([300, -120]);
    expect(await service.db.refund.count({ where: { order: { sourceOrderId: id } } })).toBe(1);
  });

  it('never reverses more than the premium under parallel different partial refunds', async () => {
    const { id } = await orderWithPremium300();
    const messages = Array.from({ length: 10 }, () => refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 50 }] }));
    const responses = await Promise.all(messages.map((m) => push(m)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const reversed = responses.map((r) => r.body.reversed_cents as number).sort((a, b) => b - a);
    // 300 of premium in steps of 50: six refunds reverse 50 each, four find nothing left.
    expect(reversed).toEqual([50, 50, 50, 50, 50, 50, 0, 0, 0, 0]);
    const entries = await ledger(id);
    expect(entries.reduce((sum, e) => sum + Number(e.amountCents), 0)).toBe(0);
    expect((await readOrder(id)).body.status).toBe('cancelled');
  });

  it('refuses a refund without refund.id with 400', async () => {
    const { id } = await orderWithPremium300();
    const response = await push({ merchant: shop.store.slug, event: 'refund.created', order: { id }, refund: { items: [] } });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'refund.id', message: 'is required' }]);
  });

  it('answers 500 order_not_yet_ingested for an order it has not received', async () => {
    const response = await push(refund('never-pushed', { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 10 }] }));
    expect(response.status).toBe(500);
    expect(response.body.error_code).toBe('order_not_yet_ingested');
  });

  it('dates a refund without created_at to its receipt', async () => {
    const { id } = await orderWithPremium300();
    const before = Date.now();
    await push(refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 10 }] }));
    const entry = (await ledger(id)).at(-1);
    expect(entry?.effectiveAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(entry?.effectiveAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('also works for orders registered over REST (refund by a built-in SKU)', async () => {
    const body = orderBody();
    await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body });
    const response = await push(refund(body.source_order_id as string, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 88 }] }));
    expect(response.body).toMatchObject({ reversed_cents: 88, premium_cents: 100 });
  });
});
