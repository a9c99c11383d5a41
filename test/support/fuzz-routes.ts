// The fuzz tests' shared ground: the contract's routes walked with isAppRoute, requests sent as raw
// HTTP, valid requests of each route generated from its schemas (with the rules the schemas cannot
// state), and how a property is run and checked. The properties are in test/fuzz.test.ts and
// test/fuzz-storable.test.ts; each file starts its own service with startFuzzService.
import { appendFileSync } from 'node:fs';
import { isAppRoute, isZodType, type AppRoute, type AppRouter } from '@ts-rest/core';
import fc from 'fast-check';
import type { ZodTypeAny } from 'zod';
import { expect } from 'vitest';
import { contract, MAX_AMOUNT_CENTS, OrderPlacedMessage, type WebhookMessage } from '../../contract/index.js';
import { signWebhook, signWooCommerceDelivery } from '../../contract/webhook-signature.js';
import { actingFor, derivedWooCommerceSecret } from '../../server/domain/access/index.js';
import { CARRIER_SLUGS } from '../../server/domain/shipments/index.js';
import { connectStore, createPlatform } from '../../server/domain/platforms/index.js';
import { anyString, cartWithinCeiling, contractFastCheck, onTheWire } from './fuzz-arbitraries.js';
import { assertClientError, assertJsonNot5xx, assertSuccess, encodeSegment, send, signEasyPost, type RawAnswer } from './fuzz-http.js';
import { call, orderBody } from './http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './service.js';


export const SEED = Number.parseInt(process.env.FUZZ_SEED ?? '20261122', 10);
export const RUNS = Number.parseInt(process.env.FUZZ_RUNS ?? '40', 10);
export const PROPERTY_TIMEOUT_MS = 60_000;

export const PLATFORM = 'fuzzplatform';
export const PLATFORM_SECRET = 'fuzz-platform-shared-secret-0123456789';
export const EASYPOST_SECRET = 'whsec_fuzz_secret';
export const ORDER_ID = 'fuzz-seeded-order';
export const TRACKING_NUMBER = 'FUZZSEEDED1';
/** The seeded order's source_created_on (orderBody's), as another offset writes the same instant. */
export const SEEDED_CREATED_ON = '2026-11-20T05:00:00-05:00';

export let service: TestService;
/** The store of the REST requests (its keys). */
export let shop: SeededStore;
/** The store connected to the platform: what platform messages create stays out of the REST store. */
export let pushed: SeededStore;
export let claimId: string;
export let endpointId: string;
export let eventId: string;

/** Starts the service and the live objects the routes that read or change one need. */
export async function startFuzzService(): Promise<void> {
  service = await startService({ easyPostWebhookSecret: EASYPOST_SECRET });
  shop = await seedStore(service.db);
  pushed = await seedStore(service.db);
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, PLATFORM_SECRET);
  await connectStore(service.db, actingFor(TEST_OPERATOR, pushed.store), PLATFORM);
  // Live objects for the routes that read or change one (test keys answer 404 there).
  // With a billing address, so that any partial address in an update merges into a complete one.
  const billing_address = { street_address1: '1 Main St', city: 'Springfield', province: 'IL', zip: '62701', country_code: 'US' };
  const order = await call(service.baseUrl, 'POST', '/v2/orders', { key: shop.liveKey, body: orderBody({ source_order_id: ORDER_ID, billing_address }) });
  expect(order.status).toBe(201);
  const shipment = await call(service.baseUrl, 'POST', '/v1/shipments', {
    key: shop.liveKey,
    body: { tracking_number: TRACKING_NUMBER, source_order_id: ORDER_ID, courier_id: 'ups' },
  });
  expect(shipment.status).toBe(201);
  const claim = await call(service.baseUrl, 'POST', '/v1/claims', { key: shop.liveKey, body: { source_order_id: ORDER_ID, reason: 'lost' } });
  expect(claim.status).toBe(201);
  claimId = claim.body.id as string;
  const endpoint = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: shop.liveKey, body: { url: 'https://shop.example.com/fuzz', events: ['*'] } });
  expect(endpoint.status).toBe(201);
  endpointId = endpoint.body.id as string;
  eventId = (await service.db.event.findFirstOrThrow({ where: { storeId: shop.store.id }, orderBy: { seq: 'desc' } })).id;
}

export const stopFuzzService = async (): Promise<void> => service?.close();

// ---- The contract's routes -------------------------------------------------------------------------

export interface ContractRoute {
  name: string;
  route: AppRoute;
  auth: string | undefined;
  body: ZodTypeAny | null;
  pathParams: string[];
  pathSchema: ZodTypeAny | null;
  query: ZodTypeAny | null;
}

export function routesOf(router: AppRouter, prefix = ''): ContractRoute[] {
  return Object.entries(router).flatMap(([key, child]): ContractRoute[] => {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (!isAppRoute(child)) return routesOf(child, name);
    const body = 'body' in child && isZodType(child.body) ? child.body : null;
    return [
      {
        name,
        route: child,
        auth: (child.metadata as { auth?: string } | undefined)?.auth,
        body,
        pathParams: [...child.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1] as string),
        pathSchema: isZodType(child.pathParams) ? child.pathParams : null,
        query: isZodType(child.query) ? child.query : null,
      },
    ];
  });
}

export const ROUTES = routesOf(contract);
export const BODY_ROUTES = ROUTES.filter((r) => r.body !== null);
export const WRITE_ROUTES = ROUTES.filter((r) => r.route.method !== 'GET');
export const PATH_ROUTES = ROUTES.filter((r) => r.pathParams.length > 0);
export const QUERY_ROUTES = ROUTES.filter((r) => r.query !== null);
export const label = (r: ContractRoute) => `${r.route.method} ${r.route.path} (${r.name})`;

export const zfc = contractFastCheck(ROUTES.flatMap((r) => [r.body, r.pathSchema, r.query].filter((s): s is ZodTypeAny => s !== null)));

// ---- Requests ----------------------------------------------------------------------------------------

export type KeyMode = 'live' | 'test';

export interface Outgoing {
  params: Record<string, string>;
  query?: Record<string, string | string[]>;
  /** A JSON value (serialised here) or raw bytes. */
  body?: { json: unknown } | { raw: Buffer };
  key?: KeyMode;
  /** Keep slashes and percent signs of path parameters as they are. */
  rawParams?: boolean;
  /** The Content-Type of a body (default application/json); null sends none. */
  contentType?: string | null;
  /** A query string sent exactly as given (already percent-encoded, or not). */
  rawQuery?: string;
}

export interface Sent {
  answer: RawAnswer;
  /** What the request carried, to tell an echoed input from a leaked stack trace. */
  text: string;
  describe: string;
}

export async function request(r: ContractRoute, out: Outgoing): Promise<Sent> {
  const path = r.route.path.replace(/:([A-Za-z_]+)/g, (_match, name: string) =>
    encodeSegment(out.params[name] ?? '', out.rawParams ? '/%' : ''),
  );
  const query =
    out.rawQuery ??
    Object.entries(out.query ?? {})
      .filter(([, value]) => value !== undefined)
      .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${encodeSegment(name)}=${encodeSegment(v)}`))
      .join('&');
  const headers: Record<string, string> = {};
  let raw: Buffer | undefined;
  if (out.body !== undefined) {
    raw = 'raw' in out.body ? out.body.raw : Buffer.from(JSON.stringify(out.body.json) ?? '', 'utf8');
    if (out.contentType !== null) headers['content-type'] = out.contentType ?? 'application/json';
  }
  if (r.auth === 'api_key') headers.token = out.key === 'live' ? shop.liveKey : shop.testKey;
  if (r.auth === 'webhook_signature') headers['x-webhook-signature'] = signWebhook(PLATFORM_SECRET, raw ?? Buffer.alloc(0));
  if (r.auth === 'easypost_signature') headers['x-hmac-signature'] = signEasyPost(EASYPOST_SECRET, raw ?? Buffer.alloc(0));
  if (r.auth === 'woocommerce_signature') {
    headers['x-wc-webhook-signature'] = signWooCommerceDelivery(derivedWooCommerceSecret(shop.store.id, shop.liveKey), raw ?? Buffer.alloc(0));
    headers['x-wc-webhook-topic'] = 'order.updated';
  }
  const fullPath = `${path}${query === '' ? '' : `?${query}`}`;
  const answer = await send(service.baseUrl, { method: r.route.method, path: fullPath, headers, body: raw });
  const text = `${decodeURIComponentSafe(fullPath)} ${raw?.toString('utf8') ?? ''} ${JSON.stringify(out.params)} ${JSON.stringify(out.query ?? {})}`;
  const shownBody = raw === undefined ? '' : ` body ${raw.length > 400 ? `${raw.toString('utf8').slice(0, 400)}...` : raw.toString('utf8')}`;
  return { answer, text, describe: `${r.route.method} ${fullPath.length > 300 ? `${fullPath.slice(0, 300)}...` : fullPath}${shownBody}` };
}

export function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The value body-parser would hand to the route (strict: an object or an array), or undefined. */
export function parsedAsTheServerWould(raw: Buffer): { value: unknown } | undefined {
  if (raw.length === 0) return { value: {} };
  const text = raw.toString('utf8').replace(/^\ufeff/, '');
  if (!/^[\x20\x09\x0a\x0d]*[{[]/.test(text)) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

// ---- How each route is exercised ---------------------------------------------------------------------

/** 'no5xx': JSON, no 5xx, an error in the error format; a status: exactly that (a 4xx in the error format). */
export type Expectation = 'no5xx' | number;

export interface ValidCase {
  body?: unknown;
  params?: Record<string, string>;
  query?: Record<string, string>;
  expect: Expectation;
  variant: string;
  /** Runs before the request (e.g. a fulfilment needs its order received first). */
  before?: () => Promise<void>;
}

/** Path parameters that name the live objects made in beforeAll. */
export function seededParams(r: ContractRoute): Record<string, string> | null {
  if (r.name.startsWith('orders.') && r.pathParams.includes('source_order_id')) return { source_order_id: ORDER_ID };
  if (r.name.startsWith('shipments.') && r.pathParams.includes('tracking_number')) return { tracking_number: TRACKING_NUMBER };
  if (r.name === 'claims.get') return { id: claimId };
  if (r.name.startsWith('webhookEndpoints.') && r.pathParams.includes('id')) return { id: endpointId };
  if (r.name.startsWith('events.') && r.pathParams.includes('id')) return { id: eventId };
  if (r.name === 'webhooks.receive') return { platform_slug: PLATFORM };
  if (r.name.startsWith('routeCompatibility.') && r.pathParams.includes('source_order_id')) return { source_order_id: ORDER_ID };
  if (r.name === 'routeCompatibility.merchant') return { merchant_id: shop.store.id };
  if (r.name === 'woocommerce.receive') return { merchant_id: shop.store.id };
  return null;
}

/** Path parameters valid for the schema (generated from it), which name nothing that exists. */
export function generatedParams(r: ContractRoute): fc.Arbitrary<Record<string, string>> {
  if (r.pathSchema !== null) return zfc.inputOf(r.pathSchema) as fc.Arbitrary<Record<string, string>>;
  return fc.constant(Object.fromEntries(r.pathParams.map((name) => [name, 'fuzz-missing'])));
}

/** Path parameters that name nothing (nothing generated ever starts with FUZZMISSING). */
export function missingParams(r: ContractRoute): Record<string, string> {
  return Object.fromEntries(r.pathParams.map((name, index) => [name, `FUZZMISSING${index}`]));
}

/** The target of body-carrying requests: the seeded object where there is one (with the live key). */
export function bodyTarget(r: ContractRoute): { params: Record<string, string>; key: KeyMode } {
  const seeded = seededParams(r);
  if (seeded !== null) return { params: seeded, key: 'live' };
  return { params: missingParams(r), key: 'test' };
}

/** Valid bodies: generated from the schema, kept only if still valid once serialised (JSON drops undefined). */
export function schemaBodies(r: ContractRoute): fc.Arbitrary<Record<string, unknown>> {
  const schema = r.body as ZodTypeAny;
  return zfc
    .inputOf(schema)
    .map(onTheWire)
    .filter((value) => schema.safeParse(value).success) as fc.Arbitrary<Record<string, unknown>>;
}

/** Line items, claim items: ids made unique (a repeated id inside one request is 422 by design, not a zod rule). */
export function uniqueIds(items: unknown, key: string): unknown {
  if (!Array.isArray(items)) return items;
  const seen = new Set<string>();
  return items.map((item: Record<string, unknown>, index) => {
    let id = item[key] as string;
    for (let n = 0; seen.has(id); n += 1) id = `u${index}_${n}`;
    seen.add(id);
    return { ...item, [key]: id };
  });
}

export type OrderPlaced = Extract<WebhookMessage, { event: 'order.placed' }>;

/** The largest cart the schema admits, line by line. */
export function atTheMaxima(message: OrderPlaced): Record<string, unknown> {
  const line_items = message.order.line_items.map((line) => ({ ...line, unit_price_cents: MAX_AMOUNT_CENTS, quantity: 1_000_000 }));
  return { ...message, order: { ...message.order, line_items } };
}

/** A signed platform message for the connected store, to make the order a follow-up message names exist. */
export async function placeOrder(orderId: string, mode: 'live' | 'test'): Promise<void> {
  const message = {
    merchant: pushed.store.slug,
    event: 'order.placed',
    order: {
      id: orderId,
      created_at: '2026-11-20T10:00:00Z',
      mode,
      line_items: [
        { id: 'l1', sku: 'MERCH', title: 'Merchandise', unit_price_cents: 10_000, quantity: 1 },
        { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 150, quantity: 1 },
      ],
    },
  };
  const webhook = ROUTES.find((r) => r.name === 'webhooks.receive') as ContractRoute;
  const sent = await request(webhook, { params: { platform_slug: PLATFORM }, body: { json: message } });
  assertSuccess(sent.answer, `placing order ${JSON.stringify(orderId)} before its follow-up message`, 200, sent.text);
}

export const plausibleDate = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true });

export const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });

/** One scan of an EasyPost Tracker: mostly well-formed, with hostile text in every field. */
export const trackingDetail = fc.record(
  {
    status: fc.oneof(fc.constantFrom('in_transit', 'delivered'), anyString(20)),
    status_detail: nullable(anyString(20)),
    datetime: fc.oneof({ weight: 4, arbitrary: plausibleDate.map((d) => d.toISOString()) }, { weight: 1, arbitrary: anyString(30) }),
    message: nullable(anyString(80)),
    tracking_location: nullable(
      fc.record({ city: nullable(anyString(20)), state: nullable(anyString(5)), zip: nullable(anyString(10)), country: nullable(anyString(5)) }),
    ),
  },
  { requiredKeys: ['status', 'datetime'] },
);

/** EasyPost events that carry a Tracker, so the tracker parser sees hostile content too. */
export const trackerEvents = fc.record({
  object: fc.constant('Event'),
  description: fc.constantFrom('tracker.updated', 'tracker.created'),
  result: fc.record(
    {
      object: fc.constant('Tracker'),
      id: fc.oneof(fc.constant('trk_unknown'), anyString(40)),
      tracking_code: fc.oneof(fc.constant(TRACKING_NUMBER), anyString(40)),
      status: fc.oneof(fc.constantFrom('pre_transit', 'in_transit', 'out_for_delivery', 'delivered', 'failure', 'return_to_sender', 'unknown'), anyString(20)),
      carrier: nullable(anyString(20)),
      est_delivery_date: nullable(fc.oneof({ weight: 3, arbitrary: plausibleDate.map((d) => d.toISOString().slice(0, 10)) }, { weight: 1, arbitrary: anyString(30) })),
      public_url: nullable(anyString(60)),
      tracking_details: fc.oneof({ weight: 4, arbitrary: fc.array(trackingDetail, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.jsonValue() }),
    },
    { requiredKeys: ['object', 'id', 'tracking_code', 'status'] },
  ),
});

/**
 * Valid requests of a route. Bodies come from the schema; where the server applies a rule the
 * schema cannot state (documented in the README), the body is adjusted so a 2xx is owed, and the
 * adjustment says why.
 */
export function validCases(r: ContractRoute): fc.Arbitrary<ValidCase> {
  if (r.body === null) {
    // No body: valid parameters and query, for objects that exist (where there are some) and not.
    const seeded = seededParams(r);
    const generated = fc
      .tuple(generatedParams(r), r.query === null ? fc.constant(undefined) : (zfc.inputOf(r.query) as fc.Arbitrary<Record<string, string>>))
      .map(([params, query]): ValidCase => ({ params, ...(query === undefined ? {} : { query }), expect: 'no5xx', variant: 'generated parameters' }));
    // Reads of the seeded objects answer 200; the cancels are left alone (the seeded claim blocks them anyway).
    if (seeded === null || r.route.method !== 'GET') return generated;
    return fc.oneof(generated, fc.constant<ValidCase>({ params: seeded, expect: 200, variant: 'the seeded object' }));
  }
  const bodies = schemaBodies(r);
  switch (r.name) {
    case 'quotes.create':
      // merchant_id naming another store is 404 by design: leave it out or name the key's own store.
      return fc
        .tuple(bodies, fc.constantFrom(undefined, shop.store.id, shop.store.slug))
        .map(([body, merchant]) => ({ body: onTheWire({ ...body, merchant_id: merchant }), expect: 201, variant: 'test key' }));
    case 'orders.create':
      return bodies.map((body) => ({ body: { ...body, line_items: uniqueIds(body.line_items, 'source_id') }, expect: 201, variant: 'test key' }));
    case 'orders.update':
    case 'orders.updatePatch':
      // source_created_on cannot move once booked (409 by design): a sent one is the stored instant.
      return bodies.map((body) => ({
        body: onTheWire({
          ...body,
          line_items: uniqueIds(body.line_items, 'source_id'),
          ...(body.source_created_on === undefined ? {} : { source_created_on: SEEDED_CREATED_ON }),
        }),
        expect: 200,
        variant: 'live key, seeded order',
      }));
    case 'shipments.create':
      // An unknown courier_id is 400 by design (not a zod rule): omit it (detected) or name a carrier.
      return fc
        .tuple(bodies, fc.option(fc.constantFrom(...CARRIER_SLUGS), { nil: undefined }))
        .map(([body, courier]) => ({ body: onTheWire({ ...body, courier_id: courier }), expect: 201, variant: 'test key' }));
    case 'shipments.update':
    case 'shipments.updatePatch':
      // A carrier slug is a 200; free text may name no carrier, which is 400 by design.
      return fc.oneof(
        fc.constantFrom(...CARRIER_SLUGS).map((courier) => ({ body: { courier_id: courier }, expect: 200 as Expectation, variant: 'live key, a carrier slug' })),
        bodies.map((body) => ({ body, expect: 'no5xx' as Expectation, variant: 'live key, free courier_id' })),
      );
    case 'claims.create':
      return bodies.map((body) => ({ body: onTheWire({ ...body, items: uniqueIds(body.items, 'source_id') }), expect: 201, variant: 'test key' }));
    case 'addresses.verify':
      return bodies.map((body) => ({ body, expect: 200, variant: 'test key' }));
    case 'tracking.easyPostWebhook':
      return fc.oneof(
        bodies.map((body) => ({ body, expect: 200 as Expectation, variant: 'generated event' })),
        trackerEvents.map((body) => ({ body: onTheWire(body), expect: 'no5xx' as Expectation, variant: 'tracker event' })),
      );
    case 'webhooks.receive':
      return fc.oneof(
        // An unknown (or unconnected) merchant is 404, whatever the message.
        {
          weight: 1,
          arbitrary: bodies
            .filter((body) => body.merchant !== pushed.store.slug)
            .map((body): ValidCase => ({ body, expect: 404, variant: 'unknown merchant' })),
        },
        // The connected store. Two rules the schema cannot state are 400 by design: a mode other
        // than test or live, and a courier_id that names no carrier; so the mode is mostly absent,
        // test or live, and a fulfilment's courier_id mostly absent or a carrier slug. A follow-up
        // message needs its order received first (else 500 order_not_yet_ingested, by design).
        {
          weight: 3,
          arbitrary: fc
            .tuple(
              // order.placed books the premium, the richest path: given more runs, and a cart at
              // the schema's maxima (every price 9,999,999,999.99, every quantity 1,000,000) now and then.
              fc.oneof(
                { weight: 2, arbitrary: bodies.filter((body) => body.event !== 'order.placed') },
                { weight: 1, arbitrary: zfc.inputOf(OrderPlacedMessage).map(onTheWire) as fc.Arbitrary<Record<string, unknown>> },
                { weight: 1, arbitrary: (zfc.inputOf(OrderPlacedMessage).map(onTheWire) as fc.Arbitrary<OrderPlaced>).map(atTheMaxima) },
              ),
              fc.constantFrom<string | undefined>(undefined, undefined, 'live', 'test', 'TEST', 'sandbox'),
              fc.constantFrom<'live' | 'test'>('live', 'test'),
              fc.array(fc.option(fc.constantFrom<string | null>(...CARRIER_SLUGS, null), { nil: undefined, freq: 3 }), { maxLength: 100 }),
            )
            .filter(([body]) => body.event !== 'order.placed' || cartWithinCeiling((body as unknown as OrderPlaced).order.line_items))
            .map(([body, mode, followUpMode, couriers]): ValidCase => {
              const message = { ...body, merchant: pushed.store.slug } as unknown as WebhookMessage;
              if (message.event === 'order.placed') {
                return { body: onTheWire({ ...message, order: { ...message.order, mode } }), expect: 'no5xx', variant: 'connected merchant, order.placed' };
              }
              if (message.event === 'fulfillment.created') {
                const shipments = message.fulfillment.shipments.map((shipment, index) => {
                  const courier = couriers[index];
                  return { ...shipment, courier_id: courier === null ? shipment.courier_id : courier };
                });
                message.fulfillment = { ...message.fulfillment, shipments };
              }
              // The privacy messages name a shopper or the store, not an order placed first.
              if (!('order' in message)) return { body: onTheWire(message), expect: 'no5xx', variant: `connected merchant, ${message.event}` };
              const orderId = message.order.id;
              return {
                body: onTheWire(message),
                expect: 'no5xx',
                variant: `connected merchant, ${message.event} of a ${followUpMode} order`,
                before: () => placeOrder(orderId, followUpMode),
              };
            }),
        },
      );
    default:
      return bodies.map((body) => ({ body, expect: 'no5xx', variant: 'generated body' }));
  }
}

// ---- Running a property --------------------------------------------------------------------------------

export async function holds<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncProperty<Ts>,
  numRuns = RUNS,
  examples: Ts[] = [],
): Promise<void> {
  try {
    await fc.assert(property, { numRuns, seed: SEED, examples, interruptAfterTimeLimit: PROPERTY_TIMEOUT_MS - 15_000 });
  } catch (error) {
    throw new Error(`${name} failed with FUZZ_SEED=${SEED} (rerun: FUZZ_SEED=${SEED} npx vitest run test/fuzz.test.ts)\n${(error as Error).message}`);
  }
}

export function check(sent: Sent, expectation: Expectation, context: string): void {
  const stats = process.env.FUZZ_STATS;
  if (stats) {
    const code = (sent.answer.json as { error_code?: string } | null)?.error_code ?? '';
    appendFileSync(stats, `${expect.getState().currentTestName}\t${context}\t${sent.answer.status}\t${code}\t${sent.answer.text.slice(0, 300)}\n`);
  }
  const where = `${context}: ${sent.describe}`;
  if (expectation === 'no5xx') assertJsonNot5xx(sent.answer, where, sent.text);
  else if (expectation >= 400) assertClientError(sent.answer, where, expectation, sent.text);
  else assertSuccess(sent.answer, where, expectation, sent.text);
}
