// A store's daily totals (what the overview and the statements read) against the rows they sum,
// through real HTTP and a real PostgreSQL: random bookings, re-pricings, protection switched on and
// off, refunds, cancellations, claims filed, decided and paid, sent concurrently in batches while
// the clock moves on. After each run the kept totals equal the rows' own aggregate on every day, and
// each month's statement equals sums taken here straight from the ledger, orders and claims.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { actingFor } from '../server/domain/access/index.js';
import { dailyTotalsDrift, rebuildDailyTotals } from '../server/domain/billing/index.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { call, orderBody, type ApiResponse } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';

const PLATFORM = 'totalsplat';
const SECRET = 'daily-totals-shared-secret-0123456789';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let service: TestService;

beforeAll(async () => {
  service = await startService();
  await createPlatform(service.db, TEST_OPERATOR, PLATFORM, SECRET);
  service.clock.advance(Date.parse('2026-10-20T08:00:00Z') - service.clock.now().getTime());
});
afterAll(async () => service.close());

type Operation =
  | { kind: 'create'; subtotalCents: number; selected: boolean; placedHoursAgo: number; duplicate: boolean }
  | { kind: 'reprice'; pick: number; subtotalCents: number }
  | { kind: 'protection'; pick: number; selected: boolean }
  | { kind: 'refund'; pick: number; cents: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'claim'; pick: number; outcome: 'open' | 'approved' | 'denied' | 'paid'; paidHoursAgo: number; payoutCents: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    subtotalCents: fc.integer({ min: 1, max: 80_000 }),
    selected: fc.boolean(),
    // Up to 40 days back: orders placed across the month boundaries around the clock.
    placedHoursAgo: fc.integer({ min: 0, max: 960 }),
    duplicate: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('reprice' as const), pick: fc.nat(), subtotalCents: fc.integer({ min: 1, max: 80_000 }) }),
  fc.record({ kind: fc.constant('protection' as const), pick: fc.nat(), selected: fc.boolean() }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), cents: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('claim' as const),
    pick: fc.nat(),
    outcome: fc.constantFrom('open' as const, 'approved' as const, 'denied' as const, 'paid' as const),
    paidHoursAgo: fc.integer({ min: 0, max: 72 }),
    payoutCents: fc.integer({ min: 1, max: 5_000 }),
  }),
);

/** Batches sent one after another, each batch's operations at once, the clock moved on between them. */
const history = fc.array(fc.record({ operations: fc.array(operation, { minLength: 1, maxLength: 12, size: 'max' }), hoursLater: fc.integer({ min: 0, max: 90 }) }), {
  minLength: 2,
  maxLength: 6,
  size: 'max',
});

/** One history that does every kind of write at least once, across a month boundary, run first. */
const everyKind: Batch[] = [
  {
    operations: [
      { kind: 'create', subtotalCents: 12_500, selected: true, placedHoursAgo: 500, duplicate: true },
      { kind: 'create', subtotalCents: 20_000, selected: true, placedHoursAgo: 2, duplicate: false },
      { kind: 'create', subtotalCents: 4_000, selected: false, placedHoursAgo: 30, duplicate: false },
      { kind: 'create', subtotalCents: 33_333, selected: true, placedHoursAgo: 100, duplicate: false },
    ],
    hoursLater: 20,
  },
  {
    operations: [
      { kind: 'reprice', pick: 0, subtotalCents: 20_000 },
      { kind: 'protection', pick: 2, selected: true },
      { kind: 'refund', pick: 1, cents: 120 },
      { kind: 'cancel', pick: 3 },
      { kind: 'claim', pick: 1, outcome: 'paid', paidHoursAgo: 1, payoutCents: 2_500 },
      { kind: 'claim', pick: 0, outcome: 'denied', paidHoursAgo: 0, payoutCents: 1 },
      { kind: 'claim', pick: 0, outcome: 'approved', paidHoursAgo: 0, payoutCents: 900 },
    ],
    hoursLater: 300,
  },
  { operations: [{ kind: 'refund', pick: 0, cents: 400 }, { kind: 'reprice', pick: 1, subtotalCents: 100 }, { kind: 'protection', pick: 2, selected: false }], hoursLater: 1 },
];

let storeRun = 0;

type Batch = { operations: Operation[]; hoursLater: number };

/** What a run did: every answer, and how many operations of each kind took effect. */
interface RunResult {
  shop: SeededStore;
  answers: ApiResponse[];
  applied: Record<Operation['kind'] | 'approved' | 'denied' | 'paid', number>;
}

async function run(batches: Batch[]): Promise<RunResult> {
  const shop = await seedStore(service.db); // 1.5 %, minimum 0.98
  await connectStore(service.db, actingFor(TEST_OPERATOR, shop.store), PLATFORM);
  storeRun += 1;
  const orders: string[] = [];
  const answers: ApiResponse[] = [];
  const applied: RunResult['applied'] = { create: 0, reprice: 0, protection: 0, refund: 0, cancel: 0, claim: 0, approved: 0, denied: 0, paid: 0 };
  const took = (kind: keyof RunResult['applied'], answer: ApiResponse) => {
    if (answer.status >= 200 && answer.status < 300) applied[kind] += 1;
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const answer = await call(service.baseUrl, method, path, { key: shop.liveKey, body });
    answers.push(answer);
    return answer;
  };
  const push = async (message: unknown) => {
    const raw = JSON.stringify(message);
    const answer = await call(service.baseUrl, 'POST', `/api/webhooks/${PLATFORM}`, {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(SECRET, raw, Math.floor(service.clock.now().getTime() / 1000)) },
    });
    answers.push(answer);
    return answer;
  };
  let sequence = 0;
  const apply = async (op: Operation): Promise<void> => {
    sequence += 1;
    const target = orders.length === 0 ? undefined : orders[('pick' in op ? op.pick : 0) % orders.length];
    const path = target === undefined ? '' : encodeURIComponent(target);
    switch (op.kind) {
      case 'create': {
        const body = orderBody({
          source_order_id: `totals-${storeRun}-${sequence}`,
          subtotal: op.subtotalCents / 100,
          insurance_selected: op.selected,
          source_created_on: new Date(service.clock.now().getTime() - op.placedHoursAgo * HOUR_MS).toISOString(),
        });
        // A duplicate create races the first: one books, the other's rolled-back write leaves no trace.
        const answered = await Promise.all((op.duplicate ? [1, 2] : [1]).map(() => api('POST', '/v2/orders', body)));
        const created = answered.find((answer) => answer.status === 201);
        if (created !== undefined) {
          took('create', created);
          orders.push(body.source_order_id as string);
        }
        return;
      }
      case 'reprice':
        if (target !== undefined) took('reprice', await api('POST', `/v2/orders/${path}`, { subtotal: op.subtotalCents / 100 }));
        return;
      case 'protection':
        if (target !== undefined) took('protection', await api('POST', `/v2/orders/${path}`, { insurance_selected: op.selected }));
        return;
      case 'refund':
        if (target !== undefined) {
          const pushed = await push({
            merchant: shop.store.slug,
            event: 'refund.created',
            order: { id: target },
            refund: { id: `ref-${storeRun}-${sequence}`, items: [{ sku: 'SHIPPING-PROTECTION', refunded_cents: op.cents }] },
          });
          took('refund', pushed);
        }
        return;
      case 'cancel':
        if (target !== undefined) took('cancel', await api('POST', `/v1/orders/${path}/cancel`));
        return;
      case 'claim': {
        if (target === undefined) return;
        const filed = await api('POST', '/v1/claims', { source_order_id: target, reason: 'damaged' });
        took('claim', filed);
        if (filed.status !== 201 || op.outcome === 'open') return;
        const claimPath = `/v1/claims/${encodeURIComponent(String(filed.body.id))}/status`;
        await api('POST', claimPath, { status: 'in_review' });
        if (op.outcome === 'denied') {
          took('denied', await api('POST', claimPath, { status: 'denied', note: 'Not covered.' }));
          return;
        }
        took('approved', await api('POST', claimPath, { status: 'approved', resolution: { type: 'refund', amount: op.payoutCents / 100 } }));
        if (op.outcome === 'paid') {
          const paidOn = new Date(service.clock.now().getTime() - op.paidHoursAgo * HOUR_MS).toISOString();
          took('paid', await api('POST', claimPath, { status: 'paid', payout: { amount: op.payoutCents / 100, paid_on: paidOn } }));
        }
        return;
      }
    }
  };
  for (const batch of batches) {
    await Promise.all(batch.operations.map(apply));
    // In the order they were sent, not answered, so a history picks the same orders every time.
    orders.sort((a, b) => Number(a.split('-').at(-1)) - Number(b.split('-').at(-1)));
    service.clock.advance(batch.hoursLater * HOUR_MS);
  }
  return { shop, answers, applied };
}

/** The month's figures summed here from the rows, independently of the totals and of the statement code. */
async function monthFromRows(storeId: string, month: string) {
  const [row] = await service.db.$queryRaw<
    Array<{ premiums: number; premium_cents: bigint; repricings: number; repricing_cents: bigint; credits: number; credit_cents: bigint; filed: number; approved: number; denied: number; paid: number; paid_cents: bigint }>
  >`
    WITH bounds AS (SELECT ${`${month}-01`}::timestamptz AS starts, ${`${month}-01`}::timestamptz + interval '1 month' AS ends),
         ledger AS (SELECT e.* FROM premium_ledger_entries e, bounds b WHERE e.store_id = ${storeId}::uuid AND e.effective_at >= b.starts AND e.effective_at < b.ends)
    SELECT (SELECT count(*) FROM ledger WHERE reason = 'booking')::int AS premiums,
           (SELECT COALESCE(sum(amount_cents), 0) FROM ledger WHERE reason = 'booking')::bigint AS premium_cents,
           (SELECT count(*) FROM ledger WHERE reason = 'repricing')::int AS repricings,
           (SELECT COALESCE(sum(amount_cents), 0) FROM ledger WHERE reason = 'repricing')::bigint AS repricing_cents,
           (SELECT count(*) FROM ledger WHERE reason = 'reversal')::int AS credits,
           (SELECT COALESCE(-sum(amount_cents), 0) FROM ledger WHERE reason = 'reversal')::bigint AS credit_cents,
           (SELECT count(*) FROM claims c, bounds b WHERE c.store_id = ${storeId}::uuid AND c.created_on >= b.starts AND c.created_on < b.ends)::int AS filed,
           (SELECT count(*) FROM claim_status_changes h JOIN claims c ON c.id = h.claim_id, bounds b
             WHERE c.store_id = ${storeId}::uuid AND h.to_status = 'approved' AND h.created_at >= b.starts AND h.created_at < b.ends)::int AS approved,
           (SELECT count(*) FROM claim_status_changes h JOIN claims c ON c.id = h.claim_id, bounds b
             WHERE c.store_id = ${storeId}::uuid AND h.to_status = 'denied' AND h.created_at >= b.starts AND h.created_at < b.ends)::int AS denied,
           (SELECT count(*) FROM claims c, bounds b WHERE c.store_id = ${storeId}::uuid AND c.payout_paid_on >= b.starts AND c.payout_paid_on < b.ends)::int AS paid,
           (SELECT COALESCE(sum(payout_amount_cents), 0) FROM claims c, bounds b WHERE c.store_id = ${storeId}::uuid AND c.payout_paid_on >= b.starts AND c.payout_paid_on < b.ends)::bigint AS paid_cents`;
  if (row === undefined) throw new Error('no row');
  const cents = (value: bigint) => Number(value) / 100;
  return {
    premiums: { count: row.premiums, total: cents(row.premium_cents) },
    repricings: { count: row.repricings, total: cents(row.repricing_cents) },
    credits: { count: row.credits, total: cents(row.credit_cents) },
    net: cents(BigInt(row.premium_cents) + BigInt(row.repricing_cents) - BigInt(row.credit_cents)),
    claims: { filed: row.filed, approved: row.approved, denied: row.denied, paid: row.paid, paid_total: cents(row.paid_cents) },
  };
}

/** The months the run could have touched: from 45 days before its first batch to its clock now. */
function monthsOf(from: number, to: number): string[] {
  const months = new Set<string>();
  for (let at = from; at <= to + DAY_MS; at += DAY_MS) months.add(new Date(at).toISOString().slice(0, 7));
  return [...months];
}

describe("a store's daily totals", () => {
  it('equal the rows they sum, whatever is written concurrently, and each month statement equals the rows', async () => {
    const results: RunResult[] = [];
    await fc.assert(
      fc.asyncProperty(history, async (batches) => {
        const startedAt = service.clock.now().getTime();
        const result = await run(batches);
        results.push(result);
        const { shop, answers } = result;
        // Races answer 409 or 422, never a server error.
        expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.body)).toEqual([]);
        expect(await dailyTotalsDrift(service.db, shop.store.id)).toEqual([]);
        for (const month of monthsOf(startedAt - 45 * DAY_MS, service.clock.now().getTime())) {
          const statement = await call(service.baseUrl, 'GET', `/v1/billing/statements?month=${month}`, { key: shop.liveKey });
          expect(statement.status).toBe(200);
          const body = statement.body as Record<string, Record<string, unknown>>;
          const expected = await monthFromRows(shop.store.id, month);
          expect({
            premiums: { count: body.premiums?.count, total: body.premiums?.total },
            repricings: { count: body.repricings?.count, total: body.repricings?.total },
            credits: { count: body.credits?.count, total: body.credits?.total },
            net: body.net_total,
            claims: { filed: body.claims?.filed, approved: body.claims?.approved, denied: body.claims?.denied, paid: body.claims?.paid, paid_total: body.claims?.paid_total },
          }, month).toEqual(expected);
        }
      }),
      { numRuns: 5, examples: [[everyKind]] },
    );
    expect(results).toHaveLength(5);
    // The fixed history did each kind of write (so the property was tested against all of them).
    expect(results[0]?.applied).toEqual({ create: 4, reprice: 2, protection: 2, refund: 2, cancel: 1, claim: 3, approved: 2, denied: 1, paid: 1 });
  });

  it('are spread over slot rows that readers sum, and a rebuild from the rows gives the same days', async () => {
    const { shop } = await run([{ operations: Array.from({ length: 12 }, () => ({ kind: 'create', subtotalCents: 12_500, selected: true, placedHoursAgo: 1, duplicate: false })), hoursLater: 0 }]);
    const totals = () => service.db.storeDailyTotal.findMany({ where: { storeId: shop.store.id } });
    const before = await totals();
    expect(before.reduce((sum, row) => sum + row.orderCount, 0)).toBe(12);
    // 12 orders of 125.00 at 1.5 %: 1.875 rounds half up to 1.88 each, 22.56 in all.
    expect(before.reduce((sum, row) => sum + Number(row.premiumCents), 0)).toBe(12 * 188);
    expect(before.every((row) => row.slot >= 0 && row.slot < 16)).toBe(true);
    await rebuildDailyTotals(service.db, shop.store.id);
    const after = await totals();
    expect(after.map((row) => row.slot)).toEqual(after.map(() => 0));
    expect(after.reduce((sum, row) => sum + row.orderCount, 0)).toBe(12);
    expect(after.reduce((sum, row) => sum + Number(row.premiumCents), 0)).toBe(12 * 188);
    expect(await dailyTotalsDrift(service.db, shop.store.id)).toEqual([]);
  });

  it('are checked: a total moved behind the triggers shows as drift, and a rebuild repairs it', async () => {
    const { shop } = await run([{ operations: [{ kind: 'create', subtotalCents: 20_000, selected: true, placedHoursAgo: 2, duplicate: false }], hoursLater: 0 }]);
    await service.db.$executeRaw`UPDATE store_daily_totals SET premium_cents = premium_cents + 1 WHERE store_id = ${shop.store.id}::uuid`;
    const drift = await dailyTotalsDrift(service.db, shop.store.id);
    expect(drift).toHaveLength(1);
    // 200.00 at 1.5 % is 3.00: the rows say 300 cents, the tampered total 301.
    expect([drift[0]?.kept?.premiumCents, drift[0]?.fromRows?.premiumCents]).toEqual([301n, 300n]);
    await rebuildDailyTotals(service.db, shop.store.id);
    expect(await dailyTotalsDrift(service.db, shop.store.id)).toEqual([]);
  });
});
