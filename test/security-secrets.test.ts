// Secrets through real HTTP and the real database:
//   - constant-time comparison of keys and signatures (the real functions, through a spy on
//     crypto.timingSafeEqual);
//   - after a representative run, the log output holds no key, secret or personal data;
//   - API keys at rest: no plaintext anywhere in the database, only 64-hex SHA-256 hashes.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from '../contract/webhook-signature.js';
import type { CallerCache } from '../server/domain/access/index.js';
import { actingFor, authenticateApiKey, findApiKeyStore, issueApiKey, revokeApiKey } from '../server/domain/access/index.js';
import { createLogger } from '../server/logger.js';
import { verifyEasyPostWebhook } from '../server/tracking/easypost.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';
import { spyOnTimingSafeEqual, type TimingSafeEqualSpy } from './support/timing-safe-equal-spy.js';
import { logLines, capture, PLATFORM_A, SECRET_A, SECRET_B, EASYPOST_SECRET, service, storeA, issuedKeys, unique, startSecurityService, stopSecurityService } from './support/security-fixture.js';


const enc = encodeURIComponent;

beforeAll(startSecurityService);
afterAll(stopSecurityService);

// ---- Constant-time comparison --------------------------------------------------------------------

describe('constant-time comparison', () => {
  // A timing measurement would be flaky on a shared machine (its noise is far above the difference
  // a 32-byte compare makes), so these tests check the behaviour that makes a comparison constant-
  // time instead. Each real comparison function accepts the right secret and refuses one that
  // differs only in its first byte, or only in its last; and in every case the decision is one call
  // of crypto.timingSafeEqual on two buffers of one fixed length (32 bytes: an HMAC or SHA-256
  // digest), never an early-exit compare (===, Buffer.equals, a loop) that stops at the first byte
  // that differs. The spy wraps the real timingSafeEqual (see support/timing-safe-equal-spy.ts).
  // Mutation-checked: fails with timingSafeEqual replaced by Buffer.equals in webhook-signature.ts
  // and easypost.ts, by === in api-keys.ts, and with only the first 16 bytes compared.
  let spy: TimingSafeEqualSpy;
  beforeEach(() => {
    spy = spyOnTimingSafeEqual();
  });
  afterEach(() => spy.restore());

  /** The hex digest with its first (or last) hex digit changed: its first (or last) byte differs. */
  const differingIn = (hex: string, at: 'first' | 'last'): string => {
    const i = at === 'first' ? 0 : hex.length - 1;
    return `${hex.slice(0, i)}${hex[i] === '0' ? '1' : '0'}${hex.slice(i + 1)}`;
  };

  it('platform webhook signatures: contract/webhook-signature.ts verifyWebhookSignature', () => {
    const raw = JSON.stringify({ merchant: 'm', event: 'order.placed' });
    const now = new Date('2026-11-20T10:00:00Z');
    const t = Math.floor(now.getTime() / 1000);
    const right = signWebhook(SECRET_A, raw, t).split(',v1=')[1] as string;
    expect(right).toMatch(/^[0-9a-f]{64}$/);
    for (const [label, v1, valid] of [
      ['the right signature', right, true],
      ['first byte differs', differingIn(right, 'first'), false],
      ['last byte differs', differingIn(right, 'last'), false],
    ] as const) {
      spy.reset();
      expect(verifyWebhookSignature(`t=${t},v1=${v1}`, raw, SECRET_A, now), label).toEqual(valid ? { valid: true } : { valid: false, reason: 'mismatch' });
      expect(spy.calls(), label).toEqual([{ lengths: [32, 32], result: valid }]);
    }
  });

  it('EasyPost webhook signatures: server/tracking/easypost.ts verifyEasyPostWebhook', () => {
    const raw = Buffer.from(JSON.stringify({ object: 'Event', description: 'tracker.updated' }));
    const right = createHmac('sha256', EASYPOST_SECRET).update(raw).digest('hex');
    for (const [label, hex, valid] of [
      ['the right signature', right, true],
      ['first byte differs', differingIn(right, 'first'), false],
      ['last byte differs', differingIn(right, 'last'), false],
    ] as const) {
      spy.reset();
      expect(verifyEasyPostWebhook(raw, { 'x-hmac-signature': `hmac-sha256-hex=${hex}` }, EASYPOST_SECRET), label).toBe(valid);
      expect(spy.calls(), label).toEqual([{ lengths: [32, 32], result: valid }]);
    }
  });

  it('API keys: server/domain/access/api-keys.ts authenticateApiKey', async () => {
    // The callers' cache is asked first, with exactly the value the database is then searched by: a
    // recording cache shows what that value is.
    const lookedUp: string[] = [];
    const cache: CallerCache = {
      get: (keyHash) => {
        lookedUp.push(keyHash);
        return undefined;
      },
      generation: () => 0,
      set: () => undefined,
      clear: () => undefined,
    };
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

    // The right key: found by its hash, then confirmed by one fixed-length compare of the two digests.
    const caller = await authenticateApiKey(service.db, storeA.liveKey, cache);
    expect(caller.store.id).toBe(storeA.store.id);
    expect(lookedUp).toEqual([sha256(storeA.liveKey)]);
    expect(spy.calls()).toEqual([{ lengths: [32, 32], result: true }]);

    // A key one character off at the start or at the end of its random part: refused. Only its
    // SHA-256 is ever looked up, so how far a lookup gets tells nothing about how many leading
    // characters were right, and no plaintext is compared anywhere (no row: nothing to compare).
    const prefix = 'ak_live_';
    const random = storeA.liveKey.slice(prefix.length);
    for (const at of [0, random.length - 1]) {
      const near = `${prefix}${random.slice(0, at)}${random[at] === 'A' ? 'B' : 'A'}${random.slice(at + 1)}`;
      expect(near).toHaveLength(storeA.liveKey.length);
      spy.reset();
      lookedUp.length = 0;
      await expect(authenticateApiKey(service.db, near, cache)).rejects.toMatchObject({ code: 'unauthorized' });
      expect(lookedUp).toEqual([sha256(near)]);
      expect(spy.calls()).toEqual([]);
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
      rateLimits: { ordersPerMinute: 40, addressesPerMinute: 3, addressesPerDay: 100, quotesPerMinute: 100, quotesPerMinutePerIp: 100, otherPerMinute: 40, shopperPerMinutePerIp: 1000, shopperLookupsPerIp: 1000, shopperLookupsPerOrderPerIp: 1000, shopperLookupsPerOrder: 1000 },
    });
    storeC = await seedStore(service.db);
    issuedKeys.push(storeC.liveKey, storeC.testKey);
    accountKey = (await issueApiKey(service.db, actingFor(TEST_OPERATOR, storeA.store), { mode: 'live', scope: 'account' })).key;
    const revoked = await issueApiKey(service.db, actingFor(TEST_OPERATOR, storeA.store), { mode: 'live', scope: 'store' });
    await revokeApiKey(service.db, actingFor(TEST_OPERATOR, await findApiKeyStore(service.db, revoked.id)), revoked.id, new Date());
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
    // The last character changed (to one it is not: a random key ends in X now and then).
    expect((await api('GET', `/v2/orders/${orderIds[0]}`, { key: `${key.slice(0, -1)}${key.endsWith('X') ? 'Y' : 'X'}` })).status).toBe(401);
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

// ---- Keys at rest --------------------------------------------------------------------------------

describe('API keys at rest', () => {
  // Self-contained: the test issues keys of every kind and puts each through the app itself (it used
  // to rely on the requests of the tests before it, and failed when run alone). When the whole file
  // runs, the keys the other tests issued are checked too.
  // Mutation-checked: fails when the rate limiter keys its counters by the presented key (the
  // token header) instead of the store and mode.
  it('leave no plaintext, nor its random part, in any text or json column of any table', async () => {
    // A second app on the same database with rate limits on, so the limiter's counters hold rows
    // written for requests made with these keys.
    const limited = await startService({
      databaseUrl: service.databaseUrl,
      rateLimits: { ordersPerMinute: 1000, addressesPerMinute: 1000, addressesPerDay: 1000, quotesPerMinute: 1000, quotesPerMinutePerIp: 1000, otherPerMinute: 1000, shopperPerMinutePerIp: 1000, shopperLookupsPerIp: 1000, shopperLookupsPerOrderPerIp: 1000, shopperLookupsPerOrder: 1000 },
    });
    const shop = await seedStore(service.db);
    const account = await issueApiKey(service.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'account' });
    const revoked = await issueApiKey(service.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'store' });
    await revokeApiKey(service.db, actingFor(TEST_OPERATOR, await findApiKeyStore(service.db, revoked.id)), revoked.id, new Date());
    const ownKeys = [shop.liveKey, shop.testKey, account.key, revoked.key];
    const marker = unique('keys-at-rest-');
    try {
      // Every key through the app: orders, a shipment (and its queued poll), a claim, a quote, an
      // address check, a statement; the account key (403) and the revoked one (401) too.
      const api = (method: string, path: string, options: Parameters<typeof call>[3]) => call(limited.baseUrl, method, path, options);
      const body = orderBody({ customer_details: { first_name: 'Keys', last_name: 'AtRest', email: `${marker}@example.com` } });
      const id = body.source_order_id as string;
      expect((await api('POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
      expect((await api('POST', '/v2/orders', { bearer: shop.testKey, body: orderBody() })).status).toBe(201);
      expect((await api('POST', '/v1/shipments', { key: shop.liveKey, body: { tracking_number: unique('ZZKEYS'), source_order_id: id, courier_id: 'ups' } })).status).toBe(201);
      expect((await api('POST', '/v1/claims', { key: shop.liveKey, body: { source_order_id: id, reason: 'lost', description: marker } })).status).toBe(201);
      expect((await api('POST', '/v2/quotes', { bearer: shop.liveKey, body: { cart: { covered: { amount: '125.00' }, cart_ref: marker } } })).status).toBe(201);
      expect((await api('POST', '/v2/addresses/verify', { key: shop.liveKey, body: { address: orderBody().shipping_details } })).status).toBe(200);
      expect((await api('GET', '/v1/billing/statements?month=2026-11', { key: shop.liveKey })).status).toBe(200);
      expect((await api('GET', `/v2/orders/${enc(id)}`, { bearer: account.key })).status).toBe(403);
      expect((await api('GET', `/v2/orders/${enc(id)}`, { key: revoked.key })).status).toBe(401);
    } finally {
      await limited.close();
    }

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
    const everything = values.join('\n');
    // The scan reads what these requests wrote: the order, the claim and the quote carry the marker,
    // the limiter counted them, and the shipment's poll is queued.
    expect(values.filter((v) => v.includes(marker)).length).toBeGreaterThanOrEqual(3);
    expect(Number((await service.db.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM rate_limit_counters'))[0]?.n)).toBeGreaterThan(0);
    expect(Number((await service.db.$queryRawUnsafe<Array<{ n: bigint }>>("SELECT count(*) AS n FROM pgboss.job WHERE name = 'tracking-poll'"))[0]?.n)).toBeGreaterThan(0);
    const keys = [...new Set([...issuedKeys, ...ownKeys])];
    for (const key of keys) {
      expect(everything.includes(key), `a column holds the key ${key.slice(0, 12)}...`).toBe(false);
      const random = key.slice('ak_live_'.length);
      expect(everything.includes(random), `a column holds the random part of ${key.slice(0, 12)}...`).toBe(false);
      // Nor any 16 characters of it.
      for (let i = 0; i + 16 <= random.length; i += 8) expect(everything.includes(random.slice(i, i + 16))).toBe(false);
    }

    // The hashes: 64 hex characters, one per issued key, each the SHA-256 of its key.
    const rows = await service.db.apiKey.findMany({ select: { keyHash: true, last4: true } });
    expect(rows.length).toBeGreaterThanOrEqual(keys.length);
    for (const row of rows) {
      expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.last4).toMatch(/^[A-Za-z0-9]{4}$/);
    }
    const stored = new Map(rows.map((row) => [row.keyHash, row.last4]));
    for (const key of keys) expect(stored.get(createHash('sha256').update(key).digest('hex')), key.slice(0, 12)).toBe(key.slice(-4));
  });
});
