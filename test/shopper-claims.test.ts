// The claim page's API through real HTTP (docs/shopper-claims.md): finding an order by its number
// and email, the signed session scoped to that order, the photo checks, the claim windows, filing
// through the one fileClaim, and what erasure takes with it. The browser flow is
// test/claims-web.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sweepUnattachedPhotos } from '../server/domain/claims/index.js';
import { NO_MATCHING_ORDER, orderNumberKey } from '../server/domain/claims/index.js';
import { DEFAULT_RATE_LIMITS } from '../server/http/rate-limit.js';
import { call, orderBody, tableCounts, type ApiResponse } from './support/http.js';
import { spyOnTimingSafeEqual } from './support/timing-safe-equal-spy.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';
import { decideClaimAsOperator } from './support/service.js';

let service: TestService;
let shop: SeededStore;
let otherShop: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  otherShop = await seedStore(service.db);
});
afterAll(async () => service.close());

const DAY_MS = 86_400_000;
const api = (store: SeededStore) => `/shopper/api/stores/${store.store.slug}`;

interface Shopper {
  cookie: string;
  csrf: string;
  store: SeededStore;
}

let sequence = 0;
/** A protected order (two lines) with one parcel, placed with the given email. */
async function placeOrder(options: { store?: SeededStore; email?: string; protect?: boolean; orderNumber?: string } = {}) {
  const store = options.store ?? shop;
  sequence += 1;
  const orderNumber = options.orderNumber ?? `#${1000 + sequence}-${Math.random().toString(36).slice(2, 6)}`;
  const body = orderBody({
    source_order_number: orderNumber,
    insurance_selected: options.protect ?? true,
    customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: options.email ?? 'ada@example.com', phone: '+1 555 0100' },
    line_items: [
      { source_id: 'li_1', name: 'Walnut desk organiser', price: 50, quantity: 2 },
      { source_id: 'li_2', name: 'Brass lamp', price: 25, quantity: 1 },
    ],
  });
  expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body })).status).toBe(201);
  const trackingNumber = `ZZSHOP${Date.now()}${sequence}`;
  const shipment = await call(service.baseUrl, 'POST', '/v1/shipments', {
    key: store.liveKey,
    body: { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'ups', line_items: [{ source_id: 'li_1', quantity: 2 }] },
  });
  expect(shipment.status).toBe(201);
  return { sourceOrderId: body.source_order_id as string, orderNumber, trackingNumber };
}

/** The carrier delivered the parcel `daysAgo` days ago (by the service's clock). */
async function deliver(trackingNumber: string, daysAgo = 0) {
  const shipment = await service.db.shipment.findFirstOrThrow({ where: { trackingNumber } });
  const at = new Date(service.clock.now().getTime() - daysAgo * DAY_MS);
  await service.db.shipmentCheckpoint.create({ data: { shipmentId: shipment.id, storeId: shipment.storeId, status: 'Delivered', message: 'Delivered, front door', city: 'Mountain View', state: 'CA', occurredAt: at, source: 'test', fingerprint: `delivered-${at.getTime()}` } });
  await service.db.shipment.updateMany({ where: { id: shipment.id }, data: { deliveryStatus: 'Delivered', updatedOn: at } });
}

const lookupRaw = (store: SeededStore, order_number: string, email: string, headers: Record<string, string> = {}) =>
  call(service.baseUrl, 'POST', `${api(store)}/lookup`, { body: { order_number, email }, headers });

async function logIn(store: SeededStore, orderNumber: string, email = 'ada@example.com'): Promise<Shopper> {
  const response = await lookupRaw(store, orderNumber, email);
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0] ?? '', csrf: response.body.csrf_token, store };
}

const asShopper = (shopper: Shopper, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
  call(service.baseUrl, method, `${api(shopper.store)}${path}`, {
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: { cookie: shopper.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': shopper.csrf }), ...options.headers },
  });

/** Uploads bytes as a photo; the answer may be an image error, so it is read as JSON too. */
async function upload(shopper: Shopper, bytes: Buffer, contentType = 'image/jpeg', headers: Record<string, string> = {}): Promise<ApiResponse> {
  return call(service.baseUrl, 'POST', `${api(shopper.store)}/photos`, {
    rawBody: bytes,
    headers: { cookie: shopper.cookie, 'x-csrf-token': shopper.csrf, 'content-type': contentType, ...headers },
  });
}

/** A real photo with a GPS position and a camera in its EXIF, as a phone writes one. */
const phonePhoto = (color = '#c33') =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: color } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Phone 15', Artist: 'Ada Lovelace' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 25/1 0/1' } })
    .toBuffer();

async function fetchImage(path: string, headers: Record<string, string>): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(`${service.baseUrl}${path}`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('finding an order', () => {
  it('opens a session for the order: an HttpOnly, SameSite=Strict cookie scoped to the store, and a CSRF token', async () => {
    const order = await placeOrder({ email: 'Ada.Lovelace@Example.com' });
    // The email as the shopper types it: other case, spaces around it.
    const response = await lookupRaw(shop, order.orderNumber, '  ada.lovelace@EXAMPLE.com ');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ csrf_token: expect.any(String), expires_at: expect.any(String) });
    expect(new Date(response.body.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(new Date(response.body.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^op_shopper_session=[^;]+;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain(`Path=/shopper/api/stores/${shop.store.slug}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const audit = await service.db.auditEvent.findFirst({ where: { storeId: shop.store.id, action: 'shopper.order_found' }, orderBy: { id: 'desc' } });
    expect(audit).toMatchObject({ actorKind: 'shopper' });
  });

  it('answers a wrong email and an unknown number alike: same status, same body, no cookie, and no sooner than the floor', async () => {
    const order = await placeOrder();
    const wrongEmail = await lookupRaw(shop, order.orderNumber, 'someone@else.example');
    const unknown = await lookupRaw(shop, 'NO-SUCH-ORDER', 'ada@example.com');
    for (const response of [wrongEmail, unknown]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: NO_MATCHING_ORDER, error_code: 'not_found', errors: [] });
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    // Interleaved, so drift in the machine's load falls on both alike.
    const durations = { wrong: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 8; i += 1) {
      for (const [kind, number, email] of [['wrong', order.orderNumber, 'x@y.example'], ['unknown', `NOPE-${i}`, 'ada@example.com']] as const) {
        const started = performance.now();
        expect((await lookupRaw(shop, number, email)).status).toBe(404);
        durations[kind].push(performance.now() - started);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    expect(Math.min(...durations.wrong, ...durations.unknown)).toBeGreaterThanOrEqual(245);
    expect(Math.abs(median(durations.wrong) - median(durations.unknown))).toBeLessThan(40);
  });

  it('compares the email hash in constant time, once per candidate order, with a stand-in when the number names none', async () => {
    const order = await placeOrder();
    const spy = spyOnTimingSafeEqual();
    try {
      for (const [number, email, found] of [
        [order.orderNumber, 'ada@example.com', true],
        [order.orderNumber, 'eve@example.com', false],
        ['NO-SUCH-NUMBER', 'ada@example.com', false],
      ] as const) {
        spy.reset();
        expect((await lookupRaw(shop, number, email)).status).toBe(found ? 200 : 404);
        // HMAC-SHA256 against HMAC-SHA256 (or the 32-byte stand-in): the same work whatever the answer.
        expect(spy.calls()).toEqual([{ lengths: [32, 32], result: found }]);
      }
    } finally {
      spy.restore();
    }
  });

  it('finds the order however the number is typed: without or with its "#", in any case, with spaces', async () => {
    // Numbers of this run only: "#<digits>" as Shopify shows them, and "AB-<digits>".
    const digits = `${Date.now()}`.slice(-9);
    const hashed = await placeOrder({ orderNumber: `#${digits}` });
    const lettered = await placeOrder({ orderNumber: `AB-${digits}` });
    const found = async (typed: string) => {
      const response = await lookupRaw(shop, typed, 'ada@example.com');
      expect(response.status, JSON.stringify(typed)).toBe(200);
      // The session is the order's: its number as the store wrote it.
      const order = await asShopper({ cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '', csrf: response.body.csrf_token, store: shop }, 'GET', '/order');
      return order.body.order_number as string;
    };
    for (const typed of [digits, `#${digits}`, ` ${digits} `, `# ${digits.slice(0, 4)} ${digits.slice(4)}`, `\t${digits}\n`, `##${digits}`]) {
      expect(await found(typed)).toBe(hashed.orderNumber);
    }
    for (const typed of [`ab-${digits}`, `AB-${digits}`, `Ab-${digits}`, ` ab - ${digits} `, `#ab-${digits}`]) {
      expect(await found(typed)).toBe(lettered.orderNumber);
    }
  });

  it('still gives a wrong number, or the right number with a wrong email, the one not-found answer', async () => {
    const digits = `${Date.now()}`.slice(-9);
    await placeOrder({ orderNumber: `AB-${digits}` });
    // Only '#', whitespace and case are forgiven: a missing dash, another digit or a stray character is another number.
    for (const [typed, email] of [
      [`AB${digits}`, 'ada@example.com'],
      [`AB-${digits}1`, 'ada@example.com'],
      [`AB-${digits}.`, 'ada@example.com'],
      [`${digits}`, 'ada@example.com'],
      [`ab-${digits}`, 'eve@example.com'],
    ] as const) {
      const response = await lookupRaw(shop, typed, email);
      expect(response.status, typed).toBe(404);
      expect(response.body).toEqual({ error: NO_MATCHING_ORDER, error_code: 'not_found', errors: [] });
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('compares once per order the forgiving match names: "#N" and "N" reach the one order, in constant time', async () => {
    const digits = `${Date.now()}`.slice(-9);
    await placeOrder({ orderNumber: `#${digits}` });
    const spy = spyOnTimingSafeEqual();
    try {
      for (const [typed, email, found] of [[digits, 'ada@example.com', true], [` #${digits}`, 'eve@example.com', false]] as const) {
        spy.reset();
        expect((await lookupRaw(shop, typed, email)).status).toBe(found ? 200 : 404);
        expect(spy.calls()).toEqual([{ lengths: [32, 32], result: found }]);
      }
    } finally {
      spy.restore();
    }
  });

  it('probes an index on the normalised number, with the rule in one SQL function that its TypeScript twin agrees with', async () => {
    const samples = ['1002', '#1002', ' 1002 ', '# 10 02', '\t#AB-12\r\n', 'ab-12', '##x', '#', 'A#B', 'Ünïcode-7', 'AB\u00a012'];
    for (const sample of samples) {
      const [row] = await service.db.$queryRaw<Array<{ key: string }>>`SELECT order_number_key(${sample}) AS key`;
      expect(row?.key, JSON.stringify(sample)).toBe(orderNumberKey(sample));
    }
    expect(orderNumberKey(' #AB-12 ')).toBe('ab-12');
    // The lookup's own predicate, planned with sequential scans ruled out: the expression index serves it.
    const [plan] = await service.db.$transaction([
      service.db.$executeRawUnsafe('SET LOCAL enable_seqscan = off'),
      service.db.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(
        `EXPLAIN SELECT o.id FROM (SELECT 1) AS one LEFT JOIN orders o ON o.store_id = '${shop.store.id}'::uuid AND order_number_key(o.source_order_number) = order_number_key('#1002')`,
      ),
    ]).then(([, rows]) => [rows.map((row) => row['QUERY PLAN']).join('\n')]);
    expect(plan).toContain('orders_store_id_order_number_key_prefix_idx');
  });

  it('validates the form: both fields named at once', async () => {
    const response = await call(service.baseUrl, 'POST', `${api(shop)}/lookup`, { body: { order_number: ' ', email: '' } });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['email', 'order_number']);
  });

  it('never finds an order whose personal data was erased', async () => {
    const order = await placeOrder();
    await logIn(shop, order.orderNumber);
    expect((await call(service.baseUrl, 'POST', `/v2/orders/${order.sourceOrderId}/redact`, { key: shop.liveKey })).status).toBe(200);
    expect((await lookupRaw(shop, order.orderNumber, 'ada@example.com')).status).toBe(404);
  });

  it("answers 404 for a store that does not exist, and never finds one store's order at another", async () => {
    expect((await lookupRaw({ ...shop, store: { ...shop.store, slug: 'no-such-store' } }, '#1', 'a@b.example')).status).toBe(404);
    const order = await placeOrder();
    expect((await lookupRaw(otherShop, order.orderNumber, 'ada@example.com')).status).toBe(404);
  });
});

describe('the session', () => {
  it("shows the order: parcels with carrier, status, items and scans, claim windows, and the store's page settings", async () => {
    const order = await placeOrder();
    const shopper = await logIn(shop, order.orderNumber);
    const response = await asShopper(shopper, 'GET', '/order');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      order_number: order.orderNumber,
      status: 'active',
      protected: true,
      store: { name: shop.store.name, slug: shop.store.slug, logo_url: null, accent_color: null, claim_windows: { lost_after_days: 7, after_delivery_days: 30 } },
      items: [
        { source_id: 'li_1', name: 'Walnut desk organiser', quantity: 2 },
        { source_id: 'li_2', name: 'Brass lamp', quantity: 1 },
      ],
      claims: [],
      session: { csrf_token: shopper.csrf },
    });
    const [parcel] = response.body.shipments;
    expect(parcel).toMatchObject({ tracking_number: order.trackingNumber, carrier: 'UPS', status: 'Active', open_claim_id: null, items: [{ source_id: 'li_1', quantity: 2 }] });
    const windows = Object.fromEntries(parcel.claim_windows.map((window: { reason: string }) => [window.reason, window]));
    // Just shipped: lost opens 7 days after the registration; damage needs a delivery first.
    expect(windows.lost).toMatchObject({ open: false, explanation: expect.stringMatching(/7 days/) });
    expect(new Date(windows.lost.opens_on).getTime() - Date.now()).toBeGreaterThan(6.9 * DAY_MS);
    expect(windows.damaged).toMatchObject({ open: false, explanation: expect.stringMatching(/delivered/) });
    expect(windows.other).toMatchObject({ open: true });
  });

  it('is refused when missing, tampered with, or expired (and the expired cookie is cleared)', async () => {
    const order = await placeOrder();
    const shopper = await logIn(shop, order.orderNumber);
    expect((await call(service.baseUrl, 'GET', `${api(shop)}/order`)).status).toBe(401);
    const [name, value = ''] = shopper.cookie.split('=');
    const tampered = `${name}=${value.slice(0, 10)}${value[10] === 'A' ? 'B' : 'A'}${value.slice(11)}`;
    expect((await asShopper({ ...shopper, cookie: tampered }, 'GET', '/order')).status).toBe(401);
    service.clock.advance(31 * 60_000);
    try {
      const expired = await asShopper(shopper, 'GET', '/order');
      expect(expired.status).toBe(401);
      expect(expired.body.error).toMatch(/session has ended/);
      expect(expired.headers.get('set-cookie')).toMatch(/op_shopper_session=;.*Max-Age=0/);
    } finally {
      service.clock.advance(-31 * 60_000);
    }
  });

  it("cannot read another store's order, nor another order's claims or photos", async () => {
    const mine = await placeOrder();
    const theirs = await placeOrder({ email: 'grace@example.com' });
    const me = await logIn(shop, mine.orderNumber);
    const them = await logIn(shop, theirs.orderNumber, 'grace@example.com');
    // My session at another store's address: that store has no such session.
    expect((await asShopper({ ...me, store: otherShop }, 'GET', '/order')).status).toBe(401);
    // Their claim and photo, by id, from my session.
    await deliver(theirs.trackingNumber);
    const photo = await upload(them, await phonePhoto());
    expect(photo.status).toBe(201);
    const claim = await asShopper(them, 'POST', '/claims', { body: { tracking_number: theirs.trackingNumber, reason: 'damaged', description: 'Crushed', items: [], photo_ids: [photo.body.id] } });
    expect(claim.status).toBe(201);
    expect((await asShopper(me, 'GET', `/claims/${claim.body.id}`)).status).toBe(404);
    expect((await fetchImage(`${api(shop)}/photos/${photo.body.id}`, { cookie: me.cookie })).status).toBe(404);
    // Nor can I attach their photo to my claim.
    await deliver(mine.trackingNumber);
    const stolen = await asShopper(me, 'POST', '/claims', { body: { tracking_number: mine.trackingNumber, reason: 'damaged', description: 'Crushed', items: [], photo_ids: [photo.body.id] } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors).toEqual([{ field: 'photo_ids', message: expect.stringMatching(/uploaded for this order/) }]);
  });

  it('refuses every change without the CSRF token or from another origin, writing nothing', async () => {
    const order = await placeOrder();
    const shopper = await logIn(shop, order.orderNumber);
    const before = await tableCounts(service.db);
    const claim = { tracking_number: order.trackingNumber, reason: 'other', description: 'Wrong colour', items: [], photo_ids: [] };
    const noToken = await call(service.baseUrl, 'POST', `${api(shop)}/claims`, { body: claim, headers: { cookie: shopper.cookie } });
    expect(noToken.status).toBe(403);
    const wrongToken = await asShopper(shopper, 'POST', '/claims', { body: claim, headers: { 'x-csrf-token': 'forged' } });
    expect(wrongToken.status).toBe(403);
    const crossSite = await asShopper(shopper, 'POST', '/claims', { body: claim, headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    const crossSiteUpload = await upload(shopper, await phonePhoto(), 'image/jpeg', { origin: 'https://evil.example' });
    expect(crossSiteUpload.status).toBe(403);
    const crossSiteLookup = await lookupRaw(shop, order.orderNumber, 'ada@example.com', { origin: 'https://evil.example' });
    expect(crossSiteLookup.status).toBe(403);
    expect(await tableCounts(service.db)).toEqual(before);
  });
});

describe('photos', () => {
  it('keeps a JPEG re-encoded without its metadata, downloadable by the session and by the store key only', async () => {
    const order = await placeOrder();
    await deliver(order.trackingNumber);
    const shopper = await logIn(shop, order.orderNumber);
    const original = await phonePhoto();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    // A PNG declared as anything: the bytes decide.
    const png = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#2a6a' } }).png().toBuffer();
    const [jpegPhoto, pngPhoto] = [await upload(shopper, original), await upload(shopper, png, 'application/octet-stream')];
    expect(jpegPhoto.status).toBe(201);
    expect(jpegPhoto.body).toEqual({ id: expect.any(String), width: 1200, height: 900, bytes: expect.any(Number) });
    expect(pngPhoto.status).toBe(201);
    const stored = await fetchImage(`${api(shop)}/photos/${jpegPhoto.body.id}`, { cookie: shopper.cookie });
    expect(stored.status).toBe(200);
    expect(stored.type).toBe('image/jpeg');
    expect(stored.bytes.length).toBe(jpegPhoto.body.bytes);
    const metadata = await sharp(stored.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 1200, height: 900 });
    expect(metadata.exif).toBeUndefined();
    expect(stored.bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect((await sharp((await fetchImage(`${api(shop)}/photos/${pngPhoto.body.id}`, { cookie: shopper.cookie })).bytes).metadata()).format).toBe('jpeg');

    const filed = await asShopper(shopper, 'POST', '/claims', {
      body: { tracking_number: order.trackingNumber, reason: 'damaged', description: 'The box was crushed.', items: [{ source_id: 'li_1', quantity: 1 }], photo_ids: [jpegPhoto.body.id, pngPhoto.body.id] },
    });
    expect(filed.status).toBe(201);
    // The merchant's API: channel and photo references, downloadable with the store's key only.
    const read = await call(service.baseUrl, 'GET', `/v1/claims/${filed.body.id}`, { key: shop.liveKey });
    expect(read.body).toMatchObject({ channel: 'shopper_page', photos: [{ id: jpegPhoto.body.id, width: 1200, height: 900 }, { id: pngPhoto.body.id, width: 300, height: 200 }] });
    const url = read.body.photos[0].url as string;
    expect(url).toBe(`/v1/claims/${filed.body.id}/photos/${jpegPhoto.body.id}`);
    const byKey = await fetchImage(url, { token: shop.liveKey });
    expect(byKey).toMatchObject({ status: 200, type: 'image/jpeg' });
    expect(byKey.bytes.equals(stored.bytes)).toBe(true);
    expect((await fetchImage(url, { token: otherShop.liveKey })).status).toBe(404);
    expect((await fetchImage(url, { token: shop.testKey })).status).toBe(404);
    expect((await fetchImage(url, {})).status).toBe(401);
  });

  it('refuses a file whose type is faked, an empty body, an image over 10 MiB, and a corrupt image, storing nothing', async () => {
    const order = await placeOrder();
    const shopper = await logIn(shop, order.orderNumber);
    const before = await tableCounts(service.db);
    const faked = await upload(shopper, Buffer.from('<?php system($_GET["c"]); ?> not a photo at all'), 'image/jpeg');
    expect(faked.status).toBe(400);
    expect(faked.body.errors).toEqual([{ field: 'photo', message: expect.stringMatching(/JPEG, PNG or WebP/) }]);
    const svg = await upload(shopper, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/png');
    expect(svg.status).toBe(400);
    expect((await upload(shopper, Buffer.alloc(0))).status).toBe(400);
    const tooLarge = await upload(shopper, Buffer.alloc(10 * 1024 * 1024 + 1, 0xff));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error_code).toBe('payload_too_large');
    // A real JPEG header on a truncated file.
    const truncated = (await phonePhoto()).subarray(0, 400);
    const corrupt = await upload(shopper, truncated);
    expect(corrupt.status).toBe(400);
    expect(corrupt.body.errors[0].field).toBe('photo');
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('sweeps photos no claim took within a day', async () => {
    const order = await placeOrder();
    const shopper = await logIn(shop, order.orderNumber);
    const photo = await upload(shopper, await phonePhoto());
    expect(await sweepUnattachedPhotos(service.db, service.clock.now())).toBe(0);
    expect(await sweepUnattachedPhotos(service.db, new Date(service.clock.now().getTime() + 25 * 3600_000))).toBeGreaterThanOrEqual(1);
    expect(await service.db.claimPhoto.count({ where: { id: photo.body.id } })).toBe(0);
    expect(await service.db.claimPhotoObject.count({ where: { photoId: photo.body.id } })).toBe(0);
  });
});

describe('filing and following a claim', () => {
  it('files through the one fileClaim: the claim.created event, one open claim per parcel, photos required for damage', async () => {
    const order = await placeOrder();
    await deliver(order.trackingNumber, 2);
    const shopper = await logIn(shop, order.orderNumber);
    const noPhoto = await asShopper(shopper, 'POST', '/claims', { body: { tracking_number: order.trackingNumber, reason: 'damaged', description: 'Dented', items: [], photo_ids: [] } });
    expect(noPhoto.status).toBe(400);
    expect(noPhoto.body.errors).toEqual([{ field: 'photo_ids', message: expect.stringMatching(/at least one photo/) }]);
    const filed = await asShopper(shopper, 'POST', '/claims', {
      body: { tracking_number: order.trackingNumber, reason: 'missing_items', description: 'One organiser was missing.', items: [{ source_id: 'li_1', quantity: 1 }], photo_ids: [] },
    });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({
      order_number: order.orderNumber,
      tracking_number: order.trackingNumber,
      reason: 'missing_items',
      status: 'open',
      items: [{ source_id: 'li_1', name: 'Walnut desk organiser', quantity: 1 }],
      history: [{ status: 'open', note: null }],
    });
    const event = await service.db.event.findFirst({ where: { storeId: shop.store.id, type: 'claim.created' }, orderBy: { createdAt: 'desc' } });
    expect(event?.data).toMatchObject({ id: filed.body.id, channel: 'shopper_page' });
    const history = await service.db.claimStatusChange.findFirstOrThrow({ where: { claimId: filed.body.id } });
    expect(history).toMatchObject({ actorKind: 'shopper' });
    // A double tap: the parcel has its open claim.
    const again = await asShopper(shopper, 'POST', '/claims', { body: { tracking_number: order.trackingNumber, reason: 'stolen', description: 'x', items: [], photo_ids: [] } });
    expect(again.status).toBe(409);
    const view = await asShopper(shopper, 'GET', '/order');
    expect(view.body.shipments[0].open_claim_id).toBe(filed.body.id);
    expect(view.body.claims).toEqual([expect.objectContaining({ id: filed.body.id, status: 'open' })]);
    // The open claim blocks the store from cancelling the order, as any claim does.
    expect((await call(service.baseUrl, 'POST', `/v1/orders/${order.sourceOrderId}/cancel`, { key: shop.liveKey })).status).toBe(409);
  });

  it("shows the store's decision and note once given", async () => {
    const order = await placeOrder();
    const shopper = await logIn(shop, order.orderNumber);
    const filed = await asShopper(shopper, 'POST', '/claims', { body: { tracking_number: order.trackingNumber, reason: 'wrong_address', description: 'Sent to my old flat.', items: [], photo_ids: [] } });
    expect(filed.status).toBe(201);
    await decideClaimAsOperator(service.db, filed.body.id, 'approved', service.clock, 'A replacement ships today.');
    const read = await asShopper(shopper, 'GET', `/claims/${filed.body.id}`);
    expect(read.body.status).toBe('approved');
    expect(read.body.history.map((change: { status: string; note: string | null }) => [change.status, change.note])).toEqual([
      ['open', null],
      ['approved', 'A replacement ships today.'],
    ]);
  });

  it('holds the shopper to the windows: lost only after 7 days without a scan, damage up to 30 days after delivery', async () => {
    const order = await placeOrder();
    const shopper = await logIn(shop, order.orderNumber);
    const lost = { tracking_number: order.trackingNumber, reason: 'lost', description: 'Never came.', items: [], photo_ids: [] };
    const early = await asShopper(shopper, 'POST', '/claims', { body: lost });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/no carrier scan for 7 days/);
    // The merchant's API is not held to them: the store decides for itself.
    const stale = await placeOrder();
    await deliver(stale.trackingNumber, 31);
    const staleShopper = await logIn(shop, stale.orderNumber);
    const late = await asShopper(staleShopper, 'POST', '/claims', { body: { tracking_number: stale.trackingNumber, reason: 'stolen', description: 'Not there.', items: [], photo_ids: [] } });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/within 30 days of delivery/);
    expect((await call(service.baseUrl, 'POST', '/v1/claims', { key: shop.liveKey, body: { source_order_id: stale.sourceOrderId, tracking_number: stale.trackingNumber, reason: 'stolen' } })).status).toBe(201);

    service.clock.advance(8 * DAY_MS);
    try {
      // A new session: the first one expired with the week.
      const later = await logIn(shop, order.orderNumber);
      const windows = (await asShopper(later, 'GET', '/order')).body.shipments[0].claim_windows;
      expect(windows.find((window: { reason: string }) => window.reason === 'lost')).toMatchObject({ open: true });
      expect((await asShopper(later, 'POST', '/claims', { body: lost })).status).toBe(201);
    } finally {
      service.clock.advance(-8 * DAY_MS);
    }
  });

  it('shows an unprotected order without a way to file, and refuses a claim on it', async () => {
    const order = await placeOrder({ protect: false });
    const shopper = await logIn(shop, order.orderNumber);
    const view = await asShopper(shopper, 'GET', '/order');
    expect(view.body).toMatchObject({ protected: false });
    const refused = await asShopper(shopper, 'POST', '/claims', { body: { tracking_number: order.trackingNumber, reason: 'other', description: 'x', items: [], photo_ids: [] } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/not protected/);
  });

  it("erasing the order's personal data takes the claim's photos with its texts, and ends the session", async () => {
    const order = await placeOrder();
    await deliver(order.trackingNumber);
    const shopper = await logIn(shop, order.orderNumber);
    const photos = [await upload(shopper, await phonePhoto('#33c')), await upload(shopper, await phonePhoto('#3c3'))].map((response) => response.body.id as string);
    const filed = await asShopper(shopper, 'POST', '/claims', { body: { tracking_number: order.trackingNumber, reason: 'damaged', description: 'Smashed lamp, see photos.', items: [], photo_ids: photos } });
    expect(filed.status).toBe(201);
    await decideClaimAsOperator(service.db, filed.body.id, 'denied', service.clock, 'Not covered.');
    expect(await service.db.claimPhotoObject.count({ where: { photoId: { in: photos } } })).toBe(2);
    expect((await call(service.baseUrl, 'POST', `/v2/orders/${order.sourceOrderId}/redact`, { key: shop.liveKey })).status).toBe(200);
    expect(await service.db.claimPhoto.count({ where: { id: { in: photos } } })).toBe(0);
    expect(await service.db.claimPhotoObject.count({ where: { photoId: { in: photos } } })).toBe(0);
    const read = await call(service.baseUrl, 'GET', `/v1/claims/${filed.body.id}`, { key: shop.liveKey });
    expect(read.body).toMatchObject({ description: null, photos: [] });
    expect((await asShopper(shopper, 'GET', '/order')).status).toBe(401);
  });
});

describe('rate limits', () => {
  it('throttles 1,000 lookups from one IP, and lookups of one order number from many', async () => {
    const limited = await startService({ databaseUrl: service.databaseUrl, rateLimits: DEFAULT_RATE_LIMITS, trustedProxies: 1 });
    try {
      const statuses: number[] = [];
      const ip = '203.0.113.7';
      for (let batch = 0; batch < 20; batch += 1) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            call(limited.baseUrl, 'POST', `${api(shop)}/lookup`, { body: { order_number: `GUESS-${batch}-${i}`, email: 'ada@example.com' }, headers: { 'x-forwarded-for': ip } }).then(
              (response) => response.status,
            ),
          ),
        );
        statuses.push(...answers);
      }
      expect(statuses).toHaveLength(1000);
      expect(statuses.filter((status) => status === 404)).toHaveLength(DEFAULT_RATE_LIMITS.shopperLookupsPerIp);
      expect(statuses.filter((status) => status === 429)).toHaveLength(1000 - DEFAULT_RATE_LIMITS.shopperLookupsPerIp);
      const refused = await call(limited.baseUrl, 'POST', `${api(shop)}/lookup`, { body: { order_number: 'x', email: 'a@b.example' }, headers: { 'x-forwarded-for': ip } });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

      // One order number from one address: its own limit, which locks nobody else out.
      const order = await placeOrder();
      const lookup = (ip: string, email: string) =>
        call(limited.baseUrl, 'POST', `${api(shop)}/lookup`, { body: { order_number: order.orderNumber, email }, headers: { 'x-forwarded-for': ip } });
      const fromOne: number[] = [];
      for (let i = 0; i < DEFAULT_RATE_LIMITS.shopperLookupsPerOrderPerIp + 2; i += 1) fromOne.push((await lookup('198.51.100.250', `guess${i}@example.com`)).status);
      expect(fromOne.slice(0, DEFAULT_RATE_LIMITS.shopperLookupsPerOrderPerIp).every((status) => status === 404)).toBe(true);
      expect(fromOne.slice(DEFAULT_RATE_LIMITS.shopperLookupsPerOrderPerIp)).toEqual([429, 429]);
      const retryAfter = Number((await lookup('198.51.100.250', 'ada@example.com')).headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      // The shopper, from their own address, still finds the order.
      expect((await lookup('203.0.113.77', 'ada@example.com')).status).toBe(200);
      // Retyping the number gains no tries: "#N", "n" and " N " are the same number to the limit.
      const bare = order.orderNumber.replace(/^#/, '');
      for (const typed of [bare, bare.toLowerCase(), ` ${order.orderNumber} `]) {
        const retyped = await call(limited.baseUrl, 'POST', `${api(shop)}/lookup`, { body: { order_number: typed, email: 'x@example.com' }, headers: { 'x-forwarded-for': '198.51.100.250' } });
        expect(retyped.status, typed).toBe(429);
      }

      // From many addresses the order number stops only at its ceiling, well above one address's
      // limit. Every lookup so far counted towards it, refused ones too: 12 + 1 + 1 + 3 retyped.
      const counted = fromOne.length + 2 + 3;
      // Sent at once (each lookup takes its 250 ms floor): the counter decides which one is refused.
      const fromMany = await Promise.all(
        Array.from({ length: DEFAULT_RATE_LIMITS.shopperLookupsPerOrder - counted + 1 }, (_, i) =>
          lookup(`198.51.${101 + Math.floor(i / 200)}.${(i % 200) + 1}`, `guess${i}@example.com`).then((answer) => answer.status),
        ),
      );
      expect(fromMany.filter((status) => status === 404)).toHaveLength(83);
      expect(fromMany.filter((status) => status === 429)).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });
});
