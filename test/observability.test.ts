// Metrics (prom-client at /metrics), log redaction, and security headers, through real HTTP.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { createLogger } from '../server/logger.js';
import { call, metricValue, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const logLines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

const SECRET = 'observability-shared-secret-42';
let service: TestService;
let hidden: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService({
    exposeMetrics: true,
    logger: createLogger('debug', capture),
    rateLimits: { ordersPerMinute: 2, addressesPerMinute: 100, addressesPerDay: 100, quotesPerMinute: 100, quotesPerMinutePerIp: 100, otherPerMinute: 100, shopperPerMinutePerIp: 1000, shopperLookupsPerIp: 1000, shopperLookupsPerOrderPerIp: 1000, shopperLookupsPerOrder: 1000 },
  });
  hidden = await startService({ databaseUrl: service.databaseUrl });
  shop = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, 'obsplatform', SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), 'obsplatform');
});
afterAll(async () => {
  await service.close();
  await hidden.close();
});

describe('/metrics', () => {
  it('counts requests and latency by route and status, rate-limit rejections and premium', async () => {
    const body = orderBody({
      customer_details: { first_name: 'Zelda', last_name: 'Quackenbush', email: 'zelda.q@example.org', phone: '+1 555 867 5309' },
      shipping_details: { street_address1: '742 Evergreen Terrace', city: 'Springfield', province: 'OR', zip: '97477', country_code: 'US' },
    });
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body })).status).toBe(201);
    expect((await call(service.baseUrl, 'GET', '/v2/orders/missing', { key: shop.liveKey })).status).toBe(404);
    expect((await call(service.baseUrl, 'GET', '/v2/orders/missing', { key: shop.liveKey })).status).toBe(429);

    const raw = JSON.stringify({
      merchant: shop.store.slug,
      event: 'refund.created',
      order: { id: body.source_order_id },
      refund: { id: 'obs-refund-1', items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: 88 }] },
    });
    const refund = await call(service.baseUrl, 'POST', '/api/webhooks/obsplatform', {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(SECRET, raw) },
    });
    expect(refund.body.reversed_cents).toBe(88);

    const response = await fetch(`${service.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(metricValue(text, 'http_requests_total{route="/v2/orders",method="POST",status="201"}')).toBe(1);
    expect(metricValue(text, 'http_requests_total{route="/v2/orders/:source_order_id",method="GET",status="404"}')).toBe(1);
    expect(metricValue(text, 'http_requests_total{route="/v2/orders/:source_order_id",method="GET",status="429"}')).toBe(1);
    expect(metricValue(text, 'http_request_duration_seconds_count{route="/v2/orders",method="POST",status="201"}')).toBe(1);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.005",route="\/v2\/orders",method="POST",status="201"\}/);
    expect(metricValue(text, 'rate_limit_rejections_total{limit="orders"}')).toBe(1);
    expect(metricValue(text, 'premium_booked_cents_total')).toBe(188);
    expect(metricValue(text, 'premium_reversed_cents_total')).toBe(88);
    expect(metricValue(text, 'tracking_job_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('is not served on the API port unless enabled', async () => {
    const response = await fetch(`${hidden.baseUrl}/metrics`);
    expect(response.status).toBe(404);
  });
});

describe('logs', () => {
  it('carry a request id, method, route, status and duration, and no key, secret or personal data', async () => {
    const before = logLines.length;
    const order = orderBody({
      customer_details: { first_name: 'Ignatius', last_name: 'Reilly', email: 'ignatius@example.net', phone: '+1 504 555 0199' },
      shipping_details: { street_address1: '7 Constantinople Street', city: 'New Orleans', province: 'LA', zip: '70115', country_code: 'US' },
    });
    await call(service.baseUrl, 'POST', '/v2/quotes', { key: shop.liveKey, body: { cart: { covered: { amount: '1.00' } } }, headers: { 'x-request-id': 'trace-me-1' } });
    await call(service.baseUrl, 'POST', '/v2/addresses/verify', { bearer: shop.liveKey, body: { address: order.shipping_details } });
    await call(service.baseUrl, 'POST', '/v2/quotes', { key: `${shop.liveKey}x`, body: {} });
    await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.testKey, body: order });
    // The privacy routes name the shopper by email; their answers are the shopper's data.
    // (Placed through the other instance: this one's order limit is spent above.)
    expect((await call(hidden.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: order })).status).toBe(201);
    expect((await call(service.baseUrl, 'POST', '/v2/customers/data_request', { key: shop.liveKey, body: { email: 'ignatius@example.net' } })).status).toBe(200);
    expect((await call(service.baseUrl, 'POST', '/v2/customers/redact', { key: shop.liveKey, body: { email: ['ignatius@example.net'] } })).status).toBe(400);
    const privacyMessage = JSON.stringify({ merchant: shop.store.slug, event: 'customer.redact', request: { id: 'obs-gdpr-1' }, customer: { email: 'ignatius@example.net' } });
    const redacted = await call(service.baseUrl, 'POST', '/api/webhooks/obsplatform', {
      rawBody: privacyMessage,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(SECRET, privacyMessage) },
    });
    expect(redacted.status).toBe(200);

    const lines = logLines.slice(before);
    const traced = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.request_id === 'trace-me-1');
    expect(traced).toMatchObject({ method: 'POST', route: '/v2/quotes', status: 201, msg: 'request' });
    expect(typeof traced?.duration_ms).toBe('number');

    const everything = logLines.join('\n');
    for (const secret of [shop.liveKey, shop.testKey, shop.liveKey.slice(8), SECRET, 'ignatius@example.net', 'Ignatius', 'Reilly', '504 555 0199', 'Constantinople', 'zelda.q@example.org', 'Quackenbush', 'Evergreen']) {
      expect(everything, `log output contains ${secret}`).not.toContain(secret);
    }
  });

  it('redact keys, secrets and personal data even when an object carrying them is logged', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _e, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info({ token: 'ak_live_leak', headers: { authorization: 'Bearer ak_live_leak' }, customer: { email: 'a@b.c' }, nested: { email: 'x@y.z', street_address1: '1 Leak Rd' } }, 'oops');
    const text = lines.join('');
    for (const leaked of ['ak_live_leak', 'a@b.c', 'x@y.z', '1 Leak Rd']) expect(text).not.toContain(leaked);
    expect(text).toContain('[redacted]');
  });
});

describe('security headers', () => {
  it('are set on every response (helmet)', async () => {
    const response = await fetch(`${service.baseUrl}/v2/orders/x`, { headers: { token: shop.liveKey } });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it("are helmet's own, header for header, though computed once at start-up", async () => {
    // helmet itself on a bare Express app, as the reference.
    const bare = express();
    bare.use(helmet());
    bare.get('/', (_req, res) => res.send('ok'));
    const server = bare.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const reference = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const ours = await fetch(`${service.baseUrl}/v2/orders/x`, { headers: { token: shop.liveKey } });
      const helmetNames = [...reference.headers.keys()].filter((name) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'etag'].includes(name));
      expect(helmetNames.length).toBeGreaterThanOrEqual(12);
      for (const name of helmetNames) expect({ name, value: ours.headers.get(name) }).toEqual({ name, value: reference.headers.get(name) });
      expect(ours.headers.get('x-powered-by')).toBeNull();
    } finally {
      server.close();
    }
  });
});
