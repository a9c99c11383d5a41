// Orders through real HTTP (README, Quickstart and Concepts): create, read, update, cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, orderBody, tableCounts } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let shop: SeededStore;
let otherShop: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db); // 1.5 %, minimum 0.98
  otherShop = await seedStore(service.db);
});
afterAll(async () => service.close());

const post = (path: string, key: string, body?: unknown) => call(service.baseUrl, 'POST', path, { key, body });
const createOrder = (body: Record<string, unknown>, key = shop.liveKey) => post('/v2/orders', key, body);
const ledger = (orderId: string) =>
  service.db.premiumLedgerEntry.findMany({ where: { orderId }, orderBy: { id: 'asc' }, select: { amountCents: true, reason: true, effectiveAt: true, quoteId: true } });
const fields = (response: { body: { errors: Array<{ field: string }> } }) => response.body.errors.map((e) => e.field).sort();

async function quote(amount: string, key = shop.liveKey): Promise<string> {
  const response = await post('/v2/quotes', key, { cart: { covered: { amount } } });
  expect(response.status).toBe(201);
  return response.body.id as string;
}

describe('POST /v2/orders', () => {
  it('creates the order, books the premium and answers the SPEC 2.5 shape', async () => {
    const body = orderBody({ source_order_number: '#1001', order_total: 141.23, shipping_total: 9.95, taxes: 6.28 });
    const response = await createOrder(body);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      merchant_id: shop.store.id,
      source_order_id: body.source_order_id,
      source_order_number: '#1001',
      status: 'created',
      insured_status: 'insured_selected',
      currency: 'USD',
      exchange_rate: 1,
      subtotal: 125,
      subtotal_usd: 125,
      amount_covered: 125,
      paid_to_insure: 1.88, // 125.00 x 1.5 % = 1.875 -> 1.88
      paid_to_insure_usd: 1.88,
      order_total: 141.23,
      shipping_total: 9.95,
      taxes: 6.28,
      discounts_total: null,
      first_name: 'Ada',
      last_name: 'Lovelace',
      has_pii: true,
      platform_id: 'api',
      source_created_on: '2026-11-20T10:00:00.000Z',
      cancelled_on: null,
    });
    expect(response.body.order_number).toMatch(/^OP-\d+$/);
    expect(response.body.line_items).toEqual([
      { source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2, source_product_id: null, sku: 'DESK-ORG-W', is_insured: null, image_url: null },
    ]);
    const entries = await ledger(response.body.id);
    // The booking is dated to the placement time, so the order lands in its month.
    expect(entries).toEqual([{ amountCents: 188n, reason: 'booking', effectiveAt: new Date('2026-11-20T10:00:00Z'), quoteId: null }]);
  });

  it('defaults source_order_number to source_order_id', async () => {
    const response = await createOrder(orderBody({ source_order_id: 'A-77' }));
    expect(response.body.source_order_number).toBe('A-77');
  });

  it('records an order without protection and books nothing when insurance_selected is false', async () => {
    const response = await createOrder(orderBody({ insurance_selected: false }));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ insured_status: 'not_selected', paid_to_insure: 0, amount_covered: 0 });
    expect(await ledger(response.body.id)).toEqual([]);
  });

  it('reports every missing required field at once', async () => {
    const response = await createOrder({});
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual([
      'customer_details',
      'insurance_selected',
      'line_items',
      'shipping_details',
      'source_created_on',
      'source_order_id',
      'subtotal',
    ]);
    expect(response.body.errors.every((e: { message: string }) => e.message === 'is required')).toBe(true);
  });

  it('reports nested bad fields with their paths', async () => {
    const response = await createOrder(
      orderBody({
        customer_details: { first_name: 'Ada', email: 'not-an-email' },
        shipping_details: { city: 'X', country_code: 'usa' },
        line_items: [{ source_id: 'a', name: 'A', price: 1, quantity: 1 }, { source_id: 'b', name: 'B', price: -1, quantity: 0.5 }],
        source_created_on: '2026-11-20 10:00',
      }),
    );
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual([
      'customer_details.email',
      'customer_details.last_name',
      'line_items[1].price',
      'line_items[1].quantity',
      'shipping_details.country_code',
      'shipping_details.street_address1',
      'source_created_on',
    ]);
    const quantity = response.body.errors.find((e: { field: string }) => e.field === 'line_items[1].quantity');
    expect(quantity.message).toBe('must be a whole number; must be at least 1');
  });

  it.each([
    ['subtotal', { subtotal: 125.005 }, 'subtotal'],
    ['a line price', { line_items: [{ source_id: 'a', name: 'A', price: 10.001, quantity: 1 }] }, 'line_items[0].price'],
    ['taxes', { taxes: 0.125 }, 'taxes'],
  ])('rejects a third decimal place in %s with 400, never rounding', async (_label, overrides, field) => {
    const before = await tableCounts(service.db);
    const response = await createOrder(orderBody(overrides));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field, message: expect.stringMatching(/at most two decimal places/) }]);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('rejects a non-USD currency', async () => {
    const response = await createOrder(orderBody({ currency: 'CAD' }));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'currency', message: 'only USD is supported' }]);
  });

  it('answers 422 for line items sharing a source_id, naming each repeat, and writes nothing', async () => {
    const before = await tableCounts(service.db);
    const line = { name: 'A', price: 1, quantity: 1 };
    const response = await createOrder(
      orderBody({ line_items: [{ ...line, source_id: 'x' }, { ...line, source_id: 'y' }, { ...line, source_id: 'x' }, { ...line, source_id: 'y' }] }),
    );
    expect(response.status).toBe(422);
    expect(response.body.error_code).toBe('unprocessable');
    expect(fields(response)).toEqual(['line_items[2].source_id', 'line_items[3].source_id']);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('answers 409 for a repeated source_order_id and keeps the first order', async () => {
    const body = orderBody();
    const first = await createOrder(body);
    const second = await createOrder({ ...body, subtotal: 999 });
    expect(second.status).toBe(409);
    expect(second.body.error_code).toBe('conflict');
    const read = await call(service.baseUrl, 'GET', `/v2/orders/${body.source_order_id}`, { key: shop.liveKey });
    expect(read.body.id).toBe(first.body.id);
    expect(read.body.subtotal).toBe(125);
  });

  it('lets the same source_order_id exist once in each store', async () => {
    const body = orderBody();
    expect((await createOrder(body)).status).toBe(201);
    expect((await createOrder(body, otherShop.liveKey)).status).toBe(201);
  });

  it('gives exactly one 201 and nineteen 409 for 20 parallel creates of one order', async () => {
    const body = orderBody();
    const responses = await Promise.all(Array.from({ length: 20 }, () => createOrder(body)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const orders = await service.db.order.findMany({ where: { sourceOrderId: body.source_order_id as string }, include: { lineItems: true, ledgerEntries: true } });
    expect(orders).toHaveLength(1);
    expect(orders[0]?.lineItems).toHaveLength(1);
    expect(orders[0]?.ledgerEntries.map((e) => e.amountCents)).toEqual([188n]);
  });
});

describe('pricing from a quote', () => {
  // A store whose rate changes after the quote was issued shows which of the two priced the order.
  let repriced: SeededStore;
  beforeAll(async () => {
    repriced = await seedStore(service.db);
  });
  // Changed behind the API; settled() waits until the service has heard of it (docs/performance.md).
  const setRate = async (rateBps: number) => {
    await service.db.store.update({ where: { id: repriced.store.id }, data: { rateBps } });
    await service.settled();
  };
  const raiseRate = () => setRate(300);
  const lowerRate = () => setRate(150);
  const createWithQuote = async (quoteId: string, overrides: Record<string, unknown> = {}) => {
    const response = await createOrder(orderBody({ subtotal: 200, quote_id: quoteId, ...overrides }), repriced.liveKey);
    expect(response.status).toBe(201);
    return response.body;
  };

  it('uses the quoted premium when the quote resolves', async () => {
    const quoteId = await quote('200.00', repriced.liveKey); // 200.00 x 1.5 % = 3.00
    await raiseRate(); // the rate now gives 6.00
    try {
      const order = await createWithQuote(quoteId);
      expect(order.paid_to_insure).toBe(3);
      expect((await ledger(order.id))[0]?.quoteId).toBe(quoteId);
      const withoutQuote = await createOrder(orderBody({ subtotal: 200 }), repriced.liveKey);
      expect(withoutQuote.body.paid_to_insure).toBe(6);
    } finally {
      await lowerRate();
    }
  });

  it('uses a quote another instance issued, read from the database, for its store only', async () => {
    // Written as another instance would have: this one has never seen it. 200.00 at 2.5 % = 5.00.
    const [issued] = await service.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO quotes (store_id, covered_cents, premium_cents, rate_bps, min_premium_cents, created_at, expires_at)
      VALUES (${repriced.store.id}::uuid, 20000, 500, 250, 98, now(), now() + interval '1 day') RETURNING id`;
    const quoteId = issued?.id as string;
    const other = await seedStore(service.db);
    const elsewhere = await createOrder(orderBody({ subtotal: 200, quote_id: quoteId }), other.liveKey);
    expect(elsewhere.body.paid_to_insure).toBe(3); // another store's quote: its own rate, 1.5 %
    const order = await createWithQuote(quoteId);
    expect(order.paid_to_insure).toBe(5);
    expect((await ledger(order.id))[0]?.quoteId).toBe(quoteId);
    // Now known to this instance: still its store's only.
    const later = await createOrder(orderBody({ subtotal: 200, quote_id: quoteId }), other.liveKey);
    expect(later.body.paid_to_insure).toBe(3);
  });

  it('prices from the configured rate once the quote is more than 24 hours old', async () => {
    const quoteId = await quote('200.00', repriced.liveKey);
    await raiseRate();
    try {
      service.clock.advance(24 * 60 * 60 * 1000 + 1);
      const order = await createWithQuote(quoteId);
      expect(order.paid_to_insure).toBe(6);
    } finally {
      service.clock.advance(-(24 * 60 * 60 * 1000 + 1));
      await lowerRate();
    }
  });

  it('still uses a quote just inside 24 hours', async () => {
    const quoteId = await quote('200.00', repriced.liveKey);
    await raiseRate();
    try {
      service.clock.advance(24 * 60 * 60 * 1000 - 60_000);
      const order = await createWithQuote(quoteId);
      expect(order.paid_to_insure).toBe(3);
    } finally {
      service.clock.advance(-(24 * 60 * 60 * 1000 - 60_000));
      await lowerRate();
    }
  });

  it.each([
    ['unknown', '00000000-0000-4000-8000-000000000000'],
    ['malformed', 'not-a-quote'],
    ['empty', ''],
    ['test-key', 'test_7d0f9b8e-4a53-4f0e-9b2e-2f1c5f3b8a11'],
  ])('prices from the rate for an %s quote id, without failing the order', async (_label, quoteId) => {
    await raiseRate();
    try {
      expect((await createWithQuote(quoteId)).paid_to_insure).toBe(6);
    } finally {
      await lowerRate();
    }
  });

  it("prices from the rate for another store's quote", async () => {
    const foreign = await quote('200.00', otherShop.liveKey);
    await raiseRate();
    try {
      expect((await createWithQuote(foreign)).paid_to_insure).toBe(6);
    } finally {
      await lowerRate();
    }
  });

  it('prices from the rate when the cart no longer matches the quote (cart swap)', async () => {
    const quoteId = await quote('200.00', repriced.liveKey);
    await raiseRate();
    try {
      // within max(1 USD, 1 %) of 200.00 is +-2.00
      expect((await createWithQuote(quoteId, { subtotal: 202 })).paid_to_insure).toBe(3);
      // 202.01 x 3 % = 6.0603 -> 6.06
      expect((await createWithQuote(quoteId, { subtotal: 202.01 })).paid_to_insure).toBe(6.06);
    } finally {
      await lowerRate();
    }
  });

  it('never resolves a quote for a test key', async () => {
    const quoteId = await quote('200.00', repriced.liveKey);
    await raiseRate();
    try {
      const response = await createOrder(orderBody({ subtotal: 200, quote_id: quoteId }), repriced.testKey);
      expect(response.body.paid_to_insure).toBe(6);
    } finally {
      await lowerRate();
    }
  });
});

describe('GET, update and cancel', () => {
  async function existingOrder(overrides: Record<string, unknown> = {}) {
    const response = await createOrder(orderBody(overrides));
    expect(response.status).toBe(201);
    return response.body as { id: string; source_order_id: string };
  }
  const path = (order: { source_order_id: string }) => `/v2/orders/${encodeURIComponent(order.source_order_id)}`;

  it('reads an order by source_order_id, including ids that need URL encoding', async () => {
    const order = await existingOrder({ source_order_id: '#1001/β' });
    const response = await call(service.baseUrl, 'GET', path(order), { key: shop.liveKey });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(order.id);
  });

  it("answers 404 to another store's key on read, update and cancel, and changes nothing", async () => {
    const order = await existingOrder();
    const before = await tableCounts(service.db);
    const read = await call(service.baseUrl, 'GET', path(order), { key: otherShop.liveKey });
    const update = await post(path(order), otherShop.liveKey, { subtotal: 1 });
    const patch = await call(service.baseUrl, 'PATCH', path(order), { key: otherShop.liveKey, body: { subtotal: 1 } });
    const cancel = await post(`/v1/orders/${order.source_order_id}/cancel`, otherShop.liveKey);
    for (const response of [read, update, patch, cancel]) {
      expect(response.status).toBe(404);
      expect(response.body.error_code).toBe('not_found');
    }
    expect(await tableCounts(service.db)).toEqual(before);
    const mine = await call(service.baseUrl, 'GET', path(order), { key: shop.liveKey });
    expect(mine.body).toMatchObject({ subtotal: 125, status: 'created' });
  });

  it('merges the fields sent and keeps the others, without re-pricing', async () => {
    const order = await existingOrder({ order_total: 141.23 });
    const response = await call(service.baseUrl, 'PATCH', path(order), {
      key: shop.liveKey,
      body: { shipping_total: 12.5, customer_details: { last_name: 'Byron' }, shipping_details: { zip: '94044' } },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ shipping_total: 12.5, order_total: 141.23, first_name: 'Ada', last_name: 'Byron', paid_to_insure: 1.88 });
    const row = await service.db.order.findFirstOrThrow({ where: { id: order.id } });
    expect(row.customerEmail).toBe('ada@example.com');
    expect(row.shippingAddress).toMatchObject({ zip: '94044', city: 'Mountain View', street_address1: '1600 Amphitheatre Pkwy' });
    expect((await ledger(order.id)).map((e) => e.reason)).toEqual(['booking']);
  });

  it('replaces line_items whole', async () => {
    const order = await existingOrder();
    const response = await post(path(order), shop.liveKey, {
      line_items: [
        { source_id: 'n1', name: 'Lamp', price: 30, quantity: 1 },
        { source_id: 'n2', name: 'Bulb', price: 2.5, quantity: 4 },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.line_items.map((l: { source_id: string }) => l.source_id)).toEqual(['n1', 'n2']);
    expect(await service.db.orderLineItem.count({ where: { orderId: order.id } })).toBe(2);
  });

  it('re-prices when subtotal changes, with a re-pricing entry for the difference', async () => {
    const order = await existingOrder();
    service.clock.advance(0);
    const response = await post(path(order), shop.liveKey, { subtotal: 300 });
    expect(response.status).toBe(200);
    // 300.00 x 1.5 % = 4.50: +2.62 on top of the 1.88 booked
    expect(response.body).toMatchObject({ subtotal: 300, amount_covered: 300, paid_to_insure: 4.5 });
    expect((await ledger(order.id)).map((e) => [e.reason, e.amountCents])).toEqual([
      ['booking', 188n],
      ['repricing', 262n],
    ]);
  });

  it('re-prices to zero when protection is dropped, and back when it is taken again', async () => {
    const order = await existingOrder();
    const dropped = await post(path(order), shop.liveKey, { insurance_selected: false });
    expect(dropped.body).toMatchObject({ insured_status: 'not_selected', paid_to_insure: 0, amount_covered: 0 });
    const taken = await post(path(order), shop.liveKey, { insurance_selected: true });
    expect(taken.body).toMatchObject({ insured_status: 'insured_selected', paid_to_insure: 1.88, amount_covered: 125 });
    expect((await ledger(order.id)).map((e) => [e.reason, e.amountCents])).toEqual([
      ['booking', 188n],
      ['repricing', -188n],
      ['repricing', 188n],
    ]);
  });

  it('does not re-price when the subtotal sent equals the current one', async () => {
    const order = await existingOrder();
    await post(path(order), shop.liveKey, { subtotal: 125, taxes: 3 });
    expect((await ledger(order.id)).map((e) => e.reason)).toEqual(['booking']);
  });

  it('treats an empty body as a no-op', async () => {
    const order = await existingOrder();
    const before = await service.db.order.findFirstOrThrow({ where: { id: order.id } });
    const response = await post(path(order), shop.liveKey, {});
    const noBody = await call(service.baseUrl, 'POST', path(order), { key: shop.liveKey });
    expect(response.status).toBe(200);
    expect(noBody.status).toBe(200);
    const after = await service.db.order.findFirstOrThrow({ where: { id: order.id } });
    expect(after.updatedOn).toEqual(before.updatedOn);
  });

  it('validates updates like creates: 400 for a third decimal, 422 for duplicate line ids, nothing written', async () => {
    const order = await existingOrder();
    const before = await tableCounts(service.db);
    const decimal = await post(path(order), shop.liveKey, { subtotal: 1.001 });
    expect(decimal.status).toBe(400);
    const line = { name: 'A', price: 1, quantity: 1 };
    const duplicate = await post(path(order), shop.liveKey, { line_items: [{ ...line, source_id: 'a' }, { ...line, source_id: 'a' }] });
    expect(duplicate.status).toBe(422);
    const incomplete = await post(path(order), shop.liveKey, { billing_address: { city: 'Nowhere' } });
    expect(incomplete.status).toBe(400);
    expect(fields(incomplete)).toEqual(['billing_address.country_code', 'billing_address.street_address1']);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('answers 404 to an update of an order that does not exist', async () => {
    const response = await post('/v2/orders/never-created', shop.liveKey, { subtotal: 10 });
    expect(response.status).toBe(404);
  });

  it('cancels once: cancelled_on is set, kept on repeats, and the premium stays booked', async () => {
    const order = await existingOrder();
    const first = await post(`/v1/orders/${order.source_order_id}/cancel`, shop.liveKey);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('cancelled');
    expect(first.body.cancelled_on).not.toBeNull();
    service.clock.advance(5_000);
    try {
      const again = await post(`/v1/orders/${order.source_order_id}/cancel`, shop.liveKey);
      expect(again.status).toBe(200);
      expect(again.body.cancelled_on).toBe(first.body.cancelled_on);
    } finally {
      service.clock.advance(-5_000);
    }
    expect(first.body.paid_to_insure).toBe(1.88);
    expect((await ledger(order.id)).map((e) => e.reason)).toEqual(['booking']);
  });

  it('answers 404 to a cancel of an unknown order', async () => {
    const response = await post('/v1/orders/never-created/cancel', shop.liveKey);
    expect(response.status).toBe(404);
  });
});

describe('test keys', () => {
  it('validate exactly like live keys', async () => {
    const response = await createOrder({ subtotal: 1.234 }, shop.testKey);
    expect(response.status).toBe(400);
    expect(fields(response)).toContain('subtotal');
    const duplicate = await createOrder(
      orderBody({ line_items: [{ source_id: 'a', name: 'A', price: 1, quantity: 1 }, { source_id: 'a', name: 'A', price: 1, quantity: 1 }] }),
      shop.testKey,
    );
    expect(duplicate.status).toBe(422);
  });

  it('answer a realistic test_ order and leave every table unchanged', async () => {
    const before = await tableCounts(service.db);
    const body = orderBody();
    const response = await createOrder(body, shop.testKey);
    expect(response.status).toBe(201);
    expect(response.body.id).toMatch(/^test_/);
    expect(response.body).toMatchObject({ source_order_id: body.source_order_id, paid_to_insure: 1.88, status: 'created', merchant_id: shop.store.id });
    // Repeating the same id is fine: nothing was stored.
    expect((await createOrder(body, shop.testKey)).status).toBe(201);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('never see live data: reads, updates and cancels answer 404', async () => {
    const live = await createOrder(orderBody());
    const id = live.body.source_order_id as string;
    expect((await call(service.baseUrl, 'GET', `/v2/orders/${id}`, { key: shop.testKey })).status).toBe(404);
    expect((await post(`/v2/orders/${id}`, shop.testKey, { subtotal: 1 })).status).toBe(404);
    expect((await post(`/v1/orders/${id}/cancel`, shop.testKey)).status).toBe(404);
    const row = await service.db.order.findFirstOrThrow({ where: { id: live.body.id } });
    expect(row.status).toBe('created');
    expect(row.subtotalCents).toBe(12_500n);
  });
});
