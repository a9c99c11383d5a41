// A shopper's personal data by email, and the platform's privacy messages (README, "Personal
// data"), through real HTTP on PostgreSQL: the export answers everything held and nothing else;
// the erasure leaves no value anywhere in the database and the money unchanged, waits for open
// claims and then finishes by itself; the platform's customer.redact, customer.data_request,
// store.redact (48 hours later, on a moved clock) and its cancellation.
import { createHash, createHmac } from 'node:crypto';
import PgBoss from 'pg-boss';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import type { AddressVerifier } from '../server/domain/addresses/index.js';
import { postgresPhotoStore, uploadClaimPhoto } from '../server/domain/claims/index.js';

import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { runDuePrivacyRequests } from '../server/domain/privacy/index.js';
import { PRIVACY_REQUESTS_CRON, PRIVACY_REQUESTS_QUEUE } from '../server/jobs/privacy-requests.js';
import { Client, NotFoundError } from '../sdk/src/index.js';
import { runAdmin } from './support/admin-cli.js';
import { call, orderBody } from './support/http.js';
import { tablesHolding } from './support/pii-scan.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';
import { actingFor, systemScope } from '../server/domain/access/index.js';
import { decideClaimAsOperator } from './support/service.js';

const HOUR = 3_600_000;
const PLATFORM = 'privacyplat';
const PLATFORM_SECRET = 'privacy-platform-shared-secret-0123456789';

let service: TestService;
let shop: SeededStore;
let bystander: SeededStore;

beforeAll(async () => {
  // An instance that works jobs: it runs the erasure job when sent.
  service = await startService({ work: true, exposeMetrics: true });
  shop = await seedStore(service.db);
  bystander = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, PLATFORM_SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
});
afterAll(async () => service?.close());

const api = (method: string, path: string, body?: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call(service.baseUrl, method, path, { key: options.key ?? shop.liveKey, ...(body === undefined ? {} : { body }), ...(options.headers ? { headers: options.headers } : {}) });

/** A platform message, signed at the service's own time (its clock may have been moved). */
function platform(message: Record<string, unknown>, options: { signed?: boolean } = {}) {
  const raw = JSON.stringify({ merchant: shop.store.slug, ...message });
  const timestamp = Math.floor(service.clock.now().getTime() / 1000);
  return call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', ...(options.signed === false ? {} : { 'x-webhook-signature': signWebhook(PLATFORM_SECRET, raw, timestamp) }) },
  });
}

/** A shopper whose every value is unique to the test, so a scan finds nothing else. */
function shopper(tag: string) {
  return {
    first: `Philippa${tag}`,
    last: `Marchbanks${tag}`,
    email: `philippa.${tag.toLowerCase()}@example.org`,
    phone: `+1 555 0134 ${tag}`,
    street: `9 Wrenfield Row ${tag}`,
    billingStreet: `4 Tallow Yard ${tag}`,
    image: `https://cdn.example.org/${tag}-kettle.png`,
    claimText: `Philippa${tag} found the box crushed`,
    claimNote: `spoke to Marchbanks${tag}`,
    refundNote: `goodwill for Philippa${tag}`,
    cartText: `birthday kettle for Marchbanks${tag}`,
  };
}
type Shopper = ReturnType<typeof shopper>;

/** A protected order of the shopper, with a quote whose cart names them; `email` overrides the casing. */
async function orderOf(person: Shopper, store: SeededStore = shop, email = person.email): Promise<string> {
  const quote = await api('POST', '/v2/quotes', { cart: { covered: { amount: '80.00' }, cart_items: [{ title: person.cartText }] } }, { key: store.liveKey });
  expect(quote.status).toBe(201);
  const body = orderBody({
    quote_id: quote.body.id,
    subtotal: 80,
    customer_details: { first_name: person.first, last_name: person.last, email, phone: person.phone },
    shipping_details: { street_address1: person.street, city: 'Portland', province: 'OR', zip: '97201', country_code: 'US' },
    billing_address: { street_address1: person.billingStreet, city: 'Portland', province: 'OR', zip: '97201', country_code: 'US' },
    line_items: [{ source_id: 'kettle', name: 'Kettle', price: 80, quantity: 1, image_url: person.image }],
  });
  const created = await api('POST', '/v2/orders', body, { key: store.liveKey });
  expect(created.status).toBe(201);
  return body.source_order_id as string;
}

const hasPii = async (sourceOrderId: string, store: SeededStore = shop) => (await api('GET', `/v2/orders/${sourceOrderId}`, undefined, { key: store.liveKey })).body.has_pii as boolean;

async function fileClaim(sourceOrderId: string, description: string): Promise<string> {
  const claim = await api('POST', '/v1/claims', { source_order_id: sourceOrderId, reason: 'damaged', description });
  expect(claim.status).toBe(201);
  return claim.body.id as string;
}

async function refund(sourceOrderId: string, note: string): Promise<void> {
  const refunded = await platform({ event: 'refund.created', order: { id: sourceOrderId }, refund: { id: `rf-${sourceOrderId}`, note, items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 20 }] } });
  expect(refunded.status).toBe(200);
}

async function noneHeld(person: Shopper): Promise<void> {
  for (const value of Object.values(person)) expect(await tablesHolding(service.db, value), value).toEqual([]);
}

const month = () => service.clock.now().toISOString().slice(0, 7);

describe('POST /v2/customers/data_request', () => {
  it('answers every piece of personal data held for the email, matched after normalising, and nothing else', async () => {
    const ada = shopper('Export');
    const other = shopper('Neighbour');
    // The same mailbox written two ways, and another shopper's order.
    const first = await orderOf(ada, shop, 'Philippa.Export@EXAMPLE.org');
    const second = await orderOf(ada);
    await orderOf(other);
    const claimId = await fileClaim(second, ada.claimText);
    // A photo the shopper attached: the export points at it, for the store to hand it over.
    const secondOrder = await service.db.order.findFirstOrThrow({ where: { storeId: shop.store.id, sourceOrderId: second } });
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#456' } }).jpeg().toBuffer();
    const photo = await uploadClaimPhoto(service.db, { store: shop.store, actor: { kind: 'shopper', orderId: secondOrder.id }, mode: 'live' }, postgresPhotoStore(service.db), jpeg, new Date());
    await service.db.claimPhoto.updateMany({ where: { id: photo.id }, data: { claimId } });
    await decideClaimAsOperator(service.db, claimId, 'in_review', service.clock, ada.claimNote);
    await refund(second, ada.refundNote);

    const answer = await api('POST', '/v2/customers/data_request', { email: `  ${ada.email.toUpperCase()} ` }, { headers: { 'Idempotency-Key': 'export-once' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'customer_data', id: expect.any(String), generated_at: expect.any(String) });
    const orders = answer.body.orders as Array<Record<string, unknown>>;
    expect(orders.map((order) => order.source_order_id)).toEqual([first, second]);
    expect(orders[0]).toMatchObject({
      customer: { first_name: ada.first, last_name: ada.last, email: 'Philippa.Export@EXAMPLE.org', phone: ada.phone },
      shipping_address: { street_address1: ada.street, city: 'Portland', province: 'OR', zip: '97201', country_code: 'US' },
      billing_address: { street_address1: ada.billingStreet, city: 'Portland', province: 'OR', zip: '97201', country_code: 'US' },
      line_items: [{ source_id: 'kettle', name: 'Kettle', quantity: 1, image_url: ada.image }],
      claims: [],
      refund_notes: [],
      quote_cart_items: [{ title: ada.cartText }],
    });
    expect(orders[1]).toMatchObject({
      customer: { email: ada.email },
      claims: [
        {
          id: claimId,
          reason: 'damaged',
          status: 'in_review',
          description: ada.claimText,
          notes: [{ status: 'in_review', note: ada.claimNote }],
          photo_urls: [`/v1/claims/${claimId}/photos/${photo.id}`],
        },
      ],
      refund_notes: [{ refund_id: `rf-${second}`, note: ada.refundNote }],
    });
    // Nothing of the other shopper.
    expect(JSON.stringify(answer.body)).not.toContain(other.first);
    // The answer is personal data: it is not kept for the Idempotency-Key, which the route does not take.
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    expect(await service.db.idempotencyKey.count({ where: { key: 'export-once' } })).toBe(0);

    const recorded = await service.db.privacyRequest.findFirstOrThrow({ where: { id: answer.body.id as string } });
    expect(recorded).toMatchObject({ kind: 'customer_data_request', status: 'completed', actorKind: 'api_key', ordersMatched: 2 });

    // An unknown email: nothing held.
    expect((await api('POST', '/v2/customers/data_request', { email: 'nobody@example.org' })).body.orders).toEqual([]);
    // Decided, so that the store's later erasures find no open claim of this test.
    await decideClaimAsOperator(service.db, claimId, 'denied', service.clock);
  });

  it('finds orders through a keyed hash in an index, never the email itself', async () => {
    const person = shopper('Lookup');
    const store = await seedStore(service.db);
    const sourceOrderId = await orderOf(person, store);
    const [row] = await service.db.$queryRaw<Array<{ lookup: Uint8Array; key: Uint8Array }>>`
      SELECT o.customer_email_lookup AS lookup, s.secret AS key FROM orders o, server_secrets s
       WHERE o.source_order_id = ${sourceOrderId} AND s.name = 'email_lookup'`;
    const lookup = Buffer.from(row?.lookup ?? []);
    expect(lookup).toHaveLength(32);
    // Not the email, and not an unkeyed hash anyone could recompute.
    expect(lookup.toString('latin1')).not.toContain('philippa');
    expect(lookup.equals(createHash('sha256').update(person.email).digest())).toBe(false);
    // HMAC-SHA256 of the normalised email with the database's own 32-byte key, recomputed here.
    expect(Buffer.from(row?.key ?? [])).toHaveLength(32);
    expect(lookup.equals(createHmac('sha256', Buffer.from(row?.key ?? [])).update(person.email).digest())).toBe(true);

    // A store with many orders, a few of them the shopper's: the probe reads the hash's index.
    await service.db.$executeRaw`
      INSERT INTO orders
      SELECT (jsonb_populate_record(NULL::orders, to_jsonb(o) || jsonb_build_object(
                'id', gen_random_uuid(), 'order_number', 'OP-BULK-' || g, 'source_order_id', 'bulk-' || g, 'customer_email', 'bulk-' || g || '@example.org'))).*
        FROM orders o, generate_series(1, 500) g WHERE o.source_order_id = ${sourceOrderId}`;
    await service.db.$executeRaw`ANALYZE orders`;
    const plan = await service.db.$queryRaw<Array<{ 'QUERY PLAN': string }>>`
      EXPLAIN SELECT source_order_id FROM orders WHERE store_id = ${store.store.id}::uuid AND customer_email_lookup = email_lookup_hash(${person.email})`;
    expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Index (Only )?Scan using orders_customer_email_lookup_idx|Bitmap Index Scan on orders_customer_email_lookup_idx/);
    const found = await api('POST', '/v2/customers/data_request', { email: person.email }, { key: store.liveKey });
    expect((found.body.orders as Array<{ source_order_id: string }>).map((order) => order.source_order_id)).toEqual([sourceOrderId]);

    // Rotating the key, as docs/personal-data.md says: every hash is recomputed, and lookups still find the order.
    await service.db.$transaction([
      service.db.$executeRaw`UPDATE server_secrets SET secret = gen_random_bytes(32) WHERE name = 'email_lookup'`,
      service.db.$executeRaw`UPDATE orders SET customer_email_lookup = NULL WHERE customer_email IS NOT NULL`,
    ]);
    const [rotated] = await service.db.$queryRaw<Array<{ lookup: Uint8Array }>>`SELECT customer_email_lookup AS lookup FROM orders WHERE source_order_id = ${sourceOrderId}`;
    expect(Buffer.from(rotated?.lookup ?? []).equals(lookup)).toBe(false);
    const again = await api('POST', '/v2/customers/data_request', { email: person.email }, { key: store.liveKey });
    expect((again.body.orders as Array<{ source_order_id: string }>).map((order) => order.source_order_id)).toEqual([sourceOrderId]);
  });

  it('answers 404 to a test key and lists every bad field', async () => {
    expect((await api('POST', '/v2/customers/data_request', { email: 'a@example.org' }, { key: shop.testKey })).status).toBe(404);
    const bad = await api('POST', '/v2/customers/data_request', { email: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe('invalid_request');
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'email' })]);
    const missing = await api('POST', '/v2/customers/redact', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'email' })]);
  });
});

describe('POST /v2/customers/redact', () => {
  it('erases every order of the email, withholds the one with an open claim until it is resolved, and keeps the money', async () => {
    const person = shopper('Erase');
    const kept = shopper('Keep');
    const plain = await orderOf(person);
    const shipped = await orderOf(person, shop, person.email.toUpperCase());
    const disputed = await orderOf(person);
    const refunded = await orderOf(person);
    const elsewhere = await orderOf(person, bystander);
    const unrelated = await orderOf(kept);
    expect((await api('POST', '/v1/shipments', { tracking_number: 'SBXDELIVERED', source_order_id: shipped, courier_id: 'ups' })).status).toBe(201);
    const claimId = await fileClaim(disputed, person.claimText);
    await refund(refunded, person.refundNote);
    // The store checked the address first, with a paid verifier whose answers are cached a day.
    const confirming: AddressVerifier = {
      name: 'usps',
      local: false,
      verify: async (address) => ({
        verdict: 'deliverable',
        reason: 'dpv_confirmed',
        message: 'Confirmed.',
        address: { streetAddress1: address.streetAddress1.toUpperCase(), streetAddress2: null, city: 'PORTLAND', province: 'OR', zip: '97201', zip4: null },
        changes: [],
        flags: [],
      }),
    };
    const remote = await startService({ databaseUrl: service.databaseUrl, addressVerifier: confirming });
    try {
      const checked = await call(remote.baseUrl, 'POST', '/v2/addresses/verify', {
        key: shop.liveKey,
        body: { address: { street_address1: person.street, city: 'Portland', province: 'OR', zip: '97201', country_code: 'US' } },
      });
      expect(checked.status).toBe(200);
    } finally {
      await remote.close();
    }
    expect(await tablesHolding(service.db, person.street)).toContain('address_lookups');

    const statementBefore = (await api('GET', `/v1/billing/statements?month=${month()}`)).body;
    const ledgerBefore = await service.db.premiumLedgerEntry.findMany({ where: { storeId: shop.store.id }, orderBy: { id: 'asc' } });

    const answer = await api('POST', '/v2/customers/redact', { email: person.email });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      object: 'customer_redaction',
      id: expect.any(String),
      redacted_orders: [plain, shipped, refunded],
      withheld_orders: [{ source_order_id: disputed, reason: 'open_claim' }],
    });
    expect(await Promise.all([plain, shipped, refunded, disputed].map((id) => hasPii(id)))).toEqual([false, false, false, true]);
    // Another store's order and another shopper's stay.
    expect(await hasPii(elsewhere, bystander)).toBe(true);
    expect(await hasPii(unrelated)).toBe(true);
    // Each store sees only its own orders of the shopper.
    const theirs = await api('POST', '/v2/customers/data_request', { email: person.email }, { key: bystander.liveKey });
    expect((theirs.body.orders as Array<{ source_order_id: string }>).map((order) => order.source_order_id)).toEqual([elsewhere]);
    expect(await service.db.privacyRequest.findFirstOrThrow({ where: { id: answer.body.id as string } })).toMatchObject({
      kind: 'customer_redact',
      status: 'pending',
      ordersMatched: 4,
      ordersErased: 3,
      ordersWithheld: 1,
      withheldSourceOrderIds: [disputed],
    });

    // The claim is decided: the erasure job finishes the request without being asked again.
    await decideClaimAsOperator(service.db, claimId, 'denied', service.clock, person.claimNote);
    const boss = new PgBoss({ connectionString: service.databaseUrl, schedule: false, supervise: false });
    await boss.start();
    try {
      await boss.send(PRIVACY_REQUESTS_QUEUE, {});
    } finally {
      await boss.stop({ graceful: false });
    }
    await expect.poll(async () => hasPii(disputed), { timeout: 15_000 }).toBe(false);
    await expect
      .poll(async () => (await service.db.privacyRequest.findFirstOrThrow({ where: { id: answer.body.id as string } })).status, { timeout: 15_000 })
      .toBe('completed');
    expect(await service.db.privacyRequest.findFirstOrThrow({ where: { id: answer.body.id as string } })).toMatchObject({ ordersErased: 4, ordersWithheld: 0, withheldSourceOrderIds: [] });

    // This store holds nothing of the shopper any more; the other store's copy is its own to erase.
    expect((await api('POST', '/v2/customers/data_request', { email: person.email })).body.orders).toEqual([]);
    expect((await api('POST', `/v2/orders/${elsewhere}/redact`, undefined, { key: bystander.liveKey })).status).toBe(200);
    await noneHeld(person);
    expect(await hasPii(unrelated)).toBe(true);

    // Money is never erased.
    // The money is the same; the claims count the denial made meanwhile.
    const { claims: claimsAfter, ...moneyAfter } = (await api('GET', `/v1/billing/statements?month=${month()}`)).body;
    const { claims: claimsBefore, ...moneyBefore } = statementBefore;
    expect(moneyAfter).toEqual(moneyBefore);
    expect(claimsAfter).toEqual({ ...claimsBefore, denied: claimsBefore.denied + 1 });
    expect(await service.db.premiumLedgerEntry.findMany({ where: { storeId: shop.store.id }, orderBy: { id: 'asc' } })).toEqual(ledgerBefore);

    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(Number(/^personal_data_erasures_total\{cause="request"\} (\d+)$/m.exec(metrics)?.[1] ?? 0)).toBeGreaterThanOrEqual(5);
    expect(Number(/^privacy_requests_total\{kind="customer_redact"\} (\d+)$/m.exec(metrics)?.[1] ?? 0)).toBeGreaterThanOrEqual(1);
  });

  it('leaves no personal data and no error when erasures race each other and an order update', async () => {
    const person = shopper('Race');
    const orders = [await orderOf(person), await orderOf(person)];
    const answers = await Promise.all([
      api('POST', '/v2/customers/redact', { email: person.email }),
      api('PATCH', `/v2/orders/${orders[0]}`, { subtotal: 95 }),
      api('POST', '/v2/customers/redact', { email: person.email }),
      api('PATCH', `/v2/orders/${orders[1]}`, { source_order_number: 'R-2' }),
      api('POST', `/v2/orders/${orders[1]}/redact`),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    // Between them, the two erasures erased both orders (each once or twice: erasing again is no error).
    const erased = new Set([...(answers[0]?.body.redacted_orders as string[]), ...(answers[2]?.body.redacted_orders as string[])]);
    expect([...erased].sort()).toEqual([...orders].sort());
    expect((await api('GET', `/v2/orders/${orders[0]}`)).body).toMatchObject({ has_pii: false, subtotal: 95 });
    expect((await api('GET', `/v2/orders/${orders[1]}`)).body).toMatchObject({ has_pii: false, source_order_number: 'R-2' });
    await noneHeld(person);
  });

  it('answers 404 to a test key, and empty lists for an email with no order', async () => {
    const person = shopper('TestKey');
    const sourceOrderId = await orderOf(person);
    expect((await api('POST', '/v2/customers/redact', { email: person.email }, { key: shop.testKey })).status).toBe(404);
    expect(await hasPii(sourceOrderId)).toBe(true);
    const none = await api('POST', '/v2/customers/redact', { email: 'nobody-at-all@example.org' });
    expect(none.body).toMatchObject({ redacted_orders: [], withheld_orders: [] });
  });
});

describe('the SDK', () => {
  it('exports and erases a shopper with client.customers, typed from the contract', async () => {
    const person = shopper('Sdk');
    const sourceOrderId = await orderOf(person);
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const keys: Array<[string, string | undefined]> = [];
    client.on('request', (event) => keys.push([event.path, event.idempotencyKey]));
    const exported = await client.customers.dataRequest({ email: person.email });
    expect(exported.orders.map((order) => [order.source_order_id, order.customer.last_name])).toEqual([[sourceOrderId, person.last]]);
    const erased = await client.customers.redact({ email: person.email });
    // The export is sent without an Idempotency-Key (its answer is never kept); the erasure with one.
    expect(keys).toEqual([
      ['/v2/customers/data_request', undefined],
      ['/v2/customers/redact', expect.stringMatching(/\S+/)],
    ]);
    expect(erased).toMatchObject({ object: 'customer_redaction', redacted_orders: [sourceOrderId], withheld_orders: [] });
    expect((await client.orders.retrieve(sourceOrderId)).has_pii).toBe(false);
    await expect(new Client({ apiKey: shop.testKey, baseUrl: service.baseUrl }).customers.redact({ email: person.email })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('platform privacy messages', () => {
  it('customer.data_request answers the data in the acknowledgement; customer.redact erases it, once', async () => {
    const person = shopper('Platform');
    const byEmail = await orderOf(person);
    // An order the platform names, under an email the shopper no longer uses.
    const named = await orderOf(person, shop, 'old-mailbox@example.org');

    const exported = await platform({ event: 'customer.data_request', request: { id: 'dr-1' }, customer: { email: person.email }, orders_requested: [named] });
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ received: true, event: 'customer.data_request', mode: 'live', duplicate: false, request_id: expect.any(String) });
    const data = exported.body.data as { orders: Array<{ source_order_id: string; customer: { email: string } }> };
    expect(data.orders.map((order) => [order.source_order_id, order.customer.email])).toEqual([
      [byEmail, person.email],
      [named, 'old-mailbox@example.org'],
    ]);
    const again = await platform({ event: 'customer.data_request', request: { id: 'dr-1' }, customer: { email: person.email }, orders_requested: [named] });
    expect(again.body).toMatchObject({ duplicate: true, request_id: exported.body.request_id });

    // Unsigned: refused, nothing erased.
    const unsigned = await platform({ event: 'customer.redact', request: { id: 'cr-1' }, customer: { email: person.email } }, { signed: false });
    expect(unsigned.status).toBe(401);
    expect(await hasPii(byEmail)).toBe(true);
    // No request id: every bad field listed.
    const bad = await platform({ event: 'customer.redact', customer: { email: '' } });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as Array<{ field: string }>).map((error) => error.field).sort()).toEqual(['customer.email', 'request']);

    const redacted = await platform({ event: 'customer.redact', request: { id: 'cr-1' }, customer: { email: person.email }, orders_to_redact: [named] });
    expect(redacted.status).toBe(200);
    expect(redacted.body).toMatchObject({ event: 'customer.redact', duplicate: false, redacted_orders: [byEmail, named], withheld_orders: [] });
    expect([await hasPii(byEmail), await hasPii(named)]).toEqual([false, false]);
    const redelivered = await platform({ event: 'customer.redact', request: { id: 'cr-1' }, customer: { email: person.email }, orders_to_redact: [named] });
    expect(redelivered.body).toMatchObject({ duplicate: true, request_id: redacted.body.request_id });
    expect(await service.db.privacyRequest.count({ where: { storeId: shop.store.id, sourceRequestId: 'cr-1' } })).toBe(1);
    await noneHeld(person);
    expect(await tablesHolding(service.db, 'old-mailbox@example.org')).toEqual([]);
  });

  it('store.redact erases all of the store 48 hours later unless cancelled, and waits for open claims', async () => {
    const before = shopper('StoreA');
    const disputedShopper = shopper('StoreB');
    const ordersA = [await orderOf(before), await orderOf(before)];
    const disputed = await orderOf(disputedShopper);
    const claimId = await fileClaim(disputed, disputedShopper.claimText);
    const untouched = await orderOf(shopper('OtherStore'), bystander);

    // Scheduled, redelivered, cancelled (twice), then asked again.
    const scheduled = await platform({ event: 'store.redact', request: { id: 'uninstall-1' } });
    expect(scheduled.status).toBe(200);
    const dueAt = Date.parse(scheduled.body.redaction_due_at as string);
    expect(dueAt - service.clock.now().getTime()).toBeGreaterThan(47.9 * HOUR);
    expect(dueAt - service.clock.now().getTime()).toBeLessThanOrEqual(48 * HOUR);
    expect(scheduled.body).toMatchObject({ redaction_status: 'pending', duplicate: false });
    expect((await platform({ event: 'store.redact', request: { id: 'uninstall-1' } })).body).toMatchObject({ duplicate: true, request_id: scheduled.body.request_id });
    expect((await platform({ event: 'store.redact_cancelled', request: { id: 'uninstall-1' } })).body).toMatchObject({ redaction_status: 'cancelled', duplicate: false });
    expect((await platform({ event: 'store.redact_cancelled', request: { id: 'uninstall-1' } })).body).toMatchObject({ redaction_status: 'cancelled', duplicate: true });
    expect((await platform({ event: 'store.redact_cancelled', request: { id: 'never-sent' } })).status).toBe(404);

    // The cancelled one never runs, even long after its time.
    service.clock.advance(49 * HOUR);
    expect(await runDuePrivacyRequests(service.db, systemScope('privacy-requests'), service.clock.now())).toMatchObject({ ordersErased: 0 });
    expect(await hasPii(ordersA[0] as string)).toBe(true);

    const second = await platform({ event: 'store.redact', request: { id: 'uninstall-2' } });
    expect(second.body).toMatchObject({ redaction_status: 'pending', duplicate: false });
    // A store.redact under another id while one is pending: that one stands.
    expect((await platform({ event: 'store.redact', request: { id: 'uninstall-3' } })).body).toMatchObject({ duplicate: true, request_id: second.body.request_id });

    // 47 hours on: not due yet.
    service.clock.advance(47 * HOUR);
    expect(await runDuePrivacyRequests(service.db, systemScope('privacy-requests'), service.clock.now())).toEqual({ ordersErased: 0, requests: 0 });
    expect(await hasPii(ordersA[0] as string)).toBe(true);

    // 49 hours on: every order of the store is erased, but the one with an open claim.
    service.clock.advance(2 * HOUR);
    // (The scheduled job of this instance may run it first: the state is what counts.)
    await runDuePrivacyRequests(service.db, systemScope('privacy-requests'), service.clock.now());
    expect(await Promise.all(ordersA.map((id) => hasPii(id)))).toEqual([false, false]);
    expect(await hasPii(disputed)).toBe(true);
    expect(await hasPii(untouched, bystander)).toBe(true);
    const held = await service.db.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM orders o WHERE o.store_id = $1::uuid AND o.source_order_id <> $2 AND (o.customer_email IS NOT NULL OR o.customer_first_name IS NOT NULL OR o.shipping_address IS NOT NULL)`,
      shop.store.id,
      disputed,
    );
    expect(Number(held[0]?.n)).toBe(0);
    expect(await service.db.privacyRequest.findFirstOrThrow({ where: { id: second.body.request_id as string } })).toMatchObject({ status: 'pending', ordersWithheld: 1 });

    // Too late to cancel? Not while it still owes an order; but once done, 409.
    await decideClaimAsOperator(service.db, claimId, 'denied', service.clock);
    await runDuePrivacyRequests(service.db, systemScope('privacy-requests'), service.clock.now());
    expect(await hasPii(disputed)).toBe(false);
    expect(await service.db.privacyRequest.findFirstOrThrow({ where: { id: second.body.request_id as string } })).toMatchObject({ status: 'completed', ordersWithheld: 0 });
    const late = await platform({ event: 'store.redact_cancelled', request: { id: 'uninstall-2' } });
    expect(late.status).toBe(409);
    expect(late.body.error_code).toBe('conflict');
    await noneHeld(before);
    await noneHeld(disputedShopper);
  });

  it('runs every 15 minutes from a pg-boss schedule, and the operator lists and cancels requests', async () => {
    const schedules = await service.db.$queryRaw<Array<{ name: string; cron: string; timezone: string | null }>>`SELECT name, cron, timezone FROM pgboss.schedule`;
    expect(schedules).toContainEqual({ name: PRIVACY_REQUESTS_QUEUE, cron: PRIVACY_REQUESTS_CRON, timezone: 'UTC' });

    const store = await seedStore(service.db);
    await connectStore(service.db, actingFor(TEST_OPERATOR, store.store), PLATFORM);
    const raw = JSON.stringify({ merchant: store.store.slug, event: 'store.redact', request: { id: 'uninstall-op' } });
    const sent = await call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(PLATFORM_SECRET, raw, Math.floor(service.clock.now().getTime() / 1000)) },
    });
    expect(sent.status).toBe(200);

    const listed = await runAdmin(service.databaseUrl, '--json', 'privacy', 'list', '--merchant', store.store.slug);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).requests).toEqual([expect.objectContaining({ kind: 'store_redact', status: 'pending', actor: `platform:${PLATFORM}`, source_request_id: 'uninstall-op' })]);
    const cancelled = await runAdmin(service.databaseUrl, '--json', 'privacy', 'cancel-store-redaction', '--merchant', store.store.slug);
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout).request).toMatchObject({ status: 'cancelled' });
    const nothing = await runAdmin(service.databaseUrl, '--json', 'privacy', 'cancel-store-redaction', '--merchant', store.store.slug);
    expect(nothing.code).toBe(1);
    expect(JSON.parse(nothing.stdout).error_code).toBe('not_found');
    const audit = await service.db.auditEvent.findMany({ where: { storeId: store.store.id, subjectType: 'privacy_request' }, orderBy: { id: 'asc' } });
    expect(audit.map((entry) => [entry.action, entry.actorKind])).toEqual([
      ['privacy_request.received', 'platform'],
      ['privacy_request.cancelled', 'operator'],
    ]);
  });
});
