// Claims handling through real HTTP (docs/claims.md): a reference and an amount on every claim, the
// evidence beside it, decisions over the API with their resolution and payout, the store's rules
// deciding with their reasons, the dry run, and the month's claims on the billing statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConflictError, InvalidRequestError, UnprocessableError } from '../sdk/src/index.js';
import { systemScope } from '../server/domain/access/index.js';
import { rerunClaimRules } from '../server/domain/claims/index.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const DAY_MS = 86_400_000;

let service: TestService;
let shop: SeededStore;
let other: SeededStore;

beforeAll(async () => {
  service = await startService();
  // 10% of the covered amount, no minimum: a 200.00 order pays exactly 20.00 of premium.
  shop = await seedStore(service.db, { rateBps: 1000, minPremiumCents: 0 });
  other = await seedStore(service.db);
});
afterAll(async () => service.close());

type Body = Record<string, unknown>;
const api = (method: string, path: string, body?: unknown, key = shop.liveKey, headers: Record<string, string> = {}) =>
  call(service.baseUrl, method, path, { key, body, headers });
const fieldsOf = (response: { body: Body }) => (response.body.errors as Array<{ field: string }>).map((error) => error.field).sort();

let sequence = 0;
/** A protected order of a desk pair (2 x 50.00) and a lamp (100.00), with one parcel registered now. */
async function orderWithParcel(store = shop, email = 'grace@example.com') {
  sequence += 1;
  const body = orderBody({
    subtotal: 200,
    customer_details: { first_name: 'Grace', last_name: 'Hopper', email },
    line_items: [
      { source_id: 'desk', name: 'Desk', price: 50, quantity: 2 },
      { source_id: 'lamp', name: 'Lamp', price: 100, quantity: 1 },
    ],
    source_created_on: service.clock.now().toISOString(),
  });
  expect((await api('POST', '/v2/orders', body, store.liveKey)).status).toBe(201);
  const trackingNumber = `ZZHANDLING${Date.now()}${sequence}`;
  expect((await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'ups' }, store.liveKey)).status).toBe(201);
  return { sourceOrderId: body.source_order_id as string, trackingNumber };
}

async function fileClaim(body: Body, store = shop): Promise<Body> {
  const filed = await api('POST', '/v1/claims', body, store.liveKey);
  expect(filed.status, JSON.stringify(filed.body)).toBe(201);
  return filed.body;
}

describe('a claim carries a reference, its value and its evidence', () => {
  it('values what is claimed: units times unit price, or every covered line for the whole order', async () => {
    const { sourceOrderId, trackingNumber } = await orderWithParcel();
    const oneDesk = await fileClaim({ source_order_id: sourceOrderId, tracking_number: trackingNumber, reason: 'damaged', items: [{ source_id: 'desk', quantity: 1 }] });
    expect([oneDesk.amount_claimed, oneDesk.currency]).toEqual([50, 'USD']);

    const whole = await orderWithParcel();
    const everything = await fileClaim({ source_order_id: whole.sourceOrderId, reason: 'lost' });
    // 2 x 50.00 + 100.00.
    expect(everything.amount_claimed).toBe(200);
    expect(everything.reference).toMatch(/^CLM-[2-9A-HJKMNP-Z]{6}$/);
    expect(everything.reference).not.toBe(oneDesk.reference);
  });

  it('finds a claim by its reference, typed in any case, in its own store only', async () => {
    const { sourceOrderId } = await orderWithParcel();
    const claim = await fileClaim({ source_order_id: sourceOrderId, reason: 'lost' });
    const typed = (claim.reference as string).toLowerCase();
    const found = await api('GET', `/v1/claims?reference=${encodeURIComponent(typed)}`);
    expect([found.status, (found.body.data as Body[]).map((item) => item.id)]).toEqual([200, [claim.id]]);
    const elsewhere = await api('GET', `/v1/claims?reference=${encodeURIComponent(claim.reference as string)}`, undefined, other.liveKey);
    expect([elsewhere.status, elsewhere.body.data]).toEqual([200, []]);
    const both = await api('GET', `/v1/claims?reference=${encodeURIComponent(typed)}&source_order_id=${sourceOrderId}`);
    expect([both.status, (both.body.data as Body[]).map((item) => item.id)]).toEqual([200, [claim.id]]);
    const otherOrder = await orderWithParcel();
    const mismatched = await api('GET', `/v1/claims?reference=${encodeURIComponent(claim.reference as string)}&source_order_id=${otherOrder.sourceOrderId}`);
    expect([mismatched.status, mismatched.body.data]).toEqual([200, []]);
    const neither = await api('GET', '/v1/claims');
    expect([neither.status, fieldsOf(neither)]).toEqual([400, ['reference', 'source_order_id']]);
  });

  it("shows the parcel's silence, the window and the shopper's earlier claims, matched without their email", async () => {
    const email = `repeat-${Date.now()}@example.com`;
    const first = await orderWithParcel(shop, email);
    await fileClaim({ source_order_id: first.sourceOrderId, tracking_number: first.trackingNumber, reason: 'lost' });
    const second = await orderWithParcel(shop, email.toUpperCase());
    const claim = await fileClaim({ source_order_id: second.sourceOrderId, tracking_number: second.trackingNumber, reason: 'lost' });
    expect(claim.evidence).toEqual({
      delivery_status: 'Active',
      last_scan_at: null,
      days_without_scan: 0,
      delivered_at: null,
      // Lost opens after 7 days without a scan; the parcel was registered a moment ago.
      within_window: false,
      photos: 0,
      // The first claim, on the same email in another case (the keyed hash is of the normalised email).
      prior_claims: 1,
      address_verdict: null,
    });
    // Another shopper's claim does not count.
    const stranger = await orderWithParcel(shop, `stranger-${Date.now()}@example.com`);
    expect((await fileClaim({ source_order_id: stranger.sourceOrderId, reason: 'lost' })).evidence).toMatchObject({ prior_claims: 0 });
  });
});

describe('POST /v1/claims/{id}/status', () => {
  it('walks open, in_review, approved with a resolution, paid with a payout, closed; history names each step', async () => {
    const { sourceOrderId } = await orderWithParcel();
    const claim = await fileClaim({ source_order_id: sourceOrderId, reason: 'lost', items: [{ source_id: 'lamp', quantity: 1 }] });
    const path = `/v1/claims/${claim.id as string}/status`;

    expect((await api('POST', path, { status: 'in_review', note: 'Looking into it' })).status).toBe(200);
    const missing = await api('POST', path, { status: 'approved' });
    expect([missing.status, missing.body.error_code, fieldsOf(missing)]).toEqual([400, 'invalid_request', ['resolution']]);
    const tooMuch = await api('POST', path, { status: 'approved', resolution: { type: 'refund', amount: 100.01 } });
    expect([tooMuch.status, tooMuch.body.error_code, fieldsOf(tooMuch)]).toEqual([422, 'unprocessable', ['resolution.amount']]);
    const unknownField = await api('POST', path, { status: 'approved', resolution: { type: 'refund', currency: 'EUR' }, extra: 1 });
    expect([unknownField.status, fieldsOf(unknownField)]).toEqual([400, ['extra', 'resolution.currency']]);

    const approved = await api('POST', path, { status: 'approved', note: 'Lost in transit', resolution: { type: 'refund', amount: 80, note: 'Refund of the lamp, less the bulb' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', resolution: { type: 'refund', amount: 80, note: 'Refund of the lamp, less the bulb' }, payout: null, resolved_on: null });

    const noPayout = await api('POST', path, { status: 'paid' });
    expect([noPayout.status, fieldsOf(noPayout)]).toEqual([400, ['payout']]);
    const overPaid = await api('POST', path, { status: 'paid', payout: { amount: 80.01 } });
    expect([overPaid.status, fieldsOf(overPaid)]).toEqual([422, ['payout.amount']]);
    const paid = await api('POST', path, { status: 'paid', payout: { amount: 80, reference: 're_123' } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', payout: { amount: 80, reference: 're_123' } });
    expect(Date.parse(paid.body.resolved_on as string)).toBeGreaterThan(0);

    const backwards = await api('POST', path, { status: 'in_review' });
    expect([backwards.status, backwards.body.error_code]).toEqual([409, 'conflict']);
    expect(backwards.body.error).toContain('The claim is paid');
    expect((await api('POST', path, { status: 'closed' })).status).toBe(200);

    const read = await api('GET', `/v1/claims/${claim.id as string}`);
    const history = read.body.history as Array<{ from_status: string | null; to_status: string; note: string | null; by: { kind: string } }>;
    expect(history.map((change) => [change.from_status, change.to_status, change.note, change.by.kind])).toEqual([
      [null, 'open', null, 'api_key'],
      ['open', 'in_review', 'Looking into it', 'api_key'],
      ['in_review', 'approved', 'Lost in transit', 'api_key'],
      ['approved', 'paid', null, 'api_key'],
      ['paid', 'closed', null, 'api_key'],
    ]);
    // The events carry the resolution and the payout.
    const events = await service.db.event.findMany({ where: { storeId: shop.store.id, type: 'claim.status_changed' }, orderBy: { seq: 'asc' } });
    const ofClaim = events.map((event) => event.data as Body).filter((data) => data.id === claim.id);
    expect(ofClaim.map((data) => [data.status, (data.resolution as Body | null)?.amount ?? null, (data.payout as Body | null)?.amount ?? null])).toEqual([
      ['in_review', null, null],
      ['approved', 80, null],
      ['paid', 80, 80],
      ['closed', 80, 80],
    ]);
  });

  it('lets one of two decisions made at once win; the other is 409 and the history shows one', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { sourceOrderId } = await orderWithParcel();
      const claim = await fileClaim({ source_order_id: sourceOrderId, reason: 'lost' });
      const path = `/v1/claims/${claim.id as string}/status`;
      const [first, second] = await Promise.all([
        api('POST', path, { status: 'approved', resolution: { type: 'reorder' } }),
        api('POST', path, { status: 'denied', note: 'Delivered per carrier' }),
      ]);
      expect([first.status, second.status].sort(), `round ${round}`).toEqual([200, 409]);
      const decisions = await service.db.claimStatusChange.findMany({ where: { claimId: claim.id as string, fromStatus: 'open' } });
      expect(decisions.length, `round ${round}`).toBe(1);
    }
  });

  it('replays a decision sent again with the same Idempotency-Key, and answers 404 to test keys and other stores', async () => {
    const { sourceOrderId } = await orderWithParcel();
    const claim = await fileClaim({ source_order_id: sourceOrderId, reason: 'lost' });
    const path = `/v1/claims/${claim.id as string}/status`;
    const key = `decide-${claim.id as string}`;
    const once = await api('POST', path, { status: 'denied', note: 'No proof' }, shop.liveKey, { 'Idempotency-Key': key });
    const again = await api('POST', path, { status: 'denied', note: 'No proof' }, shop.liveKey, { 'Idempotency-Key': key });
    expect([once.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(again.text).toBe(once.text);
    expect(await service.db.claimStatusChange.count({ where: { claimId: claim.id as string } })).toBe(2);
    expect((await api('POST', path, { status: 'closed' }, shop.testKey)).status).toBe(404);
    expect((await api('POST', path, { status: 'closed' }, other.liveKey)).status).toBe(404);
  });

  it('gives the SDK typed errors for the same rules', async () => {
    const client = new Client({ apiKey: shop.liveKey, baseUrl: service.baseUrl, maxRetries: 0 });
    const { sourceOrderId } = await orderWithParcel();
    const claim = await client.claims.create({ source_order_id: sourceOrderId, reason: 'lost' });
    await expect(client.claims.setStatus(claim.id, { status: 'approved' })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.claims.setStatus(claim.id, { status: 'approved', resolution: { type: 'store_credit', amount: 250 } })).rejects.toBeInstanceOf(UnprocessableError);
    const approved = await client.claims.setStatus(claim.id, { status: 'approved', resolution: { type: 'store_credit' } });
    expect(approved.resolution).toEqual({ type: 'store_credit', amount: 200, note: null });
    await expect(client.claims.setStatus(claim.id, { status: 'open' })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("the month's claims on the billing statement", () => {
  it('counts claims filed, approved, denied and paid, the payouts, and the loss ratio', async () => {
    const store = await seedStore(service.db, { rateBps: 1000, minPremiumCents: 0 });
    const month = service.clock.now().toISOString().slice(0, 7);
    const paidOne = await orderWithParcel(store);
    const deniedOne = await orderWithParcel(store);
    const toPay = await fileClaim({ source_order_id: paidOne.sourceOrderId, reason: 'lost' }, store);
    const toDeny = await fileClaim({ source_order_id: deniedOne.sourceOrderId, reason: 'lost' }, store);
    const decide = (id: unknown, body: Body) => api('POST', `/v1/claims/${id as string}/status`, body, store.liveKey);
    expect((await decide(toPay.id, { status: 'approved', resolution: { type: 'refund', amount: 15 } })).status).toBe(200);
    expect((await decide(toPay.id, { status: 'paid', payout: { amount: 15 } })).status).toBe(200);
    expect((await decide(toDeny.id, { status: 'denied' })).status).toBe(200);

    const statement = await api('GET', `/v1/billing/statements?month=${month}`, undefined, store.liveKey);
    expect(statement.status).toBe(200);
    // Two orders of 200.00 at 10%: 40.00 of premium. 15.00 paid out of it: 0.375.
    expect(statement.body.net_total).toBe(40);
    expect(statement.body.claims).toEqual({ filed: 2, approved: 1, denied: 1, paid: 1, paid_total: 15 });
    expect(statement.body.loss_ratio).toBe(0.375);
  });
});

describe('claim rules', () => {
  const silentLostRule = {
    name: 'Silent lost parcels',
    enabled: true,
    when: { reasons: ['lost'], delivery_statuses: ['Active'], min_days_without_scan: 5, max_amount: 250 },
    then: { action: 'approve', resolution_type: 'refund', note_to_shopper: 'Your parcel went silent: we refund it.' },
  };

  it('starts with none, refuses a bad list naming every bad field, and keeps each change as a version', async () => {
    const store = await seedStore(service.db);
    expect((await api('GET', '/v1/claim_rules', undefined, store.liveKey)).body).toEqual({ version: 0, rules: [], updated_at: null });
    const bad = await api(
      'PUT',
      '/v1/claim_rules',
      {
        rules: [
          { name: 'a', enabled: true, when: { colour: 'red', max_amount: -1 }, then: { action: 'pay' } },
          { name: 'a', enabled: 'yes', when: {}, then: { action: 'deny', resolution_type: 'refund' } },
        ],
      },
      store.liveKey,
    );
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['rules[0].then.action', 'rules[0].when.colour', 'rules[0].when.max_amount', 'rules[1].enabled', 'rules[1].then.resolution_type']);
    // Names are compared once every rule reads: a repeat is refused on its own.
    const repeated = await api('PUT', '/v1/claim_rules', { rules: [silentLostRule, silentLostRule] }, store.liveKey);
    expect([repeated.status, fieldsOf(repeated)]).toEqual([400, ['rules[1].name']]);
    const tooMany = await api('PUT', '/v1/claim_rules', { rules: Array.from({ length: 51 }, (_, index) => ({ ...silentLostRule, name: `rule ${index}` })) }, store.liveKey);
    expect([tooMany.status, fieldsOf(tooMany)]).toEqual([400, ['rules']]);
    expect((await api('GET', '/v1/claim_rules', undefined, store.liveKey)).body.version).toBe(0);

    const first = await api('PUT', '/v1/claim_rules', { rules: [silentLostRule] }, store.liveKey);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ version: 1, rules: [silentLostRule] });
    const second = await api('PUT', '/v1/claim_rules', { rules: [] }, store.liveKey);
    expect(second.body).toMatchObject({ version: 2, rules: [] });
    expect(await service.db.claimRuleSet.count({ where: { storeId: store.store.id } })).toBe(2);
    expect((await api('GET', '/v1/claim_rules', undefined, store.testKey)).status).toBe(404);
  });

  it('approves a lost claim the day its parcel has been silent long enough, with the rule, its version and the evidence in the history', async () => {
    const store = await seedStore(service.db);
    expect((await api('PUT', '/v1/claim_rules', { rules: [silentLostRule] }, store.liveKey)).body.version).toBe(1);
    const { sourceOrderId, trackingNumber } = await orderWithParcel(store);
    const claim = await fileClaim({ source_order_id: sourceOrderId, tracking_number: trackingNumber, reason: 'lost' }, store);
    // Filed the day the parcel was registered: silent for 0 days, so the rule does not match yet.
    expect(claim.status).toBe('open');

    const scope = systemScope('claim-rules');
    service.clock.advance(4 * DAY_MS + 3600_000);
    expect(await rerunClaimRules(service.db, scope, service.clock, 'all')).toBe(0);
    expect((await api('GET', `/v1/claims/${claim.id as string}`, undefined, store.liveKey)).body).toMatchObject({ status: 'open', evidence: { days_without_scan: 4 } });

    service.clock.advance(DAY_MS);
    expect(await rerunClaimRules(service.db, scope, service.clock, 'all')).toBe(1);
    const decided = await api('GET', `/v1/claims/${claim.id as string}`, undefined, store.liveKey);
    expect(decided.body).toMatchObject({
      status: 'approved',
      // An approval resolves for amount_claimed: the whole order, 200.00.
      resolution: { type: 'refund', amount: 200, note: 'Your parcel went silent: we refund it.' },
    });
    const last = (decided.body.history as Body[]).at(-1);
    expect(last).toMatchObject({
      from_status: 'open',
      to_status: 'approved',
      note: 'Your parcel went silent: we refund it.',
      by: { kind: 'rule', id: null, rule: { name: 'Silent lost parcels', version: 1, evidence: { delivery_status: 'Active', days_without_scan: 5, within_window: false } } },
    });
    // Run again, nothing changes: the claim is no longer open.
    expect(await rerunClaimRules(service.db, scope, service.clock, 'all')).toBe(0);
    const audit = await service.db.auditEvent.findFirst({ where: { subjectId: claim.id as string, action: 'claim.status_changed' } });
    expect(audit).toMatchObject({ actorKind: 'system', actorId: 'claim-rules' });
  });

  it('decides at filing when a rule matches at once, and a disabled rule never decides', async () => {
    const store = await seedStore(service.db);
    const denySmall = { name: 'Deny small', enabled: true, when: { max_amount: 500 }, then: { action: 'deny', note_to_shopper: 'Below our threshold.' } };
    await api('PUT', '/v1/claim_rules', { rules: [{ ...denySmall, enabled: false }] }, store.liveKey);
    const kept = await orderWithParcel(store);
    expect((await fileClaim({ source_order_id: kept.sourceOrderId, reason: 'other' }, store)).status).toBe('open');
    await api('PUT', '/v1/claim_rules', { rules: [denySmall] }, store.liveKey);
    const denied = await orderWithParcel(store);
    const claim = await fileClaim({ source_order_id: denied.sourceOrderId, reason: 'other' }, store);
    expect(claim).toMatchObject({ status: 'denied', history: [{ to_status: 'open' }, { to_status: 'denied', by: { kind: 'rule', rule: { name: 'Deny small', version: 2 } } }] });
    expect(Date.parse(claim.resolved_on as string)).toBeGreaterThan(Date.parse(claim.created_on as string));
  });

  it('dry-runs a list against past claims: counts, amounts, and where a person decided otherwise', async () => {
    const store = await seedStore(service.db);
    const since = service.clock.now().toISOString();
    const a = await orderWithParcel(store);
    const b = await orderWithParcel(store);
    const c = await orderWithParcel(store);
    const lostWhole = await fileClaim({ source_order_id: a.sourceOrderId, reason: 'lost' }, store);
    const lostLamp = await fileClaim({ source_order_id: b.sourceOrderId, reason: 'lost', items: [{ source_id: 'lamp', quantity: 1 }] }, store);
    await fileClaim({ source_order_id: c.sourceOrderId, reason: 'damaged' }, store);
    // A person denied the whole-order claim; the rules below would approve it.
    expect((await api('POST', `/v1/claims/${lostWhole.id as string}/status`, { status: 'denied' }, store.liveKey)).status).toBe(200);
    const before = await service.db.claimStatusChange.count({ where: { claim: { storeId: store.store.id } } });

    const rules = [
      { name: 'Approve lost', enabled: true, when: { reasons: ['lost'] }, then: { action: 'approve' } },
      { name: 'Review the rest', enabled: true, when: {}, then: { action: 'review' } },
    ];
    const run = await api('POST', '/v1/claim_rules/dry_run', { rules, since }, store.liveKey);
    expect(run.status).toBe(200);
    expect(run.body).toEqual({
      considered: 3,
      approve: 2,
      deny: 0,
      review: 1,
      none: 0,
      // 200.00 for the whole order and 100.00 for the lamp.
      amount_approved: 300,
      by_rule: [
        { name: 'Approve lost', approve: 2, deny: 0, review: 0, amount_approved: 300 },
        { name: 'Review the rest', approve: 0, deny: 0, review: 1, amount_approved: 0 },
      ],
      disagreements: [{ claim_id: lostWhole.id, reference: lostWhole.reference, decided: 'denied', rules_would: 'approve', rule: 'Approve lost' }],
    });
    expect(lostLamp.status).toBe('open');
    // Nothing changed.
    expect(await service.db.claimStatusChange.count({ where: { claim: { storeId: store.store.id } } })).toBe(before);
    expect((await api('GET', '/v1/claim_rules', undefined, store.liveKey)).body.version).toBe(0);

    const tooFar = await api('POST', '/v1/claim_rules/dry_run', { rules, since: new Date(service.clock.now().getTime() - 400 * DAY_MS).toISOString() }, store.liveKey);
    expect([tooFar.status, fieldsOf(tooFar)]).toEqual([400, ['since']]);
  });
});
