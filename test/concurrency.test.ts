// Concurrency, with exact totals, all through real HTTP against one instance and a real PostgreSQL:
// duplicate creates, redelivered and competing refunds, cancel against claim, duplicate shipment
// registrations and competing re-pricing updates. No answer may ever be a 5xx: a deadlock, a
// serialization failure or a transaction timeout would reach the client as a 500, and the server's
// own error log must stay empty too.
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms.js';
import { createLogger } from '../server/logger.js';
import { call, orderBody, type ApiResponse, type CallOptions } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const PLATFORM = 'concplat';
const SECRET = 'concurrency-shared-secret-0123456789';

const errorLines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    errorLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

let service: TestService;
let shop: SeededStore;

beforeAll(async () => {
  // Warnings and errors only: every line that reaches this log is a failure of the test.
  service = await startService({ logger: createLogger('warn', capture) });
  shop = await seedStore(service.db); // 1.5 %, minimum 0.98, no cap
  await createPlatform(service.db, PLATFORM, SECRET);
  await connectStore(service.db, shop.store.slug, PLATFORM);
});
afterAll(async () => service.close());

/** Every answer of the suite, to prove that none was a 5xx. */
const answers: Array<{ method: string; path: string; status: number; body: unknown }> = [];
async function api(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const response = await call(service.baseUrl, method, path, options);
  answers.push({ method, path, status: response.status, body: response.body });
  return response;
}
// Each test answers for its own requests and log lines.
let answersChecked = 0;
let errorLinesChecked = 0;
afterEach(() => {
  const newAnswers = answers.slice(answersChecked);
  const newErrorLines = errorLines.slice(errorLinesChecked);
  answersChecked = answers.length;
  errorLinesChecked = errorLines.length;
  expect(newAnswers.filter((a) => a.status >= 500)).toEqual([]);
  expect(newErrorLines).toEqual([]);
});

const post = (path: string, body?: unknown) => api('POST', path, { key: shop.liveKey, body });
const readOrder = (id: string) => api('GET', `/v2/orders/${encodeURIComponent(id)}`, { key: shop.liveKey });
const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status).sort();
const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

function pushSigned(message: unknown): Promise<ApiResponse> {
  const raw = JSON.stringify(message);
  return api('POST', `/api/webhooks/${PLATFORM}`, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(SECRET, raw) },
  });
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}`;
const refund = (sourceOrderId: string, cents: number, id = nextId('ref')) => ({
  merchant: shop.store.slug,
  event: 'refund.created',
  order: { id: sourceOrderId },
  refund: { id, items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: cents }] },
});

/** The store's premium in cents: max(98, round_half_up(subtotal x 1.5 %)), 0 when not insured. */
function premiumCents(subtotalCents: number, insured: boolean): number {
  if (!insured) return 0;
  return Math.max(98, Math.floor((subtotalCents * 150 + 5000) / 10_000));
}

async function ledgerOf(sourceOrderId: string) {
  const entries = await service.db.premiumLedgerEntry.findMany({
    where: { order: { storeId: shop.store.id, sourceOrderId } },
    orderBy: { id: 'asc' },
    select: { amountCents: true, reason: true, refundId: true },
  });
  return entries.map((e) => ({ amountCents: Number(e.amountCents), reason: e.reason, refundId: e.refundId }));
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** A protected order of 125.00: 1.88 of premium. */
async function order188(overrides: Record<string, unknown> = {}): Promise<string> {
  const body = orderBody(overrides);
  const response = await post('/v2/orders', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return body.source_order_id as string;
}

describe('parallel duplicate order creates', () => {
  it('answer one 201 and 409 for every other, with one order, all its lines and one booking', async () => {
    const body = orderBody({
      line_items: times(5, (i) => ({ source_id: `li_${i}`, name: `Line ${i}`, price: 10 + i, quantity: 1 + i })),
    });
    const responses = await Promise.all(times(25, () => post('/v2/orders', body)));
    expect(statuses(responses)).toEqual([201, ...times(24, () => 409)]);
    for (const conflict of responses.filter((r) => r.status === 409)) expect(conflict.body.error_code).toBe('conflict');

    const orders = await service.db.order.findMany({
      where: { storeId: shop.store.id, sourceOrderId: body.source_order_id as string },
      include: { lineItems: true },
    });
    expect(orders).toHaveLength(1);
    expect(orders[0]?.lineItems).toHaveLength(5);
    expect(await ledgerOf(body.source_order_id as string)).toEqual([{ amountCents: 188, reason: 'booking', refundId: null }]);
    // The one 201 is the order that is stored.
    const created = responses.find((r) => r.status === 201);
    expect((await readOrder(body.source_order_id as string)).body).toEqual(created?.body);
  });
});

describe('refunds in parallel', () => {
  it('50 parallel redeliveries of one refund reverse it once', async () => {
    const id = await order188();
    const message = refund(id, 77);
    const responses = await Promise.all(times(50, () => pushSigned(message)));
    expect(statuses(responses)).toEqual(times(50, () => 200));
    expect(responses.filter((r) => r.body.duplicate === false).map((r) => r.body.reversed_cents)).toEqual([77]);
    expect(responses.filter((r) => r.body.duplicate === true).every((r) => r.body.reversed_cents === 0 && r.body.premium_cents === 111)).toBe(true);

    const refunds = await service.db.refund.findMany({ where: { storeId: shop.store.id, sourceRefundId: message.refund.id } });
    expect(refunds).toHaveLength(1);
    expect(await ledgerOf(id)).toEqual([
      { amountCents: 188, reason: 'booking', refundId: null },
      { amountCents: -77, reason: 'reversal', refundId: refunds[0]?.id },
    ]);
    expect((await readOrder(id)).body).toMatchObject({ paid_to_insure: 1.11, status: 'created' });
  });

  it('parallel different partial refunds reverse exactly the premium, never more', async () => {
    const id = await order188();
    const asked = [40, 25, 33, 17, 50, 60, 12, 9, 45, 30, 21, 14]; // 356 cents asked of 188 held
    const messages = asked.map((cents) => refund(id, cents));
    const responses = await Promise.all(messages.map((m) => pushSigned(m)));
    expect(statuses(responses)).toEqual(times(asked.length, () => 200));
    const reversed = responses.map((r) => r.body.reversed_cents as number);
    expect(sum(reversed)).toBe(188);
    reversed.forEach((cents, i) => expect(cents).toBeLessThanOrEqual(asked[i] as number));
    // Refunds run one at a time: each reverses what it asks until one is clamped, then nothing is left.
    expect(reversed.filter((cents, i) => cents > 0 && cents < (asked[i] as number)).length).toBeLessThanOrEqual(1);

    const entries = await ledgerOf(id);
    expect(sum(entries.map((e) => e.amountCents))).toBe(0);
    expect(entries.filter((e) => e.reason === 'booking')).toHaveLength(1);
    const refunds = await service.db.refund.findMany({ where: { orderId: (await service.db.order.findFirstOrThrow({ where: { storeId: shop.store.id, sourceOrderId: id } })).id } });
    expect(refunds).toHaveLength(asked.length);
    expect(sum(refunds.map((r) => Number(r.reversedCents)))).toBe(188);
    // Each reversal entry is its refund's reversed_cents; a refund that reversed nothing has none.
    for (const row of refunds) {
      const own = entries.filter((e) => e.refundId === row.id);
      expect(own.map((e) => -e.amountCents)).toEqual(Number(row.reversedCents) > 0 ? [Number(row.reversedCents)] : []);
    }
    // In ledger order, every reversal is the full amount asked except possibly the last.
    const reversals = entries.filter((e) => e.reason === 'reversal');
    const askedOf = (refundId: string | null) => Number(refunds.find((r) => r.id === refundId)?.protectionRefundedCents);
    reversals.slice(0, -1).forEach((e) => expect(-e.amountCents).toBe(askedOf(e.refundId)));
    expect((await readOrder(id)).body).toMatchObject({ paid_to_insure: 0, status: 'cancelled' });
  });
});

describe('cancel and claim racing on one order', () => {
  it('never both succeed, over 10 rounds', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const id = await order188();
      const [cancel, claim] = await Promise.all([post(`/v1/orders/${encodeURIComponent(id)}/cancel`), post('/v1/claims', { source_order_id: id, reason: 'lost' })]);
      expect([
        [200, 409],
        [409, 201],
      ]).toContainEqual([cancel.status, claim.status]);
      outcomes.push(cancel.status === 200 ? 'cancel' : 'claim');

      // The database agrees with the answers.
      const stored = await service.db.order.findFirstOrThrow({ where: { storeId: shop.store.id, sourceOrderId: id }, include: { claims: true } });
      if (cancel.status === 200) {
        expect(stored.status).toBe('cancelled');
        expect(stored.claims).toEqual([]);
      } else {
        expect(stored.status).toBe('created');
        expect(stored.claims.map((c) => c.status)).toEqual(['open']);
      }
    }
    expect(outcomes).toHaveLength(10);
  });
});

describe('parallel shipment registrations of one tracking number', () => {
  it('answer one 201 and 409 for every other, however the number is written', async () => {
    const id = await order188();
    const number = `ZZCONC${Date.now()}`;
    // Spaces, dashes and case are normalised away: all of these are the same number.
    const spellings = [number, number.toLowerCase(), `${number.slice(0, 4)}-${number.slice(4)}`, `${number.slice(0, 6)} ${number.slice(6)}`];
    const responses = await Promise.all(
      times(20, (i) => post('/v1/shipments', { tracking_number: spellings[i % spellings.length], source_order_id: id, courier_id: 'ups' })),
    );
    expect(statuses(responses)).toEqual([201, ...times(19, () => 409)]);
    expect(responses.find((r) => r.status === 201)?.body).toMatchObject({ tracking_number: number, courier: 'ups', delivery_status: 'Active' });

    const shipments = await service.db.shipment.findMany({ where: { storeId: shop.store.id, trackingNumber: number } });
    expect(shipments).toHaveLength(1);
    // Its first poll was committed with it, once; the losers left no job behind.
    const jobs = await service.db.$queryRawUnsafe<Array<{ shipment_id: string }>>(
      "SELECT data->>'shipmentId' AS shipment_id FROM pgboss.job WHERE name = 'tracking-poll' AND data->>'shipmentId' IN (SELECT id::text FROM shipments WHERE order_id = (SELECT order_id FROM shipments WHERE id = $1::uuid))",
      shipments[0]?.id,
    );
    expect(jobs.map((j) => j.shipment_id)).toEqual([shipments[0]?.id]);
  });

  it('register one shipment when REST creates and platform fulfilments race for the number', async () => {
    for (let round = 0; round < 5; round += 1) {
      // Several orders, so the racers do not all queue on one order's row lock; a fulfilment and a REST
      // create also race on each order.
      const ids = await Promise.all(times(4, () => order188()));
      const number = `ZZFULRACE${Date.now()}R${round}`;
      const fulfilment = (orderId: string) => ({
        merchant: shop.store.slug,
        event: 'fulfillment.created',
        order: { id: orderId },
        fulfillment: { id: nextId('ful'), shipments: [{ tracking_number: number, courier_id: 'ups' }] },
      });
      const responses = await Promise.all([
        ...ids.map((id) => pushSigned(fulfilment(id))),
        ...ids.map((id) => post('/v1/shipments', { tracking_number: number, source_order_id: id, courier_id: 'ups' })),
      ]);
      const pushes = responses.slice(0, ids.length);
      const creates = responses.slice(ids.length);
      expect(statuses(pushes), JSON.stringify(pushes.map((r) => r.body))).toEqual(times(ids.length, () => 200));
      expect(creates.every((r) => r.status === 201 || r.status === 409), JSON.stringify(creates.map((r) => r.body))).toBe(true);
      // Exactly one registration won, by either path.
      const registered = sum(pushes.map((r) => r.body.shipments_registered as number)) + creates.filter((r) => r.status === 201).length;
      expect(registered).toBe(1);
      expect(await service.db.shipment.count({ where: { storeId: shop.store.id, trackingNumber: number, cancelledOn: null } })).toBe(1);
      // Every fulfilment is recorded, so its redelivery is a duplicate.
      expect(await service.db.fulfillment.count({ where: { storeId: shop.store.id, order: { sourceOrderId: { in: ids } } } })).toBe(ids.length);
    }
  });

  it('register each number once when fulfilments of different orders name the same numbers in opposite orders', async () => {
    for (let round = 0; round < 3; round += 1) {
      const ids = await Promise.all(times(6, () => order188()));
      const numbers = times(4, (i) => `ZZFULSET${Date.now()}R${round}N${i}`);
      // Half the messages list the numbers one way, half the other way: a lock-order deadlock if the
      // inserts are not made in one order.
      const responses = await Promise.all(
        ids.map((id, i) =>
          pushSigned({
            merchant: shop.store.slug,
            event: 'fulfillment.created',
            order: { id },
            fulfillment: { id: nextId('ful'), shipments: (i % 2 === 0 ? numbers : [...numbers].reverse()).map((n) => ({ tracking_number: n, courier_id: 'ups' })) },
          }),
        ),
      );
      expect(statuses(responses), JSON.stringify(responses.map((r) => r.body))).toEqual(times(ids.length, () => 200));
      expect(sum(responses.map((r) => r.body.shipments_registered as number))).toBe(numbers.length);
      for (const number of numbers) {
        expect(await service.db.shipment.count({ where: { storeId: shop.store.id, trackingNumber: number, cancelledOn: null } })).toBe(1);
      }
    }
  });
});

describe('parallel order updates that re-price', () => {
  it('leave the ledger summing to the final premium and the order as one update wrote it', async () => {
    const id = await order188();
    // Each update writes a different subtotal, protection choice and set of lines.
    const updates = times(24, (i) => ({
      subtotal: 100 + i * 37.25,
      insurance_selected: i % 6 !== 5,
      line_items: times(1 + (i % 3), (j) => ({ source_id: `u${i}-l${j}`, name: `Update ${i} line ${j}`, price: 1 + i + j, quantity: 1 + j })),
    }));
    const responses = await Promise.all(
      updates.map((patch, i) => api(i % 2 === 0 ? 'PATCH' : 'POST', `/v2/orders/${encodeURIComponent(id)}`, { key: shop.liveKey, body: patch })),
    );
    expect(statuses(responses)).toEqual(times(updates.length, () => 200));

    // Every answer is the order exactly as its own update left it.
    const expectOrderOf = (body: Record<string, unknown>, patch: (typeof updates)[number]) => {
      const cents = Math.round(patch.subtotal * 100);
      expect(body).toMatchObject({
        subtotal: patch.subtotal,
        insurance_selected: patch.insurance_selected,
        amount_covered: patch.insurance_selected ? patch.subtotal : 0,
        paid_to_insure: premiumCents(cents, patch.insurance_selected) / 100,
      });
      expect((body.line_items as Array<{ source_id: string }>).map((l) => l.source_id)).toEqual(patch.line_items.map((l) => l.source_id));
    };
    responses.forEach((response, i) => expectOrderOf(response.body, updates[i] as (typeof updates)[number]));

    // The final order is one update's state in full, not a mix of two.
    const final = (await readOrder(id)).body;
    const winner = updates.find((u) => u.subtotal === final.subtotal);
    expect(winner).toBeDefined();
    if (winner) expectOrderOf(final, winner);

    // The ledger: one booking, re-pricings, and a sum that is exactly the final premium.
    const entries = await ledgerOf(id);
    expect(entries[0]).toEqual({ amountCents: 188, reason: 'booking', refundId: null });
    expect(entries.slice(1).every((e) => e.reason === 'repricing')).toBe(true);
    expect(sum(entries.map((e) => e.amountCents))).toBe(Math.round(final.paid_to_insure * 100));
    expect(entries.length).toBeLessThanOrEqual(1 + updates.length);

    // The rows agree with each other: the order's columns, its lines, nothing left of other updates.
    const stored = await service.db.order.findFirstOrThrow({ where: { storeId: shop.store.id, sourceOrderId: id }, include: { lineItems: { orderBy: { position: 'asc' } } } });
    expect(Number(stored.subtotalCents)).toBe(Math.round(final.subtotal * 100));
    expect(Number(stored.amountCoveredCents)).toBe(stored.insuranceSelected ? Number(stored.subtotalCents) : 0);
    expect(stored.pricingSource).toBe(stored.insuranceSelected ? 'rate' : 'none');
    expect(stored.lineItems.map((l) => [l.position, l.sourceId])).toEqual(winner?.line_items.map((l, position) => [position, l.source_id]));
  });

  it('keep the ledger right when re-pricing races refunds', async () => {
    const id = await order188({ subtotal: 1000 }); // 15.00
    const subtotals = [800, 1200, 950, 400, 2000, 1000];
    const refunds = [120, 80, 200, 50];
    const responses = await Promise.all([
      ...subtotals.map((subtotal) => api('PATCH', `/v2/orders/${encodeURIComponent(id)}`, { key: shop.liveKey, body: { subtotal } })),
      ...refunds.map((cents) => pushSigned(refund(id, cents))),
    ]);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const entries = await ledgerOf(id);
    const net = sum(entries.map((e) => e.amountCents));
    const final = (await readOrder(id)).body;
    // paid_to_insure is the ledger's sum, which never goes below zero.
    expect(net).toBe(Math.round(final.paid_to_insure * 100));
    expect(net).toBeGreaterThanOrEqual(0);
    // Reversed in all: the refunds' reversed_cents, one entry each.
    const reversedByAck = sum(responses.slice(subtotals.length).map((r) => r.body.reversed_cents as number));
    expect(-sum(entries.filter((e) => e.reason === 'reversal').map((e) => e.amountCents))).toBe(reversedByAck);
  });
});

describe('the whole suite', () => {
  it('never answered a 5xx', () => {
    expect(answers.length).toBeGreaterThan(150);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
  });
});
