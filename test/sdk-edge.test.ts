// The SDK outside Node: bundled for the browser by esbuild, then run in Vercel's edge-runtime (a
// V8 context with web APIs only: fetch, Web Crypto, no process, no require, no Buffer) through the
// integration's three steps against the real server: quote, order, shipment.
import { gzipSync } from 'node:zlib';
import { EdgeRuntime } from 'edge-runtime';
import { Webhook } from 'standardwebhooks';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let shop: SeededStore;
let bundle: { code: string; imports: string[] };

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  const result = await build({
    entryPoints: ['sdk/src/index.ts'],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'OrderProtection',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  bundle = { code, imports: Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((item) => item.path)) };
  console.log(`sdk browser bundle: ${code.length} bytes minified, ${gzipSync(code).length} gzipped`);
});
afterAll(async () => service.close());

/** Runs `body` (an async function's statements) in a fresh edge runtime holding the bundle, and returns what it returns. */
async function inEdge(body: string): Promise<unknown> {
  const runtime = new EdgeRuntime({ initialCode: bundle.code });
  return runtime.evaluate<Promise<unknown>>(`(async () => { ${body} })()`);
}

describe('the SDK bundled for the browser', () => {
  it('imports nothing: no package, no Node built-in, and stays small', () => {
    expect(bundle.imports.filter((path) => !path.startsWith('sdk/src/'))).toEqual([]);
    expect(bundle.code).not.toMatch(/\brequire\(|node:/);
    expect(gzipSync(bundle.code).length).toBeLessThan(10_000); // the ts-rest and zod runtime it replaced was 28 KB gzipped
  });

  it('runs quote -> order -> shipment in edge-runtime, with web APIs only', async () => {
    const sourceOrderId = `edge-${Date.now()}`;
    const result = await inEdge(`
      const globals = { process: typeof process, require: typeof require, Buffer: typeof Buffer, window: typeof window };
      const { Client, toAmount, toAmountString } = OrderProtection;
      const client = new Client({ apiKey: ${JSON.stringify(shop.liveKey)}, baseUrl: ${JSON.stringify(service.baseUrl)} });
      const quote = await client.quotes.create({ cart: { covered: { amount: toAmountString(8000) } } });
      const order = await client.orders.create({
        source_order_id: ${JSON.stringify(sourceOrderId)},
        subtotal: toAmount(8000),
        insurance_selected: true,
        quote_id: quote.id,
        customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
        shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
        line_items: [{ source_id: 'li_1', name: 'Lamp', price: toAmount(4000), quantity: 2 }],
        source_created_on: new Date().toISOString(),
      });
      const shipment = await client.shipments.create({ tracking_number: '1Z 999 AA1 01 2345 6784', source_order_id: order.source_order_id });
      return {
        globals,
        premium: quote.premium.amount,
        order: { id: order.id, paid_to_insure: order.paid_to_insure, key: order.lastResponse.idempotencyKey },
        shipment: { tracking_number: shipment.tracking_number, courier: shipment.courier, status: shipment.lastResponse.status },
      };
    `);
    expect(result).toMatchObject({
      globals: { process: 'undefined', require: 'undefined', Buffer: 'undefined', window: 'undefined' },
      premium: '1.20',
      order: { paid_to_insure: 1.2, key: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      shipment: { tracking_number: '1Z999AA10123456784', courier: 'ups', status: 201 },
    });
    // The server holds them, past the SDK.
    const stored = await service.db.order.findFirst({ where: { storeId: shop.store.id, sourceOrderId }, include: { shipments: true } });
    expect(stored?.id).toBe((result as { order: { id: string } }).order.id);
    expect(stored?.shipments.map((shipment) => shipment.trackingNumber)).toEqual(['1Z999AA10123456784']);
  });

  it('signs and verifies webhooks with Web Crypto, and errors are typed', async () => {
    const result = await inEdge(`
      const { signWebhook, verifyWebhook, Client, NotFoundError } = OrderProtection;
      const header = await signWebhook('whsec_edge', '{"a":1}', 1800000000);
      const check = await verifyWebhook(header, '{"a":1}', 'whsec_edge', new Date(1800000000 * 1000));
      const client = new Client({ apiKey: ${JSON.stringify(shop.liveKey)}, baseUrl: ${JSON.stringify(service.baseUrl)} });
      const error = await client.orders.retrieve('no-such-order').catch((reason) => reason);
      return { header, check, notFound: error instanceof NotFoundError, code: error.code };
    `);
    expect(result).toMatchObject({ header: expect.stringMatching(/^t=1800000000,v1=[0-9a-f]{64}$/), check: { valid: true }, notFound: true, code: 'not_found' });
  });

  it('checks a Standard Webhooks event delivery (signed here by standardwebhooks) with Web Crypto only', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const payload = JSON.stringify({ id: 'evt_edge', type: 'claim.created', created_at: '2027-01-15T08:00:00.000Z', mode: 'live', data: { id: 'clm_1' } });
    const at = new Date(1_800_000_000 * 1000);
    const headers = {
      'webhook-id': 'evt_edge',
      'webhook-timestamp': '1800000000',
      'webhook-signature': `${new Webhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=').sign('evt_edge', at, payload)} ${new Webhook(secret).sign('evt_edge', at, payload)}`,
    };
    const result = await inEdge(`
      const { constructEvent, EventSignatureError } = OrderProtection;
      const now = new Date(1800000000 * 1000);
      const event = await constructEvent(${JSON.stringify(payload)}, new Headers(${JSON.stringify(headers)}), ${JSON.stringify(secret)}, { now });
      const bytes = await constructEvent(new TextEncoder().encode(${JSON.stringify(payload)}), ${JSON.stringify(headers)}, ${JSON.stringify(secret)}, { now });
      const tampered = await constructEvent(${JSON.stringify(payload)} + ' ', ${JSON.stringify(headers)}, ${JSON.stringify(secret)}, { now }).catch((error) => error);
      return { event, same: JSON.stringify(bytes) === JSON.stringify(event), tampered: tampered instanceof EventSignatureError && tampered.reason };
    `);
    expect(result).toEqual({ event: JSON.parse(payload), same: true, tampered: 'no_matching_signature' });
  });

  it('still refuses a secret key in a real browser (window and document present)', async () => {
    const result = await inEdge(`
      globalThis.window = {};
      globalThis.document = {};
      try {
        new OrderProtection.Client({ apiKey: 'ak_live_x', baseUrl: 'https://api.example.com' });
        return 'constructed';
      } catch (error) {
        return error.message;
      }
    `);
    expect(result).toMatch(/for servers only/);
  });
});
