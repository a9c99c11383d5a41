// Crash safety of the real server (`server/main.ts` as a child process): several clients stream
// order creates (REST) and signed refund.created webhooks on orders that already exist; the node
// process is SIGKILLed in the middle of the stream and restarted on the same database. Then:
//   - every request answered 2xx is in the database in full (order, every line item, booking;
//     refund and its reversal);
//   - no partial write exists anywhere (an order without its lines or booking, a refund without
//     its reversal, a reversal without its refund);
//   - a request whose outcome the client could not know (the connection broke under it) was either
//     applied in full or not at all, and one refused at connect was not applied;
//   - retrying those unknown requests converges: create answers 201 or 409 (and on 409 the order is
//     complete), refund redelivery answers duplicate or applies exactly once.
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { createDatabase, type Database } from '../server/db/client.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { freePort, spawnServer } from './support/server-process.js';
import { createTestDatabase, seedStore, TEST_OPERATOR } from './support/service.js';
import { actingFor } from '../server/domain/access/index.js';

const PLATFORM = 'crashplat';
const SECRET = 'crash-safety-shared-secret-0123456789';
/** Concurrent clients, each with one request outstanding at a time on its own keep-alive connection. */
const CLIENTS = 8;
/** The kill comes after this many 2xx answers in the stream (or at STREAM_DEADLINE_MS, whichever first). */
const ANSWERS_BEFORE_KILL = 120;
const STREAM_DEADLINE_MS = 15_000;

type Outcome =
  | { kind: 'answered'; status: number; body: string }
  /** The connection could not be made: nothing reached the server. */
  | { kind: 'refused' }
  /** The connection broke after the request was (maybe) sent: the outcome is unknown. */
  | { kind: 'unknown'; code: string };

function post(agent: Agent | false, port: number, path: string, payload: string, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    const failed = (error: NodeJS.ErrnoException) =>
      settle(error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'unknown', code: error.code ?? error.message });
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
        timeout: 20_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => settle({ kind: 'answered', status: res.statusCode ?? 0, body: text }));
        // A response cut short after its headers is not an answer.
        res.on('error', failed);
        res.on('aborted', () => settle({ kind: 'unknown', code: 'aborted' }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', failed);
    req.end(payload);
  });
}

// ---- What the clients send -----------------------------------------------------------------------

interface LineItem {
  source_id: string;
  name: string;
  price: number;
  quantity: number;
  sku: string;
}
interface OrderCreate {
  kind: 'order';
  sourceOrderId: string;
  body: { source_order_id: string; subtotal: number; insurance_selected: boolean; line_items: LineItem[] } & Record<string, unknown>;
  /** The premium the order books, in cents (0: unprotected, no booking). */
  premiumCents: number;
}
interface RefundPush {
  kind: 'refund';
  sourceOrderId: string;
  refundId: string;
  /** Exactly these bytes are signed and sent, on the first delivery and on every retry. */
  raw: string;
  reversedCents: number;
}
type Operation = OrderCreate | RefundPush;

/**
 * The subtotals of the stream (major units) and their premiums, worked out by hand with the store's
 * terms (1.5 % of the subtotal, rounded half up, minimum 0.98); an unprotected order books nothing.
 * Mutation-checked: fails with pricing.ts rounding down instead of half up (125.00 books 1.87).
 */
const PRICED: ReadonlyArray<{ subtotal: number; premiumCents: number }> = [
  { subtotal: 1000, premiumCents: 1500 }, // 1000.00 x 1.5 % = 15.00
  { subtotal: 125, premiumCents: 188 }, //    125.00 x 1.5 % =  1.875    -> 1.88 (half up)
  { subtotal: 40, premiumCents: 98 }, //       40.00 x 1.5 % =  0.60     -> the 0.98 minimum
  { subtotal: 2499.99, premiumCents: 3750 }, // 2499.99 x 1.5 % = 37.49985 -> 37.50
];

let sequence = 0;
function orderCreate(index: number): OrderCreate {
  sequence += 1;
  const sourceOrderId = `crash-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
  const { subtotal, premiumCents } = PRICED[index % PRICED.length] as (typeof PRICED)[number];
  // One order in five is unprotected: it has no booking, and a booking for it would be a bug too.
  const insured = index % 5 !== 4;
  const lineCount = 2 + (index % 4);
  const line_items = Array.from({ length: lineCount }, (_, i) => ({
    source_id: `li-${i}`,
    name: `Item ${i} of ${sourceOrderId}`,
    price: 10 + i + (index % 7) / 100,
    quantity: 1 + (i % 3),
    sku: `SKU-${i}`,
  }));
  return {
    kind: 'order',
    sourceOrderId,
    premiumCents: insured ? premiumCents : 0,
    body: {
      source_order_id: sourceOrderId,
      subtotal,
      insurance_selected: insured,
      customer_details: { first_name: 'Crash', last_name: 'Tester', email: 'crash@example.com' },
      shipping_details: { street_address1: '1 Main St', city: 'Springfield', province: 'IL', zip: '62701', country_code: 'US' },
      line_items,
      source_created_on: '2026-11-20T10:00:00Z',
    },
  };
}

function refundPush(storeSlug: string, sourceOrderId: string, index: number): RefundPush {
  sequence += 1;
  const refundId = `crash-ref-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
  // 1 to 5 cents of the protection line, plus a merchandise line that reverses nothing. A target
  // holds at least 1500 cents and the whole stream sends far fewer than 300 refunds, so no reversal
  // is ever clamped.
  const cents = 1 + (index % 5);
  const raw = JSON.stringify({
    merchant: storeSlug,
    event: 'refund.created',
    order: { id: sourceOrderId },
    refund: {
      id: refundId,
      amount_cents: cents + 500,
      items: [
        { sku: 'SHIPPING-PROTECTION', refunded_cents: cents },
        { sku: 'SKU-0', refunded_cents: 500 },
      ],
    },
  });
  return { kind: 'refund', sourceOrderId, refundId, raw, reversedCents: cents };
}

function send(agent: Agent | false, port: number, key: string, operation: Operation): Promise<Outcome> {
  if (operation.kind === 'order') return post(agent, port, '/v2/orders', JSON.stringify(operation.body), { token: key });
  // Signed afresh at each delivery, as a platform does on redelivery; the body bytes do not change.
  return post(agent, port, `/api/webhooks/${PLATFORM}`, operation.raw, { 'x-webhook-signature': signWebhook(SECRET, operation.raw) });
}

// ---- What the database holds ---------------------------------------------------------------------

interface StoredOrder {
  id: string;
  sourceOrderId: string;
  insuranceSelected: boolean;
  lines: Array<{ position: number; sourceId: string; name: string; priceCents: number; quantity: number; sku: string | null }>;
  entries: Array<{ amountCents: number; reason: string; refundId: string | null }>;
}

async function storedOrders(db: Database, storeId: string): Promise<Map<string, StoredOrder>> {
  const rows = await db.order.findMany({
    where: { storeId },
    include: { lineItems: { orderBy: { position: 'asc' } }, ledgerEntries: { orderBy: { id: 'asc' } } },
  });
  return new Map(
    rows.map((row) => [
      row.sourceOrderId,
      {
        id: row.id,
        sourceOrderId: row.sourceOrderId,
        insuranceSelected: row.insuranceSelected,
        lines: row.lineItems.map((l) => ({ position: l.position, sourceId: l.sourceId, name: l.name, priceCents: Number(l.priceCents), quantity: l.quantity, sku: l.sku })),
        entries: row.ledgerEntries.map((e) => ({ amountCents: Number(e.amountCents), reason: e.reason, refundId: e.refundId })),
      },
    ]),
  );
}

interface StoredRefund {
  id: string;
  orderId: string;
  reversedCents: number;
  protectionRefundedCents: number;
}

async function storedRefunds(db: Database, storeId: string): Promise<Map<string, StoredRefund>> {
  const rows = await db.refund.findMany({ where: { storeId } });
  return new Map(
    rows.map((row) => [
      row.sourceRefundId,
      { id: row.id, orderId: row.orderId, reversedCents: Number(row.reversedCents), protectionRefundedCents: Number(row.protectionRefundedCents) },
    ]),
  );
}

/** The order exactly as the create asked for: every line, and its booking (none when unprotected). */
function expectCompleteOrder(stored: StoredOrder | undefined, create: OrderCreate, context: string): void {
  expect(stored, `${context}: order ${create.sourceOrderId} is stored`).toBeDefined();
  if (!stored) return;
  expect(stored.lines, `${context}: the lines of ${create.sourceOrderId}`).toEqual(
    create.body.line_items.map((line, position) => ({
      position,
      sourceId: line.source_id,
      name: line.name,
      priceCents: Math.round(line.price * 100),
      quantity: line.quantity,
      sku: line.sku,
    })),
  );
  const bookings = stored.entries.filter((e) => e.reason === 'booking');
  expect(bookings.map((e) => e.amountCents), `${context}: the booking of ${create.sourceOrderId}`).toEqual(
    create.premiumCents > 0 ? [create.premiumCents] : [],
  );
}

/** The refund row and its one reversal of exactly the refunded protection cents. */
function expectAppliedRefund(orders: Map<string, StoredOrder>, refunds: Map<string, StoredRefund>, push: RefundPush, context: string): void {
  const refund = refunds.get(push.refundId);
  expect(refund, `${context}: refund ${push.refundId} is stored`).toBeDefined();
  if (!refund) return;
  expect(refund.reversedCents, `${context}: reversed by ${push.refundId}`).toBe(push.reversedCents);
  const order = orders.get(push.sourceOrderId);
  expect(order?.id, `${context}: refund ${push.refundId} belongs to ${push.sourceOrderId}`).toBe(refund.orderId);
  const reversals = order?.entries.filter((e) => e.refundId === refund.id) ?? [];
  expect(reversals, `${context}: the reversal of ${push.refundId}`).toEqual([{ amountCents: -push.reversedCents, reason: 'reversal', refundId: refund.id }]);
}

/** No partial write anywhere in the store, whoever made it. */
function expectNoPartialWrites(orders: Map<string, StoredOrder>, refunds: Map<string, StoredRefund>, created: Map<string, OrderCreate>): void {
  const refundIds = new Set([...refunds.values()].map((r) => r.id));
  const refundsByOrder = new Map<string, StoredRefund[]>();
  for (const refund of refunds.values()) refundsByOrder.set(refund.orderId, [...(refundsByOrder.get(refund.orderId) ?? []), refund]);
  for (const order of orders.values()) {
    const create = created.get(order.sourceOrderId);
    expect(create, `an order the test did not send: ${order.sourceOrderId}`).toBeDefined();
    if (create) expectCompleteOrder(order, create, 'no partial write');
    // Every ledger entry of a reversal points at a stored refund, and every other entry at none.
    for (const entry of order.entries) {
      if (entry.reason === 'reversal') expect(entry.refundId !== null && refundIds.has(entry.refundId), JSON.stringify(entry)).toBe(true);
      else expect(entry.refundId).toBeNull();
    }
    expect(order.entries.filter((e) => e.reason === 'repricing')).toEqual([]);
    // Each refund row has its reversal (none when it reversed nothing), and the premium never goes negative.
    for (const refund of refundsByOrder.get(order.id) ?? []) {
      const reversed = order.entries.filter((e) => e.refundId === refund.id).reduce((sum, e) => sum - e.amountCents, 0);
      expect(reversed, `refund ${refund.id} of ${order.sourceOrderId}`).toBe(refund.reversedCents);
      expect(refund.reversedCents).toBe(refund.protectionRefundedCents);
    }
    expect(order.entries.reduce((sum, e) => sum + e.amountCents, 0)).toBeGreaterThanOrEqual(0);
  }
  const orderIds = new Set([...orders.values()].map((o) => o.id));
  for (const refund of refunds.values()) expect(orderIds.has(refund.orderId)).toBe(true);
}

// ---- The test ------------------------------------------------------------------------------------

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('crash safety', () => {
  it('keeps every acknowledged write, leaves no partial one, and converges on retry after SIGKILL', async () => {
    const started = Date.now();
    const databaseUrl = await createTestDatabase();
    const db: Database = createDatabase(databaseUrl, { poolSize: 4 });
    cleanups.push(() => db.$disconnect());
    const shop = await seedStore(db);
    await createPlatform(db, TEST_OPERATOR, PLATFORM, SECRET);
    await connectStore(db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);

    const env = (port: number) => ({
      DATABASE_URL: databaseUrl,
      DATA_DIR: '/nonexistent-should-not-be-used',
      PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMITS_ENABLED: 'false',
    });
    const firstPort = await freePort();
    const first = spawnServer(env(firstPort));
    cleanups.push(() => first.kill());
    await first.waitFor('listening on', 45_000);

    const created = new Map<string, OrderCreate>();
    const log: Array<{ operation: Operation; outcome: Outcome }> = [];
    /**
     * Orders whose create was answered 201 and that hold 15.00 of premium: the refunds target these,
     * so no refund of the stream is ever clamped (each reverses exactly what it refunds).
     */
    const acknowledgedOrders: string[] = [];

    // A few orders before the stream, so refunds have targets from the first request on.
    const warmAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(() => warmAgent.destroy());
    for (let i = 0; i < 6; i += 1) {
      const operation = orderCreate(i * 20); // 1000.00, insured: 15.00 of premium
      created.set(operation.sourceOrderId, operation);
      const outcome = await send(warmAgent, firstPort, shop.liveKey, operation);
      expect(outcome, first.output()).toMatchObject({ kind: 'answered', status: 201 });
      log.push({ operation, outcome });
      acknowledgedOrders.push(operation.sourceOrderId);
    }

    // The stream: CLIENTS clients, each on its own keep-alive connection, about 3 order creates to
    // 2 refunds. The kill comes from inside the callback of an answer, while the other clients'
    // requests are on the wire or being processed.
    let killed = false;
    let answered2xx = 0;
    let inFlight = 0;
    let killedWithInFlight = 0;
    const kill = () => {
      if (killed) return;
      killed = true;
      killedWithInFlight = inFlight;
      first.signal('SIGKILL');
    };
    const deadline = setTimeout(kill, STREAM_DEADLINE_MS);
    const client = async (clientIndex: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      cleanups.push(() => agent.destroy());
      for (let n = 0; !killed; n += 1) {
        const index = clientIndex * 1000 + n;
        const refundTarget = acknowledgedOrders[(index * 7919) % acknowledgedOrders.length] as string;
        const operation = n % 5 === 1 || n % 5 === 3 ? refundPush(shop.store.slug, refundTarget, index) : orderCreate(index);
        if (operation.kind === 'order') created.set(operation.sourceOrderId, operation);
        inFlight += 1;
        const outcome = await send(agent, firstPort, shop.liveKey, operation);
        inFlight -= 1;
        log.push({ operation, outcome });
        if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
          answered2xx += 1;
          if (operation.kind === 'order' && operation.premiumCents >= 1500) acknowledgedOrders.push(operation.sourceOrderId);
          if (answered2xx >= ANSWERS_BEFORE_KILL && inFlight >= 2) kill();
        }
        if (outcome.kind !== 'answered') break;
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    clearTimeout(deadline);
    expect(killed).toBe(true);
    await first.exited;

    const answered = log.filter((entry) => entry.outcome.kind === 'answered');
    const unknown = log.filter((entry) => entry.outcome.kind === 'unknown');
    const refused = log.filter((entry) => entry.outcome.kind === 'refused');
    const summary = JSON.stringify({
      answered: answered.length,
      unknown: unknown.map((e) => (e.outcome.kind === 'unknown' ? `${e.operation.kind}: ${e.outcome.code}` : '')),
      refused: refused.length,
      killedWithInFlight,
      ms: Date.now() - started,
    });
    // Every answer before the kill was a success: the stream only sends valid requests.
    expect(
      answered.filter((e) => e.outcome.kind === 'answered' && e.outcome.status !== (e.operation.kind === 'order' ? 201 : 200)).map((e) => e.outcome),
      first.output(),
    ).toEqual([]);
    expect(answered.length, summary).toBeGreaterThanOrEqual(60);
    expect(answered.filter((e) => e.operation.kind === 'refund').length, summary).toBeGreaterThanOrEqual(15);
    // The kill cut requests in flight: their clients saw the connection break.
    expect(unknown.length, summary).toBeGreaterThanOrEqual(1);

    // Restart on the same database.
    const secondPort = await freePort();
    const second = spawnServer(env(secondPort));
    cleanups.push(() => second.kill());
    await second.waitFor('listening on', 45_000);

    let orders = await storedOrders(db, shop.store.id);
    let refunds = await storedRefunds(db, shop.store.id);

    // 1. Every 2xx is there in full.
    for (const { operation } of answered) {
      if (operation.kind === 'order') expectCompleteOrder(orders.get(operation.sourceOrderId), operation, 'acknowledged');
      else expectAppliedRefund(orders, refunds, operation, 'acknowledged');
    }
    // 2. No partial write anywhere.
    expectNoPartialWrites(orders, refunds, created);
    // 3. A request refused at connect never reached the server; an unknown one is all or nothing
    //    (the checks above already proved that whatever is stored is complete).
    for (const { operation } of refused) {
      if (operation.kind === 'order') expect(orders.has(operation.sourceOrderId)).toBe(false);
      else expect(refunds.has(operation.refundId)).toBe(false);
    }
    const appliedBeforeRetry = new Map(
      unknown.map(({ operation }) => [
        operation,
        operation.kind === 'order' ? orders.has(operation.sourceOrderId) : refunds.has(operation.refundId),
      ]),
    );

    // 4. Retrying every unknown request (and every refused one) converges.
    const retryAgent = new Agent({ keepAlive: true, maxSockets: 4 });
    cleanups.push(() => retryAgent.destroy());
    const retried = await Promise.all(
      [...unknown, ...refused].map(async ({ operation }) => ({ operation, outcome: await send(retryAgent, secondPort, shop.liveKey, operation) })),
    );
    for (const { operation, outcome } of retried) {
      expect(outcome.kind, `${summary}\n${second.output()}`).toBe('answered');
      if (outcome.kind !== 'answered') continue;
      const body = JSON.parse(outcome.body) as Record<string, unknown>;
      const wasApplied = appliedBeforeRetry.get(operation) ?? false;
      if (operation.kind === 'order') {
        // 201 when the first attempt did not land, 409 when it did: never a second order.
        expect(outcome.status, outcome.body).toBe(wasApplied ? 409 : 201);
        if (outcome.status === 409) expect(body.error_code).toBe('conflict');
        const read = await fetch(`http://127.0.0.1:${secondPort}/v2/orders/${encodeURIComponent(operation.sourceOrderId)}`, {
          headers: { token: shop.liveKey },
        });
        expect(read.status).toBe(200);
        const order = (await read.json()) as { line_items: unknown[]; paid_to_insure: number };
        expect(order.line_items).toHaveLength(operation.body.line_items.length);
      } else {
        expect(outcome.status, outcome.body).toBe(200);
        expect(body).toMatchObject(wasApplied ? { duplicate: true, reversed_cents: 0 } : { duplicate: false, reversed_cents: operation.reversedCents });
      }
    }

    // A redelivery of every acknowledged refund is a duplicate, and changes nothing.
    const ledgerBefore = await db.premiumLedgerEntry.count({ where: { storeId: shop.store.id } });
    const redelivered = await Promise.all(
      answered.filter((e) => e.operation.kind === 'refund').map(({ operation }) => send(retryAgent, secondPort, shop.liveKey, operation)),
    );
    for (const outcome of redelivered) {
      expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
      if (outcome.kind === 'answered') expect(JSON.parse(outcome.body)).toMatchObject({ duplicate: true, reversed_cents: 0 });
    }
    expect(await db.premiumLedgerEntry.count({ where: { storeId: shop.store.id } })).toBe(ledgerBefore);

    // After the retries every request of the stream is applied exactly once, in full.
    orders = await storedOrders(db, shop.store.id);
    refunds = await storedRefunds(db, shop.store.id);
    expectNoPartialWrites(orders, refunds, created);
    const everyOperation = log.map((e) => e.operation);
    for (const operation of everyOperation) {
      if (operation.kind === 'order') expectCompleteOrder(orders.get(operation.sourceOrderId), operation, 'after retry');
      else expectAppliedRefund(orders, refunds, operation, 'after retry');
    }
    expect(orders.size).toBe(new Set(everyOperation.filter((o) => o.kind === 'order').map((o) => o.sourceOrderId)).size);
    expect(refunds.size).toBe(everyOperation.filter((o) => o.kind === 'refund').length);

    // And the premium each order holds is its booking less its refunds' reversals.
    for (const order of orders.values()) {
      const create = created.get(order.sourceOrderId) as OrderCreate;
      const reversed = everyOperation
        .filter((o): o is RefundPush => o.kind === 'refund' && o.sourceOrderId === order.sourceOrderId)
        .reduce((sum, o) => sum + o.reversedCents, 0);
      expect(order.entries.reduce((sum, e) => sum + e.amountCents, 0), order.sourceOrderId).toBe(create.premiumCents - reversed);
    }

    second.kill();
    await second.exited;
    const landed = [...appliedBeforeRetry.values()].filter(Boolean).length;
    console.info(`crash-safety: ${summary}; of the unknown, ${landed} had landed and ${appliedBeforeRetry.size - landed} had not`);
  }, 90_000);
});
