// The SDK's platform helper (sdk/src/webhooks.ts) against the server's own verifier: signed
// messages are accepted, a wrong secret is an AuthenticationError, and the helper's Web Crypto
// signature is the one the server's node:crypto code makes and checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook as serverSign, verifyWebhookSignature as serverVerify } from '../contract/webhook-signature.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import {
  AuthenticationError,
  Client,
  InvalidRequestError,
  NotFoundError,
  sendPlatformMessage,
  signWebhook,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  type OrderPlacedMessage,
} from '../sdk/src/index.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const PLATFORM = 'sdkwire';
const SECRET = 'sdkwire-shared-secret-0123456789';
let service: TestService;
let shop: SeededStore;
let sequence = 0;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db); // 1.5 %, minimum 0.98
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
});
afterAll(async () => service.close());

function orderPlaced(): OrderPlacedMessage {
  sequence += 1;
  return {
    merchant: shop.store.slug,
    event: 'order.placed',
    order: {
      id: `sdk-po-${Date.now()}-${sequence}`,
      number: '#5001',
      created_at: '2026-11-20T10:00:00Z',
      customer: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      line_items: [
        { id: 'l1', sku: 'DESK-ORG', title: 'Desk organiser', unit_price_cents: 6250, quantity: 2 },
        { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 188, quantity: 1 },
      ],
    },
  };
}

const send = (message: OrderPlacedMessage, overrides: { secret?: string; platform?: string } = {}) =>
  sendPlatformMessage({ baseUrl: service.baseUrl, platform: PLATFORM, secret: SECRET, message, maxRetries: 0, ...overrides });

describe('sendPlatformMessage', () => {
  it('posts a signed order.placed that the server accepts, and a redelivery is a duplicate', async () => {
    const message = orderPlaced();
    const ack = await send(message);
    expect(ack).toEqual({ received: true, event: 'order.placed', mode: 'live', order_id: message.order.id, premium_cents: 188, duplicate: false });
    await expect(send(message)).resolves.toMatchObject({ received: true, duplicate: true });

    const merchant = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    await expect(merchant.orders.retrieve(message.order.id)).resolves.toMatchObject({
      source_order_id: message.order.id,
      platform_id: PLATFORM,
      paid_to_insure: 1.88,
    });
  });

  it('a wrong secret is an AuthenticationError', async () => {
    const error = await send(orderPlaced(), { secret: 'not-the-shared-secret-000' }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('an unknown platform is a NotFoundError, and a bad message an InvalidRequestError naming the field', async () => {
    await expect(send(orderPlaced(), { platform: 'nosuchplatform' })).rejects.toBeInstanceOf(NotFoundError);
    const bad = orderPlaced();
    const error = await send({ ...bad, order: { ...bad.order, line_items: [] } }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ fieldErrors: [{ field: 'order.line_items', message: expect.any(String) }] });
  });
});

describe('signWebhook and verifyWebhook', () => {
  const at = new Date(1_800_000_000 * 1000);

  it('are the signature the server checks: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', async () => {
    const body = JSON.stringify(orderPlaced());
    const header = await signWebhook(SECRET, body, 1_800_000_000);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(header).toBe(serverSign(SECRET, body, 1_800_000_000));
    // Known answer: HMAC-SHA256 of "1.x" keyed "key", computed with Python's hmac module.
    expect(await signWebhook('key', 'x', 1)).toBe('t=1,v1=fc4913c41a7bf793267e2a384f3261c9436ec2cd097bd745e7b0d99113f510ec');
    expect(await verifyWebhook(header, body, SECRET, at)).toEqual({ valid: true });
    expect(await verifyWebhook(header, new TextEncoder().encode(body), SECRET, at)).toEqual({ valid: true });
    expect(await verifyWebhook(header, `${body} `, SECRET, at)).toEqual({ valid: false, reason: 'mismatch' });
    expect(await verifyWebhook(header, body, 'another-secret-0123456789', at)).toEqual({ valid: false, reason: 'mismatch' });
    const late = new Date((1_800_000_000 + WEBHOOK_TOLERANCE_SECONDS + 1) * 1000);
    expect(await verifyWebhook(header, body, SECRET, late)).toEqual({ valid: false, reason: 'expired' });
    expect(await verifyWebhook(undefined, body, SECRET)).toEqual({ valid: false, reason: 'missing' });
    expect(await verifyWebhook('t=1800000000,v1=zz', body, SECRET, at)).toEqual({ valid: false, reason: 'malformed' });
  });

  it('agree with the server on every header, bytes included: rotation (two v1=), non-ASCII bodies, tampering', async () => {
    const body = JSON.stringify({ ...orderPlaced(), note: 'Grüße, 東京 🚚' });
    const bytes = new TextEncoder().encode(body);
    const current = serverSign(SECRET, body, 1_800_000_000);
    const previous = serverSign('the-secret-before-rotation-0123', body, 1_800_000_000);
    const headers = [
      current,
      `${previous},${current.split(',')[1]}`,
      previous,
      current.replace(/.$/, (digit) => (digit === '0' ? '1' : '0')),
      current.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='),
      't=1800000000',
      '',
    ];
    for (const header of headers) {
      const expected = serverVerify(header, body, SECRET, at);
      expect(await verifyWebhook(header, body, SECRET, at), header).toEqual(expected);
      expect(await verifyWebhook(header, bytes, SECRET, at), header).toEqual(expected);
    }
    expect(serverVerify(await signWebhook(SECRET, bytes, 1_800_000_000), Buffer.from(body), SECRET, at)).toEqual({ valid: true });
  });
});
