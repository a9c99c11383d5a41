// Erasing one order's personal data (README, "Personal data"), through real HTTP on PostgreSQL:
// an order with a quote, shipments, a claim with its history, a refund, events delivered to a
// receiver that echoes them, and an answer kept for an idempotency key. After the erasure, a scan
// of every row of every table finds none of the shopper's values, and the money is unchanged.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { call, orderBody } from './support/http.js';
import { tablesHolding } from './support/pii-scan.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';
import { systemClock } from '../server/domain/kernel/index.js';
import { actingFor } from '../server/domain/access/index.js';
import { decideClaimAsOperator } from './support/service.js';

const PLATFORM = 'erasureplat';
const PLATFORM_SECRET = 'erasure-platform-shared-secret-0123456789';

let service: TestService;
let shop: SeededStore;
let echo: Server;
let echoUrl: string;

beforeAll(async () => {
  service = await startService({ events: { workers: true } });
  shop = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, PLATFORM_SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
  // A receiver that answers with what it was sent: its answers are kept in the delivery log.
  echo = createServer((request, response) => request.pipe(response.writeHead(200, { 'content-type': 'application/json' })));
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/hook`;
  expect((await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: shop.liveKey, body: { url: echoUrl, events: ['*'] } })).status).toBe(201);
});
afterAll(async () => {
  await service?.close();
  await new Promise<void>((resolve) => echo?.close(() => resolve()));
});

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(service.baseUrl, method, path, { key: shop.liveKey, ...(body === undefined ? {} : { body }), ...(headers === undefined ? {} : { headers }) });

/** A shopper whose every value is unique to this test, so a scan finds nothing else. */
function shopper(tag: string) {
  return {
    first: `Zenobia${tag}`,
    last: `Quillfeather${tag}`,
    email: `zenobia.${tag.toLowerCase()}@example.com`,
    phone: `+1 555 01${tag.length}9 77${tag.length}8 x${tag}`,
    street: `77 Larkspur Lane ${tag}`,
    billingStreet: `12 Quill Court ${tag}`,
    image: `https://cdn.example.com/${tag}-lamp.png`,
    claimText: `Zenobia${tag} says the lamp never came`,
    claimNote: `called Zenobia${tag} back`,
    refundNote: `refund for Quillfeather${tag}`,
    cartText: `gift for Zenobia${tag}`,
  };
}

const rowsHolding = (value: string) => tablesHolding(service.db, value);

async function protectedOrderOf(person: ReturnType<typeof shopper>) {
  const quote = await api('POST', '/v2/quotes', { cart: { covered: { amount: '125.00' }, cart_items: [{ title: person.cartText }] } });
  expect(quote.status).toBe(201);
  const body = orderBody({
    quote_id: quote.body.id,
    customer_details: { first_name: person.first, last_name: person.last, email: person.email, phone: person.phone },
    shipping_details: { street_address1: person.street, city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
    billing_address: { street_address1: person.billingStreet, city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
    line_items: [{ source_id: 'lamp', name: 'Lamp', price: 125, quantity: 1, image_url: person.image }],
  });
  // With an Idempotency-Key: the kept answer holds the shopper's names.
  const created = await api('POST', '/v2/orders', body, { 'Idempotency-Key': `erase-${person.first}` });
  expect(created.status).toBe(201);
  return body.source_order_id as string;
}

describe('POST /v2/orders/{source_order_id}/redact', () => {
  it('erases the shopper everywhere, keeps the money, and refuses while a claim is open', async () => {
    const person = shopper('Alpha');
    const sourceOrderId = await protectedOrderOf(person);
    expect((await api('POST', '/v1/shipments', { tracking_number: 'SBXDELIVERED', source_order_id: sourceOrderId, courier_id: 'ups' })).status).toBe(201);
    const claim = await api('POST', '/v1/claims', { source_order_id: sourceOrderId, reason: 'lost', description: person.claimText });
    expect(claim.status).toBe(201);
    const refund = JSON.stringify({
      merchant: shop.store.slug,
      event: 'refund.created',
      order: { id: sourceOrderId },
      refund: { id: `rf-erasure-${Date.now()}`, note: person.refundNote, items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 50 }] },
    });
    const refunded = await call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
      rawBody: refund,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(PLATFORM_SECRET, refund) },
    });
    expect(refunded.status).toBe(200);

    // The open claim needs the contact: 409, and nothing is erased.
    const refused = await api('POST', `/v2/orders/${sourceOrderId}/redact`);
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('conflict');
    expect((await api('GET', `/v2/orders/${sourceOrderId}`)).body).toMatchObject({ has_pii: true, first_name: person.first });

    await decideClaimAsOperator(service.db, claim.body.id as string, 'denied', systemClock, person.claimNote);
    // Every event so far has reached the echoing receiver, whose answers hold the names.
    await expect.poll(async () => service.db.webhookDelivery.count({ where: { status: 'pending' } }), { timeout: 15_000 }).toBe(0);
    expect(await rowsHolding(person.first)).toEqual(expect.arrayContaining(['orders', 'events', 'webhook_delivery_attempts', 'idempotency_keys', 'quotes']));

    const month = new Date().toISOString().slice(0, 7);
    const statementBefore = await api('GET', `/v1/billing/statements?month=${month}`);
    const ledgerBefore = await service.db.premiumLedgerEntry.findMany({ where: { order: { sourceOrderId } }, orderBy: { id: 'asc' } });

    const erased = await api('POST', `/v2/orders/${sourceOrderId}/redact`);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ source_order_id: sourceOrderId, has_pii: false, first_name: null, last_name: null });
    expect(erased.body.line_items).toEqual([expect.objectContaining({ source_id: 'lamp', name: 'Lamp', price: 125, quantity: 1, image_url: null })]);

    for (const value of Object.values(person)) expect(await rowsHolding(value), value).toEqual([]);

    // Money and the facts of the order are kept.
    expect((await api('GET', `/v1/billing/statements?month=${month}`)).body).toEqual(statementBefore.body);
    expect(await service.db.premiumLedgerEntry.findMany({ where: { order: { sourceOrderId } }, orderBy: { id: 'asc' } })).toEqual(ledgerBefore);
    expect((await api('GET', '/v1/shipments/SBXDELIVERED')).status).toBe(200);
    expect((await api('GET', `/v1/claims/${claim.body.id as string}`)).body).toMatchObject({ status: 'denied', description: null, reason: 'lost' });
    // Events keep their objects, without the shopper.
    const events = (await api('GET', '/v1/events?limit=100')).body.data as Array<{ type: string; data: Record<string, unknown> }>;
    const created = events.find((event) => event.type === 'order.created' && event.data.source_order_id === sourceOrderId);
    expect(created?.data).toMatchObject({ source_order_id: sourceOrderId, first_name: null, last_name: null, has_pii: false, paid_to_insure: 1.88 });

    // Again: the same answer, nothing to erase.
    const again = await api('POST', `/v2/orders/${sourceOrderId}/redact`);
    expect(again.status).toBe(200);
    expect({ ...again.body, updated_on: null }).toEqual({ ...erased.body, updated_on: null });
    const audit = await service.db.auditEvent.count({ where: { action: 'order.redacted', subjectId: erased.body.id as string } });
    expect(audit).toBe(2);
  });

  it('leaves no personal data and no error when erasures race each other and an update', async () => {
    const person = shopper('Bravo');
    const sourceOrderId = await protectedOrderOf(person);
    const answers = await Promise.all([
      api('POST', `/v2/orders/${sourceOrderId}/redact`),
      api('PATCH', `/v2/orders/${sourceOrderId}`, { subtotal: 150 }),
      api('POST', `/v2/orders/${sourceOrderId}/redact`),
      api('PATCH', `/v2/orders/${sourceOrderId}`, { source_order_number: 'B-2' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    await expect.poll(async () => service.db.webhookDelivery.count({ where: { status: 'pending' } }), { timeout: 15_000 }).toBe(0);
    const order = await api('GET', `/v2/orders/${sourceOrderId}`);
    expect(order.body).toMatchObject({ has_pii: false, subtotal: 150, source_order_number: 'B-2' });
    // A re-price after the erasure writes an event of the erased order: no shopper in it either.
    for (const value of [person.first, person.last, person.email, person.street, person.image, person.cartText]) expect(await rowsHolding(value), value).toEqual([]);
  });

  it('answers 404 to a test key and for an order the store does not have', async () => {
    const sourceOrderId = await protectedOrderOf(shopper('Charlie'));
    expect((await call(service.baseUrl, 'POST', `/v2/orders/${sourceOrderId}/redact`, { key: shop.testKey })).status).toBe(404);
    expect((await api('POST', '/v2/orders/no-such-order/redact')).status).toBe(404);
    const other = await seedStore(service.db);
    expect((await call(service.baseUrl, 'POST', `/v2/orders/${sourceOrderId}/redact`, { key: other.liveKey })).status).toBe(404);
    expect((await api('GET', `/v2/orders/${sourceOrderId}`)).body.has_pii).toBe(true);
  });
});
