// Events in the SDK: constructEvent (sdk/src/events.ts) against the standardwebhooks package the
// service signs with (accepted, refused with the right reason, in agreement on every header), the
// service's own signed deliveries checked by it, an Express receiver written as the README says,
// and the webhookEndpoints and events resources against the real server.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { signedHeaders, takeDueDelivery } from '../server/domain/events/index.js';
import {
  Client,
  ConflictError,
  constructEvent,
  EVENT_ID_HEADER,
  EVENT_SIGNATURE_HEADER,
  EVENT_TIMESTAMP_HEADER,
  EVENT_TOLERANCE_SECONDS,
  EventSignatureError,
  generateTestHeaders,
  NotFoundError,
  type EventSignatureFailure,
  type MerchantEvent,
  type OrderRequest,
  type WebhookEndpointRequest,
  type WebhookEndpointWithSecret,
  type WithLastResponse,
} from '../sdk/src/index.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const SECRET = newSecret();
const PREVIOUS_SECRET = newSecret();
const EVENT_ID = 'evt_4f0c6a2e8d4b4b8e9a513c2d7e6f1a90';
const AT = new Date(1_800_000_000 * 1000);
const PAYLOAD = JSON.stringify({
  id: EVENT_ID,
  type: 'order.cancelled',
  created_at: '2027-01-15T08:00:00.000Z',
  mode: 'live',
  data: { source_order_id: '1001', status: 'cancelled', paid_to_insure: 1.88, cancellation_cause: 'api', note: 'Grüße, 東京 🚚' },
});

/** The three headers of a delivery of `payload` at `at`, signed by standardwebhooks with each secret. */
function deliveryHeaders(secrets: string[], at = AT, payload = PAYLOAD, id = EVENT_ID): Record<string, string> {
  return {
    [EVENT_ID_HEADER]: id,
    [EVENT_TIMESTAMP_HEADER]: String(Math.floor(at.getTime() / 1000)),
    [EVENT_SIGNATURE_HEADER]: secrets.map((secret) => new Webhook(secret).sign(id, at, payload)).join(' '),
  };
}

/** The reason constructEvent refuses with, or 'accepted'. */
async function outcome(...args: Parameters<typeof constructEvent>): Promise<EventSignatureFailure | 'accepted'> {
  try {
    await constructEvent(...args);
    return 'accepted';
  } catch (error) {
    if (error instanceof EventSignatureError) return error.reason;
    throw error;
  }
}

describe('constructEvent', () => {
  it('accepts a delivery signed by standardwebhooks and returns the event, typed', async () => {
    const event = await constructEvent(PAYLOAD, deliveryHeaders([SECRET]), SECRET, { now: AT });
    expectTypeOf(event).toEqualTypeOf<MerchantEvent>();
    expect(event).toEqual(JSON.parse(PAYLOAD));
    if (event.type !== 'order.cancelled') throw new Error(`unexpected ${event.type}`);
    // Narrowed by type: data is the cancelled order, with its cause.
    expectTypeOf(event.data.cancellation_cause).toEqualTypeOf<'api' | 'refund' | 'platform'>();
    expect(event.data.cancellation_cause).toBe('api');
  });

  it('takes the body as bytes, and headers as Node, Express and Fetch give them', async () => {
    const headers = deliveryHeaders([SECRET]);
    const expected = JSON.parse(PAYLOAD) as unknown;
    const bytes = Buffer.from(PAYLOAD, 'utf8');
    await expect(constructEvent(bytes, headers, SECRET, { now: AT })).resolves.toEqual(expected);
    await expect(constructEvent(new TextEncoder().encode(PAYLOAD), headers, SECRET, { now: AT })).resolves.toEqual(expected);
    await expect(constructEvent(PAYLOAD, new Headers(headers), SECRET, { now: AT })).resolves.toEqual(expected);
    const shouting = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    await expect(constructEvent(PAYLOAD, shouting, SECRET, { now: AT })).resolves.toEqual(expected);
    const arrays = { ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])), 'content-type': 'application/json' };
    await expect(constructEvent(PAYLOAD, arrays, SECRET, { now: AT })).resolves.toEqual(expected);
    // client.webhooks is the same function.
    const client = new Client({ apiKey: 'ak_live_example', baseUrl: 'https://api.example.com' });
    await expect(client.webhooks.constructEvent(PAYLOAD, headers, SECRET, { now: AT })).resolves.toEqual(expected);
  });

  it('accepts two signatures where only the second matches (a rotation), or only the first', async () => {
    const headers = deliveryHeaders([PREVIOUS_SECRET, SECRET]);
    expect(headers[EVENT_SIGNATURE_HEADER]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    expect(await outcome(PAYLOAD, headers, SECRET, { now: AT })).toBe('accepted');
    expect(await outcome(PAYLOAD, headers, PREVIOUS_SECRET, { now: AT })).toBe('accepted');
    // Repeated headers joined with ", " (Node's and Fetch's way), and entries of other versions, are read past.
    const [first, second] = headers[EVENT_SIGNATURE_HEADER]?.split(' ') ?? [];
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_SIGNATURE_HEADER]: `${first}, ${second}` }, SECRET, { now: AT })).toBe('accepted');
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_SIGNATURE_HEADER]: `v1a,c2lnbmF0dXJl ${second}` }, SECRET, { now: AT })).toBe('accepted');
  });

  it('refuses a tampered body, a re-serialised one and a wrong secret: no_matching_signature', async () => {
    const headers = deliveryHeaders([SECRET]);
    expect(await outcome(PAYLOAD.replace('1.88', '9.88'), headers, SECRET, { now: AT })).toBe('no_matching_signature');
    expect(await outcome(JSON.stringify(JSON.parse(PAYLOAD), null, 2), headers, SECRET, { now: AT })).toBe('no_matching_signature');
    expect(await outcome(PAYLOAD, headers, newSecret(), { now: AT })).toBe('no_matching_signature');
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_ID_HEADER]: 'evt_another' }, SECRET, { now: AT })).toBe('no_matching_signature');
    const error = await constructEvent(PAYLOAD, headers, newSecret(), { now: AT }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(EventSignatureError);
    expect(error).toMatchObject({ name: 'EventSignatureError', reason: 'no_matching_signature', header: undefined });
  });

  it(`refuses a timestamp more than ${EVENT_TOLERANCE_SECONDS} s old or ahead; the tolerance can be changed`, async () => {
    const seconds = (offset: number) => new Date(AT.getTime() + offset * 1000);
    const headers = deliveryHeaders([SECRET]);
    expect(await outcome(PAYLOAD, headers, SECRET, { now: seconds(300) })).toBe('accepted');
    expect(await outcome(PAYLOAD, headers, SECRET, { now: seconds(301) })).toBe('timestamp_too_old');
    expect(await outcome(PAYLOAD, headers, SECRET, { now: seconds(-300) })).toBe('accepted');
    expect(await outcome(PAYLOAD, headers, SECRET, { now: seconds(-301) })).toBe('timestamp_too_new');
    expect(await outcome(PAYLOAD, headers, SECRET, { now: seconds(301), toleranceSeconds: 600 })).toBe('accepted');
    expect(await outcome(PAYLOAD, headers, SECRET, { now: seconds(11), toleranceSeconds: 10 })).toBe('timestamp_too_old');
    // Without `now`, the clock: signed 301 s ago, or 301 s ahead.
    expect(await outcome(PAYLOAD, deliveryHeaders([SECRET], new Date(Date.now() - 301_000)), SECRET)).toBe('timestamp_too_old');
    expect(await outcome(PAYLOAD, deliveryHeaders([SECRET], new Date(Date.now() + 301_000)), SECRET)).toBe('timestamp_too_new');
    expect(await outcome(PAYLOAD, deliveryHeaders([SECRET], new Date()), SECRET)).toBe('accepted');
    const error = await constructEvent(PAYLOAD, headers, SECRET, { now: seconds(301) }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ reason: 'timestamp_too_old', header: EVENT_TIMESTAMP_HEADER, message: expect.stringContaining('301 s') });
  });

  it('refuses missing headers (missing_header, naming it) and malformed ones (malformed)', async () => {
    const headers = deliveryHeaders([SECRET]);
    for (const name of [EVENT_ID_HEADER, EVENT_TIMESTAMP_HEADER, EVENT_SIGNATURE_HEADER]) {
      const { [name]: _dropped, ...without } = headers;
      const error = await constructEvent(PAYLOAD, without, SECRET, { now: AT }).catch((reason: unknown) => reason);
      expect(error, name).toBeInstanceOf(EventSignatureError);
      expect(error, name).toMatchObject({ reason: 'missing_header', header: name });
      expect(await outcome(PAYLOAD, { ...headers, [name]: ' ' }, SECRET, { now: AT }), name).toBe('missing_header');
      expect(await outcome(PAYLOAD, new Headers(without), SECRET, { now: AT }), name).toBe('missing_header');
    }
    expect(await outcome(PAYLOAD, {}, SECRET, { now: AT })).toBe('missing_header');
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_TIMESTAMP_HEADER]: 'yesterday' }, SECRET, { now: AT })).toBe('malformed');
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_TIMESTAMP_HEADER]: '1800000000.5' }, SECRET, { now: AT })).toBe('malformed');
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_SIGNATURE_HEADER]: 'not a signature' }, SECRET, { now: AT })).toBe('malformed');
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_SIGNATURE_HEADER]: 'v1,%%%' }, SECRET, { now: AT })).toBe('malformed');
    expect(await outcome(PAYLOAD, { ...headers, [EVENT_SIGNATURE_HEADER]: 't=1800000000,v1=abc' }, SECRET, { now: AT })).toBe('malformed');
  });

  it('throws TypeError, not EventSignatureError, for what is a bug in the receiver: a parsed body, a bad secret or option', async () => {
    const headers = deliveryHeaders([SECRET]);
    const parsed = JSON.parse(PAYLOAD) as unknown as string;
    await expect(constructEvent(parsed, headers, SECRET, { now: AT })).rejects.toThrow(/express\.raw/);
    await expect(constructEvent(PAYLOAD, headers, undefined as unknown as string, { now: AT })).rejects.toThrow(TypeError);
    await expect(constructEvent(PAYLOAD, headers, 'whsec_not base64!', { now: AT })).rejects.toThrow(/whsec_/);
    await expect(constructEvent(PAYLOAD, headers, SECRET, { toleranceSeconds: -1 })).rejects.toThrow(/toleranceSeconds/);
    await expect(constructEvent(PAYLOAD, undefined as unknown as Headers, SECRET)).rejects.toThrow(TypeError);
    // A secret without its prefix is the bare base64 key, as standardwebhooks reads it.
    expect(await outcome(PAYLOAD, headers, SECRET.slice('whsec_'.length), { now: AT })).toBe('accepted');
  });

  it('agrees with standardwebhooks on every header', async () => {
    const now = new Date();
    const current = deliveryHeaders([SECRET], now);
    const signature = current[EVENT_SIGNATURE_HEADER] ?? '';
    const cases: Array<Record<string, string>> = [
      current,
      deliveryHeaders([PREVIOUS_SECRET, SECRET], now),
      deliveryHeaders([SECRET, PREVIOUS_SECRET], now),
      deliveryHeaders([PREVIOUS_SECRET], now),
      // A digit changed; and the last digit's unused bits set, which decodes to the same bytes but is not the text signed.
      { ...current, [EVENT_SIGNATURE_HEADER]: `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}` },
      { ...current, [EVENT_SIGNATURE_HEADER]: signature.replace(/(.)=$/, (_match, last: string) => `${BASE64[BASE64.indexOf(last) ^ 1]}=`) },
      { ...current, [EVENT_SIGNATURE_HEADER]: signature.replace('v1,', 'v2,') },
      { ...current, [EVENT_ID_HEADER]: 'evt_other' },
      // standardwebhooks reads the real clock, a moment after `now`: each case is 10 s clear of the
      // 300 s tolerance, so that a loaded machine cannot move it across.
      deliveryHeaders([SECRET], new Date(now.getTime() - 310_000)),
      deliveryHeaders([SECRET], new Date(now.getTime() - 290_000)),
      deliveryHeaders([SECRET], new Date(now.getTime() + 310_000)),
      { ...current, [EVENT_TIMESTAMP_HEADER]: 'soon' },
    ];
    for (const headers of cases) {
      let theirs: boolean;
      try {
        new Webhook(SECRET).verify(PAYLOAD, headers);
        theirs = true;
      } catch {
        theirs = false;
      }
      const ours = (await outcome(PAYLOAD, headers, SECRET, { now })) === 'accepted';
      expect(ours, JSON.stringify(headers)).toBe(theirs);
    }
  });

  it('generateTestHeaders signs as the service does, for tests of a receiver', async () => {
    const headers = await generateTestHeaders({ payload: PAYLOAD, secret: SECRET, timestamp: AT });
    expect(headers).toEqual(deliveryHeaders([SECRET]));
    expect(headers[EVENT_ID_HEADER]).toBe(EVENT_ID); // the payload's id
    const fresh = await generateTestHeaders({ payload: PAYLOAD, secret: SECRET, id: 'msg_custom' });
    expect(new Webhook(SECRET).verify(PAYLOAD, fresh)).toEqual(JSON.parse(PAYLOAD));
    await expect(generateTestHeaders({ payload: 'not json', secret: SECRET })).rejects.toThrow(/id is required/);
  });
});

// ---- against the real server

let service: TestService;
let shop: SeededStore;
let receiver: { url: string; handled: MerchantEvent[]; close: () => Promise<void> };
let receiverSecret = '';

/**
 * A receiver written as the README's "Receiving events (Express)" says: the raw body, 400 on a bad
 * signature, each event id handled once, 2xx at once.
 */
async function startExpressReceiver(client: Client): Promise<typeof receiver> {
  const handled: MerchantEvent[] = [];
  const seen = new Set<string>();
  const app = express();
  app.post('/hook', express.raw({ type: 'application/json' }), async (req, res) => {
    let event: MerchantEvent;
    try {
      event = await client.webhooks.constructEvent(req.body as Buffer, req.headers, receiverSecret);
    } catch (error) {
      if (error instanceof EventSignatureError) {
        res.status(400).send(error.reason);
        return;
      }
      throw error;
    }
    if (!seen.has(event.id)) {
      seen.add(event.id);
      handled.push(event);
    }
    res.status(204).end();
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, handled, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
});
afterAll(async () => {
  await receiver?.close();
  await service?.close();
});

function order(sourceOrderId: string): OrderRequest {
  return {
    source_order_id: sourceOrderId,
    subtotal: 125,
    insurance_selected: true,
    customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
    line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2 }],
    source_created_on: new Date().toISOString(),
  };
}

describe('client.webhookEndpoints and client.events against the real server', () => {
  it('create, list, retrieve, update, rotateSecret, listDeliveries, events list, retrieve and resend, del', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });

    // Create: the secret is in this answer only. A write: it sends an Idempotency-Key, and a replay answers the same.
    const body: WebhookEndpointRequest = { url: 'https://shop.example.com/hook', events: ['order.created', 'order.cancelled'], description: 'fulfilment' };
    const endpoint = await client.webhookEndpoints.create(body, { idempotencyKey: `endpoint-${shop.store.id}` });
    expectTypeOf(endpoint).toEqualTypeOf<WithLastResponse<WebhookEndpointWithSecret>>();
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^we_/),
      url: 'https://shop.example.com/hook',
      events: ['order.created', 'order.cancelled'],
      description: 'fulfilment',
      status: 'enabled',
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(endpoint.lastResponse).toMatchObject({ status: 201, idempotencyKey: `endpoint-${shop.store.id}`, replayed: false });
    const replay = await client.webhookEndpoints.create(body, { idempotencyKey: `endpoint-${shop.store.id}` });
    expect(replay.lastResponse.replayed).toBe(true);
    expect(replay).toEqual(endpoint);

    // Reads carry no secret.
    const { secret, ...withoutSecret } = endpoint;
    const list = await client.webhookEndpoints.list();
    expect(list).toEqual({ data: [withoutSecret] });
    expect(list.lastResponse.idempotencyKey).toBeUndefined();
    expect(await client.webhookEndpoints.retrieve(endpoint.id)).toEqual(withoutSecret);

    // Update: only what changed.
    const updated = await client.webhookEndpoints.update(endpoint.id, { events: ['*'], description: null });
    expect(updated).toMatchObject({ id: endpoint.id, url: 'https://shop.example.com/hook', events: ['*'], description: null, status: 'enabled' });
    expect(updated.lastResponse.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    // Rotate: a new secret; the old one signs too until previous_secret_expires_on.
    const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(Date.parse(rotated.previous_secret_expires_on) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(rotated.lastResponse.idempotencyKey).toBeDefined();

    // An order makes an event, delivered to the endpoint (no worker runs here: the delivery waits).
    const created = await client.orders.create(order(`evt-${Date.now()}`));
    const events = await client.events.list({ type: 'order.created' });
    expect(events.has_more).toBe(false);
    expect(events.data).toHaveLength(1);
    const [event] = events.data;
    if (event?.type !== 'order.created') throw new Error('expected an order.created event');
    expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), mode: 'live', data: { id: created.id, source_order_id: created.source_order_id } });
    expect(event.data).toEqual({ ...created });
    expect(await client.events.retrieve(event.id)).toEqual(event);
    expect((await client.events.list({ limit: '1' })).data.map((item) => item.id)).toEqual([event.id]);
    expect((await client.events.list({ type: 'claim.created' })).data).toEqual([]);

    const deliveries = await client.webhookEndpoints.listDeliveries(endpoint.id);
    expect(deliveries).toEqual({
      data: [expect.objectContaining({ event_id: event.id, event_type: 'order.created', status: 'pending', attempt_count: 0, attempts: [] })],
      has_more: false,
    });

    // The delivery as the service signs it (both secrets, during the rotation): constructEvent takes it with either.
    const due = await takeDueDelivery(service.db, { id: endpoint.id, storeId: shop.store.id }, new Date());
    expect(due?.secrets).toHaveLength(2);
    if (due === null) throw new Error('no due delivery');
    const signed = signedHeaders(due, new Date());
    expect(await client.webhooks.constructEvent(due.body, signed, rotated.secret)).toEqual(event);
    expect(await client.webhooks.constructEvent(Buffer.from(due.body), signed, secret)).toEqual(event);
    await expect(client.webhooks.constructEvent(due.body, signed, newSecret())).rejects.toMatchObject({ reason: 'no_matching_signature' });

    // Resend: to this endpoint, queued as a new delivery with the same event.
    const resent = await client.events.resend(event.id, { endpoint_id: endpoint.id });
    expect(resent.lastResponse.status).toBe(202);
    expect(resent.data).toEqual([expect.objectContaining({ event_id: event.id, status: 'pending' })]);
    expect((await client.webhookEndpoints.listDeliveries(endpoint.id, { limit: '1' })).data.map((delivery) => delivery.id)).toEqual([resent.data[0]?.id]);

    // Delete: DELETE takes no Idempotency-Key; the endpoint is gone.
    const deleted = await client.webhookEndpoints.del(endpoint.id);
    expect(deleted).toEqual({ id: endpoint.id, deleted: true });
    expect(deleted.lastResponse.idempotencyKey).toBeUndefined();
    await expect(client.webhookEndpoints.retrieve(endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.webhookEndpoints.del(endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.events.resend(event.id, { endpoint_id: endpoint.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('resend to an endpoint not subscribed to the type is ConflictError; test keys get NotFoundError', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    const endpoint = await client.webhookEndpoints.create({ url: 'https://shop.example.com/hook', events: ['claim.created'] });
    await client.orders.create(order(`evt-conflict-${Date.now()}`));
    const [latest] = (await client.events.list({ type: 'order.created', limit: '1' })).data;
    if (latest === undefined) throw new Error('no event');
    await expect(client.events.resend(latest.id, { endpoint_id: endpoint.id })).rejects.toBeInstanceOf(ConflictError);
    await client.webhookEndpoints.del(endpoint.id);

    const sandbox = new Client({ apiKey: shop.testKey, baseUrl: service.baseUrl });
    await expect(sandbox.webhookEndpoints.list()).rejects.toBeInstanceOf(NotFoundError);
    await expect(sandbox.events.list()).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an Express receiver as the README writes it takes the service's deliveries, refuses forgeries with 400 and handles each event once", async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl });
    receiver = await startExpressReceiver(client);
    const endpoint = await client.webhookEndpoints.create({ url: 'https://shop.example.com/hook', events: ['order.created'] });
    receiverSecret = endpoint.secret;
    const created = await client.orders.create(order(`evt-express-${Date.now()}`));

    const due = await takeDueDelivery(service.db, { id: endpoint.id, storeId: shop.store.id }, new Date());
    if (due === null) throw new Error('no due delivery');
    const post = (headers: Record<string, string>, body = due.body) =>
      fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const headers = signedHeaders(due, new Date());
    expect((await post(headers)).status).toBe(204);
    expect((await post(headers)).status).toBe(204); // a redelivery: handled once
    const forged = await post(headers, due.body.replace(created.id, 'ord_forged'));
    expect(forged.status).toBe(400);
    expect(await forged.text()).toBe('no_matching_signature');
    expect((await post({ ...headers, [EVENT_TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000) - 3600) })).status).toBe(400);
    expect((await post({})).status).toBe(400);

    expect(receiver.handled).toHaveLength(1);
    const [event] = receiver.handled;
    expect(event).toMatchObject({ id: due.eventId, type: 'order.created', data: { id: created.id } });
    await client.webhookEndpoints.del(endpoint.id);
  });
});
