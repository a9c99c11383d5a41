// Claims through real HTTP (README, Concepts, "Claims") and the 409 rules they impose on
// cancellations.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaimStatus } from '../server/domain/claims/index.js';
import { call, orderBody, tableCounts } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';
import { systemClock } from '../server/domain/kernel/index.js';
import { decideClaimAsOperator } from './support/service.js';

let service: TestService;
let shop: SeededStore;
let otherShop: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  otherShop = await seedStore(service.db);
});
afterAll(async () => service.close());

const post = (path: string, key: string, body?: unknown) => call(service.baseUrl, 'POST', path, { key, body });
const fields = (response: { body: { errors: Array<{ field: string }> } }) => response.body.errors.map((e) => e.field).sort();

let sequence = 0;
async function protectedOrder(overrides: Record<string, unknown> = {}) {
  const body = orderBody({
    line_items: [
      { source_id: 'li_1', name: 'Desk', price: 50, quantity: 2 },
      { source_id: 'li_2', name: 'Lamp', price: 25, quantity: 1 },
    ],
    ...overrides,
  });
  expect((await post('/v2/orders', shop.liveKey, body)).status).toBe(201);
  const trackingNumber = `ZZCLAIM${Date.now()}${(sequence += 1)}`;
  expect((await post('/v1/shipments', shop.liveKey, { tracking_number: trackingNumber, source_order_id: body.source_order_id, courier_id: 'ups' })).status).toBe(201);
  return { sourceOrderId: body.source_order_id as string, trackingNumber };
}

async function fileClaim(body: Record<string, unknown>, key = shop.liveKey) {
  return post('/v1/claims', key, { reason: 'lost', ...body });
}

describe('POST /v1/claims', () => {
  it('files an open claim on a protected order and its shipment', async () => {
    const { sourceOrderId, trackingNumber } = await protectedOrder();
    const response = await fileClaim({
      source_order_id: sourceOrderId,
      tracking_number: trackingNumber,
      reason: 'damaged',
      description: 'Box crushed',
      items: [{ source_id: 'li_1', quantity: 1 }],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      merchant_id: shop.store.id,
      source_order_id: sourceOrderId,
      tracking_number: trackingNumber,
      reason: 'damaged',
      description: 'Box crushed',
      items: [{ source_id: 'li_1', quantity: 1 }],
      status: 'open',
      channel: 'api',
      photos: [],
      created_on: expect.any(String),
      updated_on: expect.any(String),
      resolved_on: null,
      reference: expect.stringMatching(/^CLM-[2-9A-HJKMNP-Z]{6}$/),
      // One desk of the two ordered, at 50.
      amount_claimed: 50,
      currency: 'USD',
      resolution: null,
      payout: null,
      // The parcel was just registered: no scan yet, not delivered, so damage is outside its window.
      evidence: {
        delivery_status: 'Active',
        last_scan_at: null,
        days_without_scan: 0,
        delivered_at: null,
        within_window: false,
        photos: 0,
        prior_claims: 0,
        address_verdict: null,
      },
      history: [{ from_status: null, to_status: 'open', note: null, changed_on: response.body.created_on, by: { kind: 'api_key', id: expect.any(String), rule: null } }],
    });
    const history = await service.db.claimStatusChange.findMany({ where: { claimId: response.body.id } });
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([[null, 'open']]);
  });

  it('validates the body: every bad field at once, reasons from the list', async () => {
    const response = await post('/v1/claims', shop.liveKey, { reason: 'bored', items: [{ quantity: 0 }] });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['items[0].quantity', 'items[0].source_id', 'reason', 'source_order_id']);
  });

  it('answers 400 for items or a shipment that are not the order\'s, and writes nothing', async () => {
    const { sourceOrderId } = await protectedOrder();
    const other = await protectedOrder();
    const before = await tableCounts(service.db);
    const response = await fileClaim({
      source_order_id: sourceOrderId,
      tracking_number: other.trackingNumber,
      items: [{ source_id: 'li_9', quantity: 1 }, { source_id: 'li_2', quantity: 2 }],
    });
    expect(response.status).toBe(400);
    expect(fields(response)).toEqual(['items[0].source_id', 'items[1].quantity', 'tracking_number']);
    expect(await tableCounts(service.db)).toEqual(before);
  });

  it('keeps one open claim per parcel: a second is 409 naming the first, and one resolved makes room again', async () => {
    const { sourceOrderId, trackingNumber } = await protectedOrder();
    const first = await fileClaim({ source_order_id: sourceOrderId, tracking_number: trackingNumber });
    expect(first.status).toBe(201);
    const [second, third] = await Promise.all([
      fileClaim({ source_order_id: sourceOrderId, tracking_number: trackingNumber, reason: 'damaged' }),
      fileClaim({ source_order_id: sourceOrderId, tracking_number: trackingNumber, reason: 'stolen' }),
    ]);
    expect([second.status, third.status]).toEqual([409, 409]);
    expect(second.body.error).toContain(first.body.id);
    // A claim on the whole order is not a claim on the parcel.
    expect((await fileClaim({ source_order_id: sourceOrderId })).status).toBe(201);
    await service.db.claim.updateMany({ where: { id: first.body.id }, data: { status: 'denied' } });
    expect((await fileClaim({ source_order_id: sourceOrderId, tracking_number: trackingNumber })).status).toBe(201);
  });

  it('answers 422 for an item named twice', async () => {
    const { sourceOrderId } = await protectedOrder();
    const response = await fileClaim({ source_order_id: sourceOrderId, items: [{ source_id: 'li_1', quantity: 1 }, { source_id: 'li_1', quantity: 1 }] });
    expect(response.status).toBe(422);
    expect(fields(response)).toEqual(['items[1].source_id']);
  });

  it("answers 404 for an order that is not in the key's store", async () => {
    expect((await fileClaim({ source_order_id: 'never-created' })).status).toBe(404);
    const { sourceOrderId } = await protectedOrder();
    expect((await fileClaim({ source_order_id: sourceOrderId }, otherShop.liveKey)).status).toBe(404);
  });

  it('answers 409 on a cancelled order and on an order without protection', async () => {
    const cancelled = await protectedOrder();
    expect((await post(`/v1/orders/${cancelled.sourceOrderId}/cancel`, shop.liveKey)).status).toBe(200);
    const onCancelled = await fileClaim({ source_order_id: cancelled.sourceOrderId });
    expect(onCancelled.status).toBe(409);
    expect(onCancelled.body.error).toMatch(/cancelled/);
    const unprotected = await protectedOrder({ insurance_selected: false });
    const onUnprotected = await fileClaim({ source_order_id: unprotected.sourceOrderId });
    expect(onUnprotected.status).toBe(409);
    expect(onUnprotected.body.error).toMatch(/not protected/);
  });

  it('test keys: a test_ claim from the body alone, nothing written; reads answer 404', async () => {
    const before = await tableCounts(service.db);
    const response = await fileClaim({ source_order_id: 'anything' }, shop.testKey);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: expect.stringMatching(/^test_/), status: 'open' });
    expect(await tableCounts(service.db)).toEqual(before);
    const { sourceOrderId } = await protectedOrder();
    const live = await fileClaim({ source_order_id: sourceOrderId });
    expect((await call(service.baseUrl, 'GET', `/v1/claims/${live.body.id}`, { key: shop.testKey })).status).toBe(404);
    expect((await call(service.baseUrl, 'GET', `/v1/claims?source_order_id=${sourceOrderId}`, { key: shop.testKey })).status).toBe(404);
  });
});

describe('reading claims', () => {
  it('reads by id and lists by order, oldest first; other stores see 404', async () => {
    const { sourceOrderId } = await protectedOrder();
    const first = await fileClaim({ source_order_id: sourceOrderId, reason: 'missing_items' });
    const second = await fileClaim({ source_order_id: sourceOrderId, reason: 'other' });
    const read = await call(service.baseUrl, 'GET', `/v1/claims/${first.body.id}`, { key: shop.liveKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(first.body);
    const list = await call(service.baseUrl, 'GET', `/v1/claims?source_order_id=${encodeURIComponent(sourceOrderId)}`, { key: shop.liveKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([first.body.id, second.body.id]);
    expect((await call(service.baseUrl, 'GET', `/v1/claims/${first.body.id}`, { key: otherShop.liveKey })).status).toBe(404);
    expect((await call(service.baseUrl, 'GET', `/v1/claims?source_order_id=${sourceOrderId}`, { key: otherShop.liveKey })).status).toBe(404);
    expect((await call(service.baseUrl, 'GET', '/v1/claims/not-a-uuid', { key: shop.liveKey })).status).toBe(404);
    const missingQuery = await call(service.baseUrl, 'GET', '/v1/claims', { key: shop.liveKey });
    expect(missingQuery.status).toBe(400);
    expect(fields(missingQuery)).toEqual(['reference', 'source_order_id']);
  });
});

describe('open claims block cancellations', () => {
  it('refuses to cancel the order while a claim is open, and allows it once resolved', async () => {
    const { sourceOrderId } = await protectedOrder();
    const claim = await fileClaim({ source_order_id: sourceOrderId });
    const refused = await post(`/v1/orders/${sourceOrderId}/cancel`, shop.liveKey);
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('conflict');
    await decideClaimAsOperator(service.db, claim.body.id, 'denied', systemClock);
    expect((await post(`/v1/orders/${sourceOrderId}/cancel`, shop.liveKey)).status).toBe(200);
  });

  it('refuses to cancel the shipment a claim names, or any shipment under a whole-order claim', async () => {
    const named = await protectedOrder();
    await fileClaim({ source_order_id: named.sourceOrderId, tracking_number: named.trackingNumber });
    expect((await post(`/v1/shipments/${named.trackingNumber}/cancel`, shop.liveKey)).status).toBe(409);

    const whole = await protectedOrder();
    const claim = await fileClaim({ source_order_id: whole.sourceOrderId });
    expect((await post(`/v1/shipments/${whole.trackingNumber}/cancel`, shop.liveKey)).status).toBe(409);
    await decideClaimAsOperator(service.db, claim.body.id, 'closed', systemClock);
    expect((await post(`/v1/shipments/${whole.trackingNumber}/cancel`, shop.liveKey)).status).toBe(200);
  });

  it('lets a shipment go when the open claim is about another shipment', async () => {
    const { sourceOrderId, trackingNumber } = await protectedOrder();
    const second = `ZZCLAIMB${Date.now()}`;
    await post('/v1/shipments', shop.liveKey, { tracking_number: second, source_order_id: sourceOrderId, courier_id: 'ups' });
    await fileClaim({ source_order_id: sourceOrderId, tracking_number: trackingNumber });
    expect((await post(`/v1/shipments/${second}/cancel`, shop.liveKey)).status).toBe(200);
  });

  it('never lets a cancel and a claim both succeed when they race', async () => {
    for (let round = 0; round < 8; round += 1) {
      const { sourceOrderId } = await protectedOrder();
      const [cancel, claim] = await Promise.all([post(`/v1/orders/${sourceOrderId}/cancel`, shop.liveKey), fileClaim({ source_order_id: sourceOrderId })]);
      const outcome = [cancel.status, claim.status];
      expect([[200, 409], [409, 201]]).toContainEqual(outcome);
    }
  });
});

describe('claim statuses', () => {
  async function openClaim() {
    const { sourceOrderId } = await protectedOrder();
    return (await fileClaim({ source_order_id: sourceOrderId })).body.id as string;
  }

  it('walks open -> in_review -> approved -> paid -> closed, recording each step', async () => {
    const id = await openClaim();
    const steps: ClaimStatus[] = ['in_review', 'approved', 'paid', 'closed'];
    for (const status of steps) expect((await decideClaimAsOperator(service.db, id, status, systemClock)).status).toBe(status);
    const claim = await call(service.baseUrl, 'GET', `/v1/claims/${id}`, { key: shop.liveKey });
    expect(claim.body.resolved_on).not.toBeNull();
    const history = await service.db.claimStatusChange.findMany({ where: { claimId: id }, orderBy: { id: 'asc' } });
    expect(history.map((h) => h.toStatus)).toEqual(['open', ...steps]);
  });

  it.each([
    ['open', 'paid'],
    ['denied', 'open'],
    ['closed', 'in_review'],
  ] as const)('refuses %s -> %s', async (from, to) => {
    const id = await openClaim();
    if (from !== 'open') await decideClaimAsOperator(service.db, id, from, systemClock);
    await expect(decideClaimAsOperator(service.db, id, to, systemClock)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('is set by the admin CLI', async () => {
    const id = await openClaim();
    const run = promisify(execFile);
    const { stdout } = await run('node_modules/.bin/tsx', ['server/cli/admin.ts', '--json', 'claim', 'set-status', '--id', id, '--status', 'in_review', '--note', 'photos received'], {
      env: { ...process.env, DATABASE_URL: service.databaseUrl, LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(stdout)).toMatchObject({ claim: { id, status: 'in_review' } });
    const history = await service.db.claimStatusChange.findMany({ where: { claimId: id }, orderBy: { id: 'asc' } });
    expect(history.at(-1)).toMatchObject({ fromStatus: 'open', toStatus: 'in_review', note: 'photos received' });
    const refused = await run('node_modules/.bin/tsx', ['server/cli/admin.ts', 'claim', 'set-status', '--id', id, '--status', 'paid'], {
      env: { ...process.env, DATABASE_URL: service.databaseUrl },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/cannot become paid/) });

    // An approval names its resolution, a payment its payout, in USD.
    const approved = await run('node_modules/.bin/tsx', ['server/cli/admin.ts', '--json', 'claim', 'set-status', '--id', id, '--status', 'approved', '--resolution', 'store_credit', '--amount', '30.50'], {
      env: { ...process.env, DATABASE_URL: service.databaseUrl, LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(approved.stdout)).toMatchObject({ claim: { status: 'approved', resolution: { type: 'store_credit', amount: 30.5, note: null } } });
    const paid = await run('node_modules/.bin/tsx', ['server/cli/admin.ts', '--json', 'claim', 'set-status', '--id', id, '--status', 'paid', '--payout', '30.50', '--payout-reference', 'gc_42'], {
      env: { ...process.env, DATABASE_URL: service.databaseUrl, LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(paid.stdout)).toMatchObject({ claim: { status: 'paid', payout: { amount: 30.5, reference: 'gc_42' } } });
  }, 60_000);
});
