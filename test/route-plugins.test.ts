// Route's own store plugins, replayed through real HTTP against a store that declared the route
// client profile: every request each plugin's PHP builds (test/support/route-plugin-requests.ts),
// in the order its flow sends them, must succeed; and a standard store still answers them as the
// documented API does. Expected premiums are worked by hand at the store's 3 % rate, minimum 0.98:
//   40.00 -> 1.20; 25.88 -> 0.7764, so 0.98; 107.89 -> 3.2367, half up 3.24; 123.00 -> 3.69.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedWooCommerceSecret } from '../server/domain/access/index.js';
import { signWooCommerceDelivery } from '../contract/webhook-signature.js';
import { call } from './support/http.js';
import {
  magentoOrder,
  magentoShipment,
  prestaShopOrder,
  prestaShopOrderPhp81,
  prestaShopShipment,
  wooOrder,
  wooOrderWithDigitalItem,
  wooQuote,
  wooShipment,
  wooShipmentCancel,
  wooShipmentUpdate,
  wooWebhookOrder,
} from './support/route-plugin-requests.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service.close();
});

const routeStore = () => seedStore(service.db, { rateBps: 300 }, 'route');

/** A request as the plugin's HTTP client sends it: its raw JSON, its `token` header. */
function send(method: string, path: string, key: string, rawBody?: string, headers: Record<string, string> = {}) {
  return call(service.baseUrl, method, path, {
    key,
    ...(rawBody === undefined ? {} : { rawBody }),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe("WooCommerce: Route App 2.2.21's whole flow", () => {
  let shop: SeededStore;
  beforeAll(async () => {
    shop = await routeStore();
  });

  it('quotes with paid_by_customer and ToggleState, so the plugin adds the fee; an unknown merchant_id is ignored', async () => {
    const quote = await send('POST', '/v2/quotes', shop.liveKey, wooQuote('merch_7f3c2a1b9d'));
    expect(quote.status).toBe(201);
    expect(quote.body.premium).toEqual({ currency: 'USD', amount: '1.20' });
    expect(quote.body.payment_responsible).toEqual({ type: 'paid_by_customer', ToggleState: true });
  });

  it('reconciles: read 404, create, read 200, create again 409 with the order, update', async () => {
    const quote = await send('POST', '/v2/quotes', shop.liveKey, wooQuote(shop.store.id));
    const missing = await send('GET', '/v1/orders/1234', shop.liveKey);
    expect(missing.status).toBe(404);

    const created = await send('POST', '/v2/orders', shop.liveKey, wooOrder(1234, quote.body.id), { 'protect-widget-version': 'route-widget-core' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      source_order_id: '1234',
      source_order_number: '1234',
      subtotal: 40,
      amount_covered: 40,
      paid_to_insure: 1.2,
      insured_status: 'insured_selected',
      order_total: 45.98,
      shipping_total: 5,
      discounts_total: 0,
      taxes: 0,
      source_created_on: '2024-01-15T09:30:00.000Z',
    });
    expect(created.body.line_items).toEqual([
      { source_id: '315', name: 'Logo Tee', price: 20, quantity: 2, source_product_id: '23', sku: 'TEE-BLK-M', is_insured: true, image_url: 'https://shop.example.com/wp-content/uploads/2024/01/tee.jpg' },
    ]);

    const read = await send('GET', '/v1/orders/1234', shop.liveKey);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.body.id, insured_status: 'insured_selected', paid_to_insure: 1.2 });

    const again = await send('POST', '/v2/orders', shop.liveKey, wooOrder(1234, quote.body.id));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: 'conflict', id: created.body.id, order_number: created.body.order_number, insured_status: 'insured_selected', paid_to_insure: 1.2 });

    const updated = await send('POST', '/v2/orders/1234', shop.liveKey, wooOrder(1234, quote.body.id));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, subtotal: 40, paid_to_insure: 1.2 });
  });

  it('creates an order with a digital item and no fee, unprotected, on the shippable value', async () => {
    const created = await send('POST', '/v2/orders', shop.liveKey, wooOrderWithDigitalItem(1235));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ subtotal: 49.5, amount_covered: 0, paid_to_insure: 0, insured_status: 'not_selected' });
    expect(created.body.line_items.map((line: { source_product_id: string }) => line.source_product_id)).toEqual(['34', '87']);
  });

  it.each([
    // [provider, tracking number, courier_id as the provider sends it, carrier expected]
    ['WooCommerce Shipment Tracking', '9400111899223344556677', 'usps', 'usps'],
    ['ShipStation (order note)', '1Z999AA10123456784', 'UPS', 'ups'],
    ['WooCommerce Shipment Tracking, DHL US', 'WOOTEST0001', 'dhl-us', 'dhl'],
    ['WooCommerce Shipment Tracking, FedEx Sameday', 'WOOTEST0002', 'fedex-sameday', 'fedex'],
    ['a custom provider', 'WOOTEST0003', 'my courier', 'unknown'],
    ['no provider name', 'WOOTEST0004', '', 'unknown'],
  ])('registers a shipment from %s: lookup 404, then create', async (_provider, trackingNumber, courierId, carrier) => {
    const lookup = await send('GET', `/v1/shipments/${trackingNumber}?source_order_id=1234`, shop.liveKey);
    expect(lookup.status).toBe(404);
    const created = await send('POST', '/v1/shipments', shop.liveKey, wooShipment(trackingNumber, 1234, courierId));
    expect(created.status).toBe(201);
    expect(created.body.courier).toBe(carrier);
    const messages = created.body.merchant_messages.map((m: { code: string }) => m.code);
    expect(messages).toEqual(courierId === 'my courier' ? ['courier_id_unknown'] : []);
    const found = await send('GET', `/v1/shipments/${trackingNumber}?source_order_id=1234`, shop.liveKey);
    expect(found.status).toBe(200);
  });

  it('updates a shipment echoing its order and products, then cancels it with the body the plugin sends', async () => {
    const trackingNumber = 'WOOTEST0099';
    expect((await send('POST', '/v1/shipments', shop.liveKey, wooShipment(trackingNumber, 1234, 'usps'))).status).toBe(201);
    const updated = await send('POST', `/v1/shipments/${trackingNumber}?source_order_id=1234`, shop.liveKey, wooShipmentUpdate(1234, 'fedex'));
    expect(updated.status).toBe(200);
    expect(updated.body.courier).toBe('fedex');
    const changed = await send('POST', `/v1/shipments/${trackingNumber}`, shop.liveKey, wooShipmentUpdate(1235, 'fedex'));
    expect(changed.status).toBe(400);
    expect(changed.body.errors).toEqual([{ field: 'source_order_id', message: expect.stringMatching(/differs from the stored shipment/) }]);
    const cancelled = await send('POST', `/v1/shipments/${trackingNumber}/cancel?source_order_id=1234`, shop.liveKey, wooShipmentCancel(1234));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.delivery_status).toBe('Cancelled');
  });

  it('cancels an order with the empty PHP array the plugin sends as its body', async () => {
    const cancelled = await send('POST', '/v1/orders/1235/cancel', shop.liveKey, '[]');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
  });
});

describe("WooCommerce's native order webhooks at /webhooks/{merchant_id}", () => {
  let shop: SeededStore;
  let secret: string;
  beforeAll(async () => {
    shop = await routeStore();
    secret = derivedWooCommerceSecret(shop.store.id, shop.liveKey);
  });

  const deliver = (topic: string, rawBody: string, signWith = secret) =>
    call(service.baseUrl, 'POST', `/webhooks/${shop.store.id}`, {
      rawBody,
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': topic,
        'x-wc-webhook-resource': 'order',
        'x-wc-webhook-signature': signWooCommerceDelivery(signWith, rawBody),
      },
    });

  it('derives the secret as the plugin does: hex SHA-256 of "<merchant id>-<token>", the hex text as the HMAC key', () => {
    // Computed independently with Python's hashlib and hmac for the vector in the plugin's terms.
    const vector = derivedWooCommerceSecret('merch_7f3c2a1b9d', 'sk_live_0123456789abcdef');
    expect(vector).toBe('b832e6c8b4f519ae1a909c2a058ccbda9c7dbfbecdaf55c43ec562fad07f7bc8');
    expect(signWooCommerceDelivery(vector, '{"id":1234}')).toBe('Pnm9NaiAa6ZJ03lhKKRmo3UuyKaEl8Nh0ApJPkdoYBs=');
  });

  it('answers the ping (a form body, unsigned) with 200', async () => {
    const ping = await call(service.baseUrl, 'POST', `/webhooks/${shop.store.id}`, { rawBody: 'webhook_id=7', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ received: true, action: 'pong' });
  });

  it('creates the order on a processing delivery, protected by its fee line, on the shippable lines only', async () => {
    const first = await deliver('order.updated', wooWebhookOrder(5001, 'processing'));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ action: 'created', order_id: '5001', mode: 'live' });
    const order = await send('GET', '/v1/orders/5001', shop.liveKey);
    expect(order.body).toMatchObject({ subtotal: 40, amount_covered: 40, paid_to_insure: 1.2, insured_status: 'insured_selected', order_total: 45.98 });
    expect(order.body.line_items.map((line: { source_id: string; is_insured: boolean }) => [line.source_id, line.is_insured])).toEqual([['315', true], ['316', false]]);
  });

  it('takes a redelivery as an update that changes nothing, then cancels on cancelled and stays cancelled', async () => {
    const again = await deliver('order.updated', wooWebhookOrder(5001, 'completed'));
    expect(again.body.action).toBe('updated');
    const ledger = await service.db.premiumLedgerEntry.count({ where: { order: { storeId: shop.store.id, sourceOrderId: '5001' } } });
    expect(ledger).toBe(1);
    const cancelled = await deliver('order.updated', wooWebhookOrder(5001, 'cancelled'));
    expect(cancelled.body.action).toBe('cancelled');
    const later = await deliver('order.updated', wooWebhookOrder(5001, 'processing'));
    expect(later.body).toMatchObject({ action: 'ignored', reason: 'the order is cancelled' });
  });

  it('cancels on order.deleted ({"id": N}), idempotently, and ignores statuses that neither book nor cancel', async () => {
    expect((await deliver('order.updated', wooWebhookOrder(5002, 'processing'))).body.action).toBe('created');
    const deleted = await deliver('order.deleted', '{"id":5002}');
    expect(deleted.body.action).toBe('cancelled');
    expect((await send('GET', '/v1/orders/5002', shop.liveKey)).body.status).toBe('cancelled');
    expect((await deliver('order.deleted', '{"id":5002}')).body.action).toBe('cancelled');
    const pending = await deliver('order.updated', wooWebhookOrder(5003, 'pending'));
    expect(pending.body).toMatchObject({ action: 'ignored' });
    expect((await send('GET', '/v1/orders/5003', shop.liveKey)).status).toBe(404);
  });

  it('refuses a wrong signature (401), an unknown store (404), and books nothing for either', async () => {
    const forged = await deliver('order.updated', wooWebhookOrder(5004, 'processing'), 'not-the-secret');
    expect(forged.status).toBe(401);
    const unknown = await call(service.baseUrl, 'POST', '/webhooks/00000000-0000-4000-8000-000000000000', {
      rawBody: '{"id":1}',
      headers: { 'content-type': 'application/json', 'x-wc-webhook-signature': signWooCommerceDelivery(secret, '{"id":1}') },
    });
    expect(unknown.status).toBe(404);
    expect((await send('GET', '/v1/orders/5004', shop.liveKey)).status).toBe(404);
  });

  it('accepts a secret the store declared (a plugin that kept the one derived from its Route token)', async () => {
    await service.db.store.update({ where: { id: shop.store.id }, data: { woocommerceWebhookSecret: 'kept-from-route-0123456789' } });
    const delivered = await deliver('order.updated', wooWebhookOrder(5005, 'processing'), 'kept-from-route-0123456789');
    expect(delivered.body).toMatchObject({ action: 'created', mode: 'live' });
  });

  it('validates a delivery signed with a test key and books nothing', async () => {
    const testSecret = derivedWooCommerceSecret(shop.store.id, shop.testKey);
    const delivered = await deliver('order.updated', wooWebhookOrder(5006, 'processing'), testSecret);
    expect(delivered.body).toMatchObject({ action: 'validated', mode: 'test' });
    expect((await send('GET', '/v1/orders/5006', shop.liveKey)).status).toBe(404);
  });
});

describe('PrestaShop module 1.0.8: setup, quote, order upsert, shipment upsert', () => {
  let shop: SeededStore;
  beforeAll(async () => {
    shop = await routeStore();
  });

  it('setup: GET /v1/merchants is a list of exactly one merchant, readable by id', async () => {
    const list = await send('GET', '/v1/merchants', shop.liveKey);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: shop.store.id, status: 'Active', has_route_plus: true });
    const one = await send('GET', `/v1/merchants/${shop.store.id}`, shop.liveKey);
    expect(one.body.merchant_preferences).toEqual({ opt_in: false, opt_out: true, merchant_supplied_insurance: false });
    expect((await send('GET', '/v1/merchants/someone-else', shop.liveKey)).status).toBe(404);
  });

  it('quote: GET /v1/quote answers 200 with the fields the widget reads', async () => {
    const quote = await send('GET', '/v1/quote?subtotal=25.88&currency=USD', shop.liveKey);
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ insurance_price: 0.98, subtotal_usd: 25.88, coverage_lower_limit: 0 });
    expect(quote.body.coverage_upper_limit).toBeGreaterThan(25.88);
    const magento = await send('GET', '/v1/quote?subtotal=123&taxes=0&currency=USD&selected_insurance=1', shop.liveKey);
    expect(magento.body.insurance_price).toBe(3.69);
    expect((await send('GET', '/v1/quote?subtotal=1.005', shop.liveKey)).status).toBe(400);
  });

  it('order upsert: the 404 read has a body, so the whole order goes to POST /v1/orders/{ref}, which creates it', async () => {
    const read = await send('GET', '/v1/orders/XKBKNABJK', shop.liveKey);
    expect(read.status).toBe(404);
    const created = await send('POST', '/v1/orders/XKBKNABJK', shop.liveKey, prestaShopOrder('XKBKNABJK'), { accept: 'application/json' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      source_order_id: 'XKBKNABJK',
      source_order_number: '12',
      subtotal: 107.89,
      taxes: 6.27,
      paid_to_insure: 3.24,
      source_created_on: '2026-11-20T22:03:11.000Z',
    });
    expect(created.body.line_items[0]).toMatchObject({ source_id: '15', name: 'Mug Café', price: 11.9, quantity: 2, source_product_id: '7' });
    const status = await send('POST', '/v1/orders/XKBKNABJK', shop.liveKey, prestaShopOrderPhp81('XKBKNABJK'));
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ id: created.body.id, paid_to_insure: 3.24 });
  });

  it('shipment upsert: the whole shipment to POST /v1/shipments/{tn}?source_order_id= creates it, then updates it', async () => {
    const path = '/v1/shipments/1Z999AA10123456784?source_order_id=XKBKNABJK';
    expect((await send('GET', path, shop.liveKey)).status).toBe(404);
    const created = await send('POST', path, shop.liveKey, prestaShopShipment('1Z999AA10123456784', 'XKBKNABJK', 'UPS'));
    expect(created.status).toBe(201);
    expect(created.body.courier).toBe('ups');
    const again = await send('POST', path, shop.liveKey, prestaShopShipment('1Z999AA10123456784', 'XKBKNABJK', 'UPS'));
    expect(again.status).toBe(200);
    const colissimo = await send('POST', '/v1/shipments/PSTEST0001', shop.liveKey, prestaShopShipment('PSTEST0001', 'XKBKNABJK', 'Colissimo'));
    expect(colissimo.status).toBe(201);
    expect(colissimo.body.merchant_messages[0].code).toBe('courier_id_unknown');
  });

  it('cancel: a chunked empty body with a JSON content type and Expect: 100-continue, as PHP curl sends it', async () => {
    const url = new URL('/v1/orders/XKBKNABJK/cancel', service.baseUrl);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: { token: shop.liveKey, 'content-type': 'application/json', accept: 'application/json', 'transfer-encoding': 'chunked', expect: '100-continue' },
      });
      request.on('continue', () => request.end());
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).status).toBe('cancelled');
  });
});

describe('Magento 1 extension 1.1.3: order create and shipment create', () => {
  it('creates the order (street arrays, amount_covered with a float artefact) and its shipment', async () => {
    const shop = await routeStore();
    expect((await send('GET', '/v1/orders/100000012', shop.liveKey)).body.id).toBeUndefined();
    const created = await send('POST', '/v1/orders', shop.liveKey, magentoOrder('100000012'));
    expect(created.body.errors ?? []).toEqual([]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ subtotal: 123, amount_covered: 123, paid_to_insure: 3.69, source_order_number: '12', order_number: expect.any(String) });
    const stored = await service.db.order.findFirstOrThrow({ where: { storeId: shop.store.id, sourceOrderId: '100000012' } });
    expect(stored.shippingAddress).toMatchObject({ street_address1: '66 Doctor Doe St', street_address2: 'Ap 111' });
    const shipment = await send('POST', '/v1/shipments', shop.liveKey, magentoShipment('100000012', '1Z999AA10123456784'));
    expect(shipment.status).toBe(201);
    expect(shipment.body).toMatchObject({ id: expect.any(String), tracking_number: '1Z999AA10123456784', courier: 'ups' });
  });
});

describe('a standard store keeps the documented answers', () => {
  it('answers the plugins\' wire forms with 400 listing every field, and quotes with payment_responsible customer', async () => {
    const shop = await seedStore(service.db);
    const order = await send('POST', '/v1/orders/XKBKNABJK', shop.liveKey, prestaShopOrder('XKBKNABJK'));
    expect(order.status).toBe(400);
    const prestaFields = order.body.errors.map((error: { field: string }) => error.field).sort();
    expect(prestaFields).toEqual(['line_items[0].price', 'line_items[0].quantity', 'source_created_on', 'source_order_number', 'subtotal', 'taxes']);
    const woo = await send('POST', '/v2/orders', shop.liveKey, wooOrder(1, 'Invalid'));
    expect(woo.status).toBe(400);
    const quote = await send('POST', '/v2/quotes', shop.liveKey, wooQuote(shop.store.id));
    expect(quote.body.payment_responsible).toEqual({ type: 'customer' });
  });
});
