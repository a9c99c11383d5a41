// Bodies and URLs built to break the service rather than use it: deep nesting, duplicate keys,
// text PostgreSQL cannot store, bytes that are not UTF-8. Each answer is a 400 in the error format
// naming what is wrong, nothing is written, and the process is still there to answer the next
// request. Before these checks, 2,000 nested arrays ended the process (a recursive walk over the
// body), and lone surrogates reached PostgreSQL (a 500, or two ids stored as one).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { inspectJsonText, MAX_JSON_DEPTH } from '../server/http/json-text.js';
import { signEasyPost } from './support/fuzz-http.js';
import { call, orderBody, tableCounts } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const PLATFORM = 'deepshop';
const SECRET = 'deepshop-shared-secret-0123456789';
const EASYPOST_SECRET = 'easypost-webhook-secret-for-tests';
let service: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService({ easyPostWebhookSecret: EASYPOST_SECRET });
  shop = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
});
afterAll(async () => service.close());

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A body whose `extra` field holds `depth` levels of arrays: the whole body nests depth + 1 deep. */
const deepBody = (depth: number) => `{"merchant":"x","event":"order.placed","extra":${nestedArrays(depth)}}`;

const sendRaw = (path: string, raw: string | Buffer, headers: Record<string, string> = {}) =>
  call(service.baseUrl, 'POST', path, { rawBody: raw, headers: { 'content-type': 'application/json', ...headers } });
/** A key-authenticated POST of exactly these bytes as JSON. */
const postText = (path: string, raw: string | Buffer, key = shop.liveKey) => sendRaw(path, raw, { token: key });
const signed = (raw: string) => ({ 'x-webhook-signature': signWebhook(SECRET, raw, Math.floor(Date.now() / 1000)) });

async function stillServing(): Promise<void> {
  const health = await call(service.baseUrl, 'GET', '/healthz');
  expect(health.status).toBe(200);
}

describe('deeply nested JSON', () => {
  it('is refused before any walk on unsigned and unknown-platform webhooks, and the process lives', async () => {
    const raw = nestedArrays(2000);
    const unknown = await sendRaw('/api/webhooks/no-such-platform', raw);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe('not_found');
    const unsigned = await sendRaw(`/api/webhooks/${PLATFORM}`, raw);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error_code).toBe('unauthorized');
    const easyPost = await sendRaw('/v1/tracking/easypost/webhook', raw);
    expect(easyPost.status).toBe(401);
    await stillServing();
  });

  it('is a 400 naming the limit on a correctly signed webhook and a signed EasyPost event', async () => {
    const raw = deepBody(2000);
    const platform = await sendRaw(`/api/webhooks/${PLATFORM}`, raw, signed(raw));
    expect(platform.status).toBe(400);
    expect(platform.body).toMatchObject({ error_code: 'invalid_request' });
    expect(platform.body.error).toContain(`${MAX_JSON_DEPTH} levels`);
    const easyPost = await sendRaw('/v1/tracking/easypost/webhook', raw, { 'x-hmac-signature': signEasyPost(EASYPOST_SECRET, raw) });
    expect(easyPost.status).toBe(400);
    expect(easyPost.body.error).toContain(`${MAX_JSON_DEPTH} levels`);
    await stillServing();
  });

  it('is a 400 on key-authenticated routes, 401 first when the key is bad', async () => {
    const raw = deepBody(2000);
    const refused = await postText('/v2/orders', raw);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(`${MAX_JSON_DEPTH} levels`);
    const badKey = await postText('/v2/orders', raw, 'ak_live_nope');
    expect(badKey.status).toBe(401);
    await stillServing();
  });

  it('takes exactly the limit and refuses one level more', async () => {
    // deepBody(n) nests n + 1 levels: the object itself, then n arrays.
    const atLimit = await postText('/v2/quotes', deepBody(MAX_JSON_DEPTH - 1));
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.error).not.toContain('levels');
    expect(atLimit.body.errors.map((e: { field: string }) => e.field)).toContain('cart');
    const overLimit = await postText('/v2/quotes', deepBody(MAX_JSON_DEPTH));
    expect(overLimit.status).toBe(400);
    expect(overLimit.body.error).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  it('is inspected without recursion, however deep the text', () => {
    const findings = inspectJsonText(nestedArrays(200_000), Number.POSITIVE_INFINITY);
    expect(findings.tooDeep).toBe(false);
    expect(inspectJsonText(nestedArrays(MAX_JSON_DEPTH)).tooDeep).toBe(false);
    expect(inspectJsonText(nestedArrays(MAX_JSON_DEPTH + 1)).tooDeep).toBe(true);
  });
});

describe('duplicate keys', () => {
  it('refuse the body, naming every repeated key, and book nothing', async () => {
    const before = await tableCounts(service.db);
    const body = JSON.stringify(orderBody({ subtotal: 125 }));
    // The same order as a proxy keeping the first key would read it, with a second subtotal appended.
    const raw = body.replace('"subtotal":125', '"subtotal":125,"subtotal":5000').replace('"city":"Mountain View"', '"city":"A","city":"B"');
    const response = await postText('/v2/orders', raw);
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe('invalid_request');
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['shipping_details.city', 'subtotal']);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('count keys by their decoded text, so an escape cannot hide a repeat', async () => {
    const raw = '{"cart":{"covered":{"amount":"1.00","amount":"9.00"}},"merchant_id":"a","merchant\\u005fid":"b"}';
    const response = await postText('/v2/quotes', raw);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cart.covered.amount', 'merchant_id']);
  });

  it('in a signed webhook are refused too', async () => {
    const raw = `{"merchant":"${shop.store.slug}","event":"order.placed","event":"refund.created","order":{"id":"dup-1"}}`;
    const response = await sendRaw(`/api/webhooks/${PLATFORM}`, raw, signed(raw));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'event' })]);
  });
});

describe('text the database cannot store', () => {
  it('refuses lone surrogates in quote cart items, order addresses and line names, naming each field', async () => {
    const quote = await postText('/v2/quotes', '{"cart":{"covered":{"amount":"10.00"},"cart_items":[{"title":"a\\ud800b"}]}}');
    expect(quote.status).toBe(400);
    expect(quote.body.errors).toEqual([expect.objectContaining({ field: 'cart.cart_items[0].title' })]);

    const before = await tableCounts(service.db);
    const raw = JSON.stringify(orderBody())
      .replace('"city":"Mountain View"', '"city":"Mountain \\udc00View"')
      .replace('"name":"Walnut desk organiser"', '"name":"Walnut \\ud83d desk"');
    const order = await postText('/v2/orders', raw);
    expect(order.status).toBe(400);
    expect(order.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['line_items[0].name', 'shipping_details.city']);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('never stores two different ids as one: both are refused, and a real pair is kept whole', async () => {
    for (const id of ['X\\ud800', 'X\\udbff']) {
      const raw = JSON.stringify(orderBody()).replace(/"source_order_id":"[^"]+"/, `"source_order_id":"${id}"`);
      const response = await postText('/v2/orders', raw);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'source_order_id' })]);
    }
    const emojiId = `X\u{1F4E6}${Date.now()}`;
    const created = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody({ source_order_id: emojiId }) });
    expect(created.status).toBe(201);
    expect(created.body.source_order_id).toBe(emojiId);
  });

  it('refuses bytes that are not UTF-8 instead of reading them as U+FFFD', async () => {
    const raw = Buffer.concat([Buffer.from('{"cart":{"covered":{"amount":"10.00"},"cart_ref":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    const response = await postText('/v2/quotes', raw);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('UTF-8');
  });

  it('refuses NUL and bad percent-encoding in queries and paths, naming the parameter', async () => {
    const nulQuery = await call(service.baseUrl, 'GET', '/v1/claims?source_order_id=%00', { key: shop.liveKey });
    expect(nulQuery.status).toBe(400);
    expect(nulQuery.body.errors).toEqual([expect.objectContaining({ field: 'source_order_id' })]);
    const notUtf8 = await call(service.baseUrl, 'GET', '/v1/claims?source_order_id=%ED%A0%80', { key: shop.liveKey });
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body.errors).toEqual([expect.objectContaining({ field: 'source_order_id' })]);
    const nulPath = await call(service.baseUrl, 'GET', '/v2/orders/a%00b', { key: shop.liveKey });
    expect(nulPath.status).toBe(400);
    expect(nulPath.body.errors).toEqual([expect.objectContaining({ field: 'source_order_id' })]);
    const badPath = await call(service.baseUrl, 'GET', '/v1/shipments/%ED%A0%80', { key: shop.liveKey });
    expect(badPath.status).toBe(400);
    expect(badPath.body.error_code).toBe('invalid_request');
  });
});

describe('string limits and blank ids', () => {
  it('counts characters as code points, as the published maxLength does: 255 emoji fit a 255-character id', async () => {
    const emoji = '\u{1F4E6}'; // two UTF-16 units, one character
    const fits = `${emoji.repeat(254)}${String(Date.now() % 10)}`;
    const created = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody({ source_order_id: fits, line_items: [{ source_id: emoji.repeat(255), name: emoji.repeat(500), price: 1, quantity: 1 }] }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.source_order_id).toBe(fits);
    const tooLong = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody({ source_order_id: emoji.repeat(256) }) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ field: 'source_order_id', message: 'must be at most 255 characters' }]);
    const order = JSON.parse(readFileSync('openapi.json', 'utf8')) as { components: { schemas: Record<string, { properties: Record<string, { maxLength?: number }> }> } };
    expect(order.components.schemas.OrderRequest?.properties.source_order_id?.maxLength).toBe(255);
  });

  it('refuses ids and names of white space only, naming each', async () => {
    const response = await call(service.baseUrl, 'POST', '/v2/orders', {
      key: shop.liveKey,
      body: orderBody({ source_order_id: ' \t ', line_items: [{ source_id: '  ', name: 'Desk', price: 1, quantity: 1 }] }),
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { field: 'source_order_id', message: 'must not be blank' },
      { field: 'line_items[0].source_id', message: 'must not be blank' },
    ]);
    const inPath = await call(service.baseUrl, 'GET', '/v2/orders/%20', { key: shop.liveKey });
    expect(inPath.status).toBe(400);
    expect(inPath.body.errors).toEqual([{ field: 'source_order_id', message: 'must not be blank' }]);
  });
});
