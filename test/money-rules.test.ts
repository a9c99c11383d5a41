// The edges of the money rules where the specification is silent, as decided in the README's
// "Money rules": a cancelled order no longer re-prices, source_created_on cannot move after the
// booking, a credit is never dated before the premium it reverses (nor after receipt), a refund id
// reused on another order is refused, a full refund cancels an order whose claim stays open, and
// TRUNCATE cannot empty the ledger (test/migrations.test.ts). Each case was reproduced as a loss
// before its rule: 10.00 of premium booked on a refunded order, a credit in a month before the
// order existed, a reversal silently skipped.
// Premiums are worked by hand from the store's terms: 1.5 % of the covered amount, minimum 0.98.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { creditDate } from '../server/domain/billing/index.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const PLATFORM = 'moneyshop';
const SECRET = 'moneyshop-shared-secret-0123456789';
let service: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService({ exposeMetrics: true });
  shop = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
  // Re-pricings and receipts are dated to the service clock: 2026-11-25 12:00 UTC.
  service.clock.advance(Date.parse('2026-11-25T12:00:00Z') - service.clock.now().getTime());
});
afterAll(async () => service.close());

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}`;

const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: shop.liveKey, ...(body === undefined ? {} : { body }) });
function push(message: unknown) {
  const raw = JSON.stringify(message);
  return call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(SECRET, raw, Math.floor(service.clock.now().getTime() / 1000)) },
  });
}

/** A pushed order placed on 2026-11-20 10:00 UTC whose premium is protection_cents 300 (3.00). */
async function pushedOrder(): Promise<string> {
  const id = nextId('po');
  const response = await push({
    merchant: shop.store.slug,
    event: 'order.placed',
    order: {
      id,
      created_at: '2026-11-20T10:00:00Z',
      protection_cents: 300,
      customer: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      line_items: [
        { id: 'l1', sku: 'DESK-ORG', title: 'Desk organiser', unit_price_cents: 6250, quantity: 2 },
        { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 300, quantity: 1 },
      ],
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.premium_cents).toBe(300);
  return id;
}

const refund = (orderId: string, refundFields: Record<string, unknown>) =>
  push({ merchant: shop.store.slug, event: 'refund.created', order: { id: orderId }, refund: { id: nextId('ref'), ...refundFields } });

const ledger = (sourceOrderId: string) =>
  service.db.premiumLedgerEntry.findMany({
    where: { order: { sourceOrderId, storeId: shop.store.id } },
    orderBy: { id: 'asc' },
    select: { amountCents: true, reason: true, effectiveAt: true },
  });
const statement = async (month: string) => (await api('GET', `/v1/billing/statements?month=${month}`)).body as { net_total: number; credits: { total: number } };
async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 'NaN');
}

describe('a cancelled order no longer re-prices', () => {
  it('refuses a new subtotal or insurance_selected with 409 naming them, and books nothing', async () => {
    const body = orderBody({ subtotal: 125 }); // 1.875 -> 1.88
    expect((await api('POST', '/v2/orders', body)).body.paid_to_insure).toBe(1.88);
    const id = body.source_order_id as string;
    expect((await api('POST', `/v1/orders/${id}/cancel`)).status).toBe(200);

    for (const method of ['POST', 'PATCH']) {
      const changed = await api(method, `/v2/orders/${id}`, { subtotal: 666.67, insurance_selected: false });
      expect(changed.status).toBe(409);
      expect(changed.body.error_code).toBe('conflict');
      expect(changed.body.errors.map((e: { field: string }) => e.field)).toEqual(['subtotal', 'insurance_selected']);
    }
    // The stored values again, and fields that do not price, are still taken.
    const same = await api('PATCH', `/v2/orders/${id}`, { subtotal: 125, insurance_selected: true, source_order_number: '#A-1' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ source_order_number: '#A-1', subtotal: 125, paid_to_insure: 1.88, status: 'cancelled' });
    expect((await ledger(id)).map((e) => [e.reason, Number(e.amountCents)])).toEqual([['booking', 188]]);
  });

  it('holds for an order a full refund cancelled: no new premium after the reversal', async () => {
    const id = await pushedOrder();
    expect((await refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 300 }] })).body.reversed_cents).toBe(300);
    const repriced = await api('PATCH', `/v2/orders/${encodeURIComponent(id)}`, { subtotal: 666.67 });
    expect(repriced.status).toBe(409);
    const read = await api('GET', `/v2/orders/${encodeURIComponent(id)}`);
    expect(read.body).toMatchObject({ status: 'cancelled', paid_to_insure: 0 });
    expect((await ledger(id)).map((e) => Number(e.amountCents))).toEqual([300, -300]);
  });
});

describe('source_created_on cannot move once the premium is booked', () => {
  it('refuses another instant with 409 naming it, and takes the same instant written otherwise', async () => {
    const body = orderBody({ subtotal: 200, source_created_on: '2026-03-31T23:30:00Z' }); // 3.00
    expect((await api('POST', '/v2/orders', body)).status).toBe(201);
    const id = body.source_order_id as string;
    const moved = await api('PATCH', `/v2/orders/${id}`, { source_created_on: '2026-04-01T00:30:00Z' });
    expect(moved.status).toBe(409);
    expect(moved.body.errors).toEqual([expect.objectContaining({ field: 'source_created_on' })]);
    const same = await api('PATCH', `/v2/orders/${id}`, { source_created_on: '2026-04-01T01:30:00+02:00' });
    expect(same.status).toBe(200);
    expect(same.body.source_created_on).toBe('2026-03-31T23:30:00.000Z');
    const entries = await ledger(id);
    expect(entries.map((e) => e.effectiveAt.toISOString())).toEqual(['2026-03-31T23:30:00.000Z']);
  });
});

describe('the date of a credit', () => {
  it('is never before the booking it reverses: a refund dated 2020-01 lands in the month of the order', async () => {
    const id = await pushedOrder();
    const before2020 = await statement('2020-01');
    const response = await refund(id, { created_at: '2020-01-15T00:00:00Z', items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 100 }] });
    expect(response.body.reversed_cents).toBe(100);
    const entries = await ledger(id);
    expect(entries.map((e) => [Number(e.amountCents), e.effectiveAt.toISOString()])).toEqual([
      [300, '2026-11-20T10:00:00.000Z'],
      [-100, '2026-11-20T10:00:00.000Z'],
    ]);
    expect(await statement('2020-01')).toEqual(before2020);
  });

  it('is never after receipt: a refund dated in 2030 is credited when it arrived', async () => {
    const id = await pushedOrder();
    const refundId = nextId('future-ref');
    await refund(id, { id: refundId, created_at: '2030-06-01T00:00:00Z', items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 50 }] });
    const credit = (await ledger(id)).at(-1);
    const stored = await service.db.refund.findFirstOrThrow({ where: { sourceRefundId: refundId }, select: { receivedAt: true, refundedAt: true } });
    // The service clock stands at 2026-11-25 12:00 UTC (plus the seconds the test has run).
    expect(credit?.effectiveAt.toISOString()).toBe(stored.receivedAt.toISOString());
    expect(stored.receivedAt.toISOString().slice(0, 16)).toBe('2026-11-25T12:00');
    expect(stored.refundedAt?.toISOString()).toBe('2030-06-01T00:00:00.000Z');
  });

  it('is worked out from the refund date, the latest charge and the receipt', () => {
    const receipt = new Date('2026-11-25T12:00:00Z');
    const charged = new Date('2026-11-20T10:00:00Z');
    expect(creditDate(new Date('2026-11-22T00:00:00Z'), charged, receipt).toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(creditDate(new Date('2020-01-15T00:00:00Z'), charged, receipt).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(creditDate(new Date('2030-01-01T00:00:00Z'), charged, receipt).toISOString()).toBe('2026-11-25T12:00:00.000Z');
    expect(creditDate(undefined, charged, receipt).toISOString()).toBe('2026-11-25T12:00:00.000Z');
    expect(creditDate(new Date('2026-11-01T00:00:00Z'), null, receipt).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });
});

describe('a refund id reused on another order of the store', () => {
  it('is refused with 409 naming refund.id, reverses nothing, and is counted; the same order still gets a duplicate', async () => {
    const first = await pushedOrder();
    const second = await pushedOrder();
    const refundId = nextId('shared-ref');
    const items = [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 300 }];
    const message = (orderId: string) => ({ merchant: shop.store.slug, event: 'refund.created', order: { id: orderId }, refund: { id: refundId, items } });
    expect((await push(message(first))).body).toMatchObject({ reversed_cents: 300, duplicate: false });

    const countedBefore = await metric('refund_id_reused_total');
    const reused = await push(message(second));
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ error_code: 'conflict', errors: [expect.objectContaining({ field: 'refund.id' })] });
    expect(await metric('refund_id_reused_total')).toBe(countedBefore + 1);
    expect((await ledger(second)).map((e) => Number(e.amountCents))).toEqual([300]);

    expect((await push(message(first))).body).toMatchObject({ reversed_cents: 0, duplicate: true });
  });
});

describe('a full refund while a claim is open', () => {
  it('reverses the whole premium and cancels the order; the claim stays open; no new claim is taken', async () => {
    const id = await pushedOrder();
    const claim = await api('POST', '/v1/claims', { source_order_id: id, reason: 'lost' });
    expect(claim.status, JSON.stringify(claim.body)).toBe(201);
    // A merchant's cancel is refused while the claim is open...
    expect((await api('POST', `/v1/orders/${encodeURIComponent(id)}/cancel`)).status).toBe(409);

    // ...but a refund cannot be: the money already went back.
    const countedBefore = await metric('orders_cancelled_with_open_claim_total');
    const response = await refund(id, { items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 300 }] });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ reversed_cents: 300, premium_cents: 0 });
    expect(await metric('orders_cancelled_with_open_claim_total')).toBe(countedBefore + 1);

    const order = await api('GET', `/v2/orders/${encodeURIComponent(id)}`);
    expect(order.body).toMatchObject({ status: 'cancelled', paid_to_insure: 0 });
    expect(order.body.cancelled_on).not.toBeNull();
    expect((await api('GET', `/v1/claims/${claim.body.id as string}`)).body.status).toBe('open');
    expect((await api('POST', `/v1/orders/${encodeURIComponent(id)}/cancel`)).status).toBe(200);
    const another = await api('POST', '/v1/claims', { source_order_id: id, reason: 'damaged' });
    expect(another.status).toBeGreaterThanOrEqual(400);
    expect(another.status).toBeLessThan(500);
  });
});
