// The console's pages of a store through real HTTP on PostgreSQL (docs/console.md): the overview
// and its billing figures; orders searched and paged; claims queued, paged and decided; the
// billing statement and its CSV; the developers' webhook endpoints, deliveries, platforms and
// request log. Another store's user sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../contract/console/index.js';
import { listStoreClaims } from '../server/domain/claims/index.js';
import { searchOrders } from '../server/domain/orders/index.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { actingFor, deleteExpiredRequestLog, listRequestLog } from '../server/domain/access/index.js';
import { consoleCall, loggedIn, rival, service, startConsoleApiService, stopConsoleApiService } from './support/console-api.js';
import { call, orderBody } from './support/http.js';
import { seedStore, TEST_OPERATOR, type SeededStore } from './support/service.js';


beforeAll(() => startConsoleApiService());
afterAll(stopConsoleApiService);

describe("the store's pages", () => {
  /** An order placed now through the API, so it counts in this month. */
  async function placeOrder(store: SeededStore, overrides: Record<string, unknown> = {}): Promise<string> {
    const body = orderBody({ source_created_on: new Date().toISOString(), ...overrides });
    const created = await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body });
    expect(created.status).toBe(201);
    return body.source_order_id as string;
  }

  it('overview: the billing statement to the cent, orders, attach rate, open claims, 90 days', async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'viewer');
    const protectedOrder = await placeOrder(store);
    await placeOrder(store);
    await placeOrder(store, { insurance_selected: false });
    expect((await call(service.baseUrl, 'POST', '/v1/claims', { key: store.liveKey, body: { source_order_id: protectedOrder, reason: 'lost' } })).status).toBe(201);
    const month = new Date().toISOString().slice(0, 7);

    const overview = await consoleCall(browser, 'GET', `/console/api/overview?month=${month}`);
    expect(overview.status).toBe(200);
    const statement = await call(service.baseUrl, 'GET', `/v1/billing/statements?month=${month}`, { key: store.liveKey });
    expect(overview.body.statement).toEqual(statement.body);
    // Two protected orders of 125.00 at 1.5 %: 1.88 each.
    expect(statement.body).toMatchObject({ premiums: { count: 2, total: 3.76 } });
    expect(overview.body).toMatchObject({ month, orders: { count: 3, protected: 2, attach_rate: 2 / 3 }, open_claims: 1 });
    const days = overview.body.daily_net_cents as Array<{ day: string; net_cents: number }>;
    expect(days).toHaveLength(90);
    expect(days.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), net_cents: 376 });
    expect(days.slice(0, -1).every((day) => day.net_cents === 0)).toBe(true);
    expect((await consoleCall(browser, 'GET', '/console/api/overview?month=2026-13')).status).toBe(400);
  });

  it('orders: search by id, number and email, page by cursor, and the order page; another store sees none of it', async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'viewer');
    const ids: string[] = [];
    for (let index = 0; index < 26; index += 1) ids.push(await placeOrder(store, { customer_details: { first_name: 'Ada', last_name: 'L', email: index === 3 ? 'Found.Me@Example.com' : `n${index}@example.com` } }));

    const first = await consoleCall(browser, 'GET', '/console/api/orders');
    expect(first.status).toBe(200);
    expect((first.body.data as unknown[]).length).toBe(25);
    const second = await consoleCall(browser, 'GET', `/console/api/orders?cursor=${first.body.next_cursor as string}`);
    expect(second.body.next_cursor).toBeNull();
    const listed = [...(first.body.data as Array<{ source_order_id: string }>), ...(second.body.data as Array<{ source_order_id: string }>)].map((order) => order.source_order_id);
    expect([...listed].sort()).toEqual([...ids].sort());
    expect(listed[0]).toBe(ids.at(-1)); // newest first

    const byEmail = await consoleCall(browser, 'GET', `/console/api/orders?q=${encodeURIComponent(' found.me@example.COM ')}`);
    expect((byEmail.body.data as Array<{ source_order_id: string }>).map((order) => order.source_order_id)).toEqual([ids[3]]);
    const byId = await consoleCall(browser, 'GET', `/console/api/orders?q=${ids[5] as string}`);
    const found = (byId.body.data as Array<{ source_order_id: string; order_number: string; premium_cents: number; has_pii: boolean }>)[0];
    expect(found).toMatchObject({ source_order_id: ids[5], premium_cents: 188, has_pii: true });
    const byNumber = await consoleCall(browser, 'GET', `/console/api/orders?q=${found?.order_number as string}`);
    expect((byNumber.body.data as Array<{ source_order_id: string }>).map((order) => order.source_order_id)).toEqual([ids[5]]);
    expect((await consoleCall(browser, 'GET', '/console/api/orders?cursor=not-a-cursor')).status).toBe(400);

    // The order page: ledger, shipments, claims and refunds.
    const orderId = ids[0] as string;
    expect((await call(service.baseUrl, 'POST', '/v1/shipments', { key: store.liveKey, body: { tracking_number: 'SBXTRANSIT', source_order_id: orderId, courier_id: 'ups' } })).status).toBe(201);
    expect((await call(service.baseUrl, 'PATCH', `/v2/orders/${orderId}`, { key: store.liveKey, body: { subtotal: 200 } })).status).toBe(200);
    const page = await consoleCall(browser, 'GET', `/console/api/orders/${orderId}`);
    expect(page.status).toBe(200);
    expect(page.body.order).toMatchObject({ source_order_id: orderId, paid_to_insure: 3, has_pii: true });
    expect((page.body.ledger as Array<{ reason: string; amount_cents: number }>).map((entry) => [entry.reason, entry.amount_cents])).toEqual([
      ['booking', 188],
      ['repricing', 112],
    ]);
    expect((page.body.shipments as Array<{ tracking_number: string }>).map((shipment) => shipment.tracking_number)).toEqual(['SBXTRANSIT']);
    expect(page.body).toMatchObject({ claims: [], refunds: [] });

    const stranger = await loggedIn(rival, 'owner');
    expect((await consoleCall(stranger.browser, 'GET', `/console/api/orders/${orderId}`)).status).toBe(404);
    expect((await consoleCall(stranger.browser, 'GET', `/console/api/orders?q=${orderId}`)).body.data).toEqual([]);
  });

  it('orders: by placed date, filtered by status, protection and days, searched by number, email, name and claim reference', async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'viewer');
    const place = (number: string, day: string, first: string, last: string, email: string, extra: Record<string, unknown> = {}) =>
      placeOrder(store, { source_order_number: number, source_created_on: `${day}T12:00:00Z`, customer_details: { first_name: first, last_name: last, email }, ...extra });
    // Registered in this order; placed on other days, which the list follows.
    const ada = await place('#1002', '2026-11-03', 'Ada', 'Lovelace', 'ada.lovelace@example.com');
    const grace = await place('#1003', '2026-11-01', 'Grace', 'Hopper', 'grace@navy.example', { insurance_selected: false });
    const alan = await place('#2001', '2026-11-05', 'Alan', 'Turing', 'alan@example.org');
    const edsger = await place('#10025', '2026-11-04', 'Edsger', "O'Dijkstra", 'e_w_d@example.net');
    expect((await call(service.baseUrl, 'POST', `/v1/orders/${alan}/cancel`, { key: store.liveKey, body: {} })).status).toBe(200);
    const ids = async (query: string) => {
      const answer = await consoleCall(browser, 'GET', `/console/api/orders${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return (answer.body.data as Array<{ source_order_id: string }>).map((order) => order.source_order_id);
    };
    // Newest placed first, with the columns a merchant reads.
    expect(await ids('')).toEqual([alan, edsger, ada, grace]);
    const listed = await consoleCall(browser, 'GET', `/console/api/orders?q=${encodeURIComponent('#1002')}&placed_from=2026-11-03&placed_to=2026-11-03`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ source_order_id: ada, source_order_number: '#1002', customer_name: 'Ada Lovelace', placed_on: '2026-11-03T12:00:00.000Z', order_total_cents: null, status: 'created', insurance_selected: true }),
    ]);
    // The number with or without #, by prefix, in any spacing.
    expect(await ids('?q=1002')).toEqual([edsger, ada]);
    expect(await ids(`?q=${encodeURIComponent(' #100 ')}`)).toEqual([edsger, ada, grace]);
    expect(await ids(`?q=${encodeURIComponent('#2001')}`)).toEqual([alan]);
    // Email and name by prefix, any case; LIKE's wildcards are only characters.
    expect(await ids('?q=ADA.LOVE')).toEqual([ada]);
    expect(await ids('?q=grace%40navy')).toEqual([grace]);
    expect(await ids('?q=e_w')).toEqual([edsger]);
    expect(await ids('?q=e%25')).toEqual([]);
    expect(await ids('?q=hopp')).toEqual([grace]);
    expect(await ids(`?q=${encodeURIComponent('alan tu')}`)).toEqual([alan]);
    expect(await ids(`?q=${encodeURIComponent("o'dij")}`)).toEqual([edsger]);
    expect(await ids('?q=a')).toEqual([alan, ada]);
    // A claim reference, however typed.
    const claim = await call(service.baseUrl, 'POST', '/v1/claims', { key: store.liveKey, body: { source_order_id: ada, reason: 'lost' } });
    expect(claim.status, JSON.stringify(claim.body)).toBe(201);
    const reference = claim.body.reference as string;
    expect(await ids(`?q=${encodeURIComponent(` ${reference.toLowerCase().replace('-', '')} `)}`)).toEqual([ada]);
    // Filters, alone and together, with the search.
    expect(await ids('?status=cancelled')).toEqual([alan]);
    expect(await ids('?protection=not_selected')).toEqual([grace]);
    expect(await ids('?protection=selected&status=created')).toEqual([edsger, ada]);
    expect(await ids('?placed_from=2026-11-03&placed_to=2026-11-04')).toEqual([edsger, ada]);
    expect(await ids('?placed_to=2026-11-01')).toEqual([grace]);
    expect(await ids('?q=100&placed_from=2026-11-04')).toEqual([edsger]);
    // Paged one at a time by the domain, no row twice, none skipped.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchOrders(service.db, actingFor(TEST_OPERATOR, store.store), { ...(cursor === undefined ? {} : { cursor }) }, 1);
      seen.push(...page.orders.map((order) => order.sourceOrderId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual([alan, edsger, ada, grace]);
    // Bad filters: every bad field named.
    const bad = await consoleCall(browser, 'GET', '/console/api/orders?status=open&protection=maybe&placed_from=2026-13-01');
    expect(bad.status).toBe(400);
    expect((bad.body.errors as Array<{ field: string }>).map((error) => error.field).sort()).toEqual(['placed_from', 'protection', 'status']);
    const backwards = await consoleCall(browser, 'GET', '/console/api/orders?placed_from=2026-11-05&placed_to=2026-11-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual([{ field: 'placed_to', message: 'must be the same day as placed_from or later' }]);
  });

  it("orders: the shopper's contact for the roles that decide claims, and an owner's erasure through the API's redact", async () => {
    const store = await seedStore(service.db);
    const orderId = await placeOrder(store, { customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+1 555 0100' } });
    const owner = await loggedIn(store, 'owner');
    const admin = await loggedIn(store, 'admin');
    const viewer = await loggedIn(store, 'viewer');
    const contact = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+1 555 0100',
      shipping_address: { street_address1: '1600 Amphitheatre Pkwy', street_address2: null, city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
    };
    for (const browser of [owner.browser, admin.browser]) {
      expect((await consoleCall(browser, 'GET', `/console/api/orders/${orderId}`)).body).toMatchObject({ personal_data: 'kept', contact });
    }
    expect((await consoleCall(viewer.browser, 'GET', `/console/api/orders/${orderId}`)).body).toMatchObject({ personal_data: 'kept', contact: null });
    // On the claim page too.
    const claim = await call(service.baseUrl, 'POST', '/v1/claims', { key: store.liveKey, body: { source_order_id: orderId, reason: 'lost' } });
    const claimId = claim.body.id as string;
    expect((await consoleCall(admin.browser, 'GET', `/console/api/claims/${claimId}`)).body).toMatchObject({ contact });
    expect((await consoleCall(viewer.browser, 'GET', `/console/api/claims/${claimId}`)).body).toMatchObject({ contact: null });

    // Only an owner erases, and not while the claim is open.
    expect((await consoleCall(admin.browser, 'POST', `/console/api/orders/${orderId}/redact`)).status).toBe(403);
    const whileOpen = await consoleCall(owner.browser, 'POST', `/console/api/orders/${orderId}/redact`);
    expect(whileOpen.status).toBe(409);
    expect(whileOpen.body.error_code).toBe('conflict');
    expect((await service.db.order.findFirstOrThrow({ where: { storeId: store.store.id, sourceOrderId: orderId } })).customerEmail).toBe('ada@example.com');
    await consoleCall(admin.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'denied', note: 'Delivered.' });
    const erased = await consoleCall(owner.browser, 'POST', `/console/api/orders/${orderId}/redact`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body).toMatchObject({ personal_data: 'erased', contact: null, order: { has_pii: false, first_name: null } });
    const row = await service.db.order.findFirstOrThrow({ where: { storeId: store.store.id, sourceOrderId: orderId } });
    expect([row.customerEmail, row.customerPhone, row.customerFirstName, row.shippingAddress]).toEqual([null, null, null, null]);
    const audit = await service.db.auditEvent.findFirstOrThrow({ where: { storeId: store.store.id, action: 'order.redacted', subjectId: row.id } });
    expect(audit.actorKind).toBe('console_user');
    // Erased orders fall out of a search by name or email; the number still finds them.
    const search = await consoleCall(owner.browser, 'GET', '/console/api/orders?q=ada');
    expect(search.body.data).toEqual([]);
    const byId = await consoleCall(owner.browser, 'GET', `/console/api/orders?q=${orderId}`);
    expect(byId.body.data).toEqual([expect.objectContaining({ source_order_id: orderId, customer_name: null, has_pii: false })]);
    // Another store's owner erases nothing here.
    const stranger = await loggedIn(rival, 'owner');
    expect((await consoleCall(stranger.browser, 'POST', `/console/api/orders/${orderId}/redact`)).status).toBe(404);
  });

  it('claims: a queue by status, the history, decisions along the allowed transitions only', async () => {
    const store = await seedStore(service.db);
    const admin = await loggedIn(store, 'admin');
    const viewer = await loggedIn(store, 'viewer');
    const orderId = await placeOrder(store);
    const filed = await call(service.baseUrl, 'POST', '/v1/claims', { key: store.liveKey, body: { source_order_id: orderId, reason: 'damaged', description: 'crushed box' } });
    const claimId = filed.body.id as string;

    expect(((await consoleCall(viewer.browser, 'GET', '/console/api/claims?status=open')).body.data as Array<{ id: string }>).map((claim) => claim.id)).toEqual([claimId]);
    expect((await consoleCall(viewer.browser, 'GET', '/console/api/claims?status=paid')).body.data).toEqual([]);
    expect((await consoleCall(viewer.browser, 'GET', '/console/api/claims?status=lost')).status).toBe(400);
    const detail = await consoleCall(viewer.browser, 'GET', `/console/api/claims/${claimId}`);
    expect(detail.body).toMatchObject({ claim: { id: claimId, status: 'open', description: 'crushed box' }, next_statuses: ['in_review', 'approved', 'denied', 'closed'] });

    expect((await consoleCall(viewer.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'approved' })).status).toBe(403);
    // An approval without a resolution is refused, naming the field.
    const bare = await consoleCall(admin.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'approved', note: 'photos match' });
    expect([bare.status, (bare.body.errors as Array<{ field: string }>).map((error) => error.field)]).toEqual([400, ['resolution']]);
    const approved = await consoleCall(admin.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'approved', note: 'photos match', resolution: { type: 'reorder' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      claim: { status: 'approved', resolution: { type: 'reorder', note: null } },
      // Who made each change: the key that filed it (never its secret), the user who decided.
      history: [
        { from_status: null, to_status: 'open', note: null, by: { kind: 'api_key', label: `Live API key ••••${store.liveKey.slice(-4)}` } },
        { from_status: 'open', to_status: 'approved', note: 'photos match', by: { kind: 'console_user', label: admin.email } },
      ],
    });
    const illegal = await consoleCall(admin.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'open' });
    expect(illegal.status).toBe(409);
    expect(illegal.body.error_code).toBe('conflict');
    // The order page shows the decision.
    expect((await consoleCall(viewer.browser, 'GET', `/console/api/orders/${orderId}`)).body.claims).toEqual([expect.objectContaining({ id: claimId, status: 'approved' })]);
    // The audit log names the console user.
    const audit = await service.db.auditEvent.findFirst({ where: { subjectId: claimId, action: 'claim.status_changed' } });
    expect(audit).toMatchObject({ actorKind: 'console_user' });

    const stranger = await loggedIn(rival, 'owner');
    expect((await consoleCall(stranger.browser, 'GET', `/console/api/claims/${claimId}`)).status).toBe(404);
    expect((await consoleCall(stranger.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'paid', payout: { amount: 1 } })).status).toBe(404);
    expect((await consoleCall(stranger.browser, 'GET', '/console/api/claims')).body.data).toEqual([]);
    expect((await service.db.claim.findFirstOrThrow({ where: { id: claimId } })).status).toBe('approved');
  });

  it('pages the claims queue and a search by cursor: no row twice, none skipped, only matches', async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'viewer');
    // Two orders share the number the shopper saw; the third, placed in between, does not.
    const first = await placeOrder(store, { source_order_number: '#1001' });
    const other = await placeOrder(store, { source_order_number: '#2002' });
    const second = await placeOrder(store, { source_order_number: '#1001' });
    const claimIds: string[] = [];
    for (const orderId of [first, other, second]) {
      const filed = await call(service.baseUrl, 'POST', '/v1/claims', { key: store.liveKey, body: { source_order_id: orderId, reason: 'lost' } });
      expect(filed.status).toBe(201);
      claimIds.push(filed.body.id as string);
    }

    // The queue, two at a time, oldest first.
    const page1 = await listStoreClaims(service.db, actingFor(TEST_OPERATOR, store.store), {}, 2, new Date());
    expect(page1.claims.map((claim) => claim.id)).toEqual(claimIds.slice(0, 2));
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await listStoreClaims(service.db, actingFor(TEST_OPERATOR, store.store), { cursor: page1.nextCursor ?? '' }, 2, new Date());
    expect(page2.claims.map((claim) => claim.id)).toEqual(claimIds.slice(2));
    expect(page2.nextCursor).toBeNull();
    // Over HTTP: one page of 25 holds all three; a cursor no page gave is a 400 naming it.
    const whole = await consoleCall(browser, 'GET', '/console/api/claims');
    expect(whole.body).toMatchObject({ next_cursor: null });
    expect((whole.body.data as Array<{ id: string }>).map((claim) => claim.id)).toEqual(claimIds);
    const junk = await consoleCall(browser, 'GET', '/console/api/claims?cursor=bm90LWEtY3Vyc29y');
    expect(junk.status).toBe(400);
    expect(junk.body.errors).toEqual([{ field: 'cursor', message: 'must be a next_cursor of an earlier page' }]);

    // A search by number, one at a time, newest first: the next page holds the older match only.
    const byNumber1 = await searchOrders(service.db, actingFor(TEST_OPERATOR, store.store), { q: '#1001' }, 1);
    expect(byNumber1.orders.map((order) => order.sourceOrderId)).toEqual([second]);
    const byNumber2 = await searchOrders(service.db, actingFor(TEST_OPERATOR, store.store), { q: '#1001', cursor: byNumber1.nextCursor ?? '' }, 1);
    expect(byNumber2.orders.map((order) => order.sourceOrderId)).toEqual([first]);
    expect(byNumber2.nextCursor).toBeNull();

    // By the shopper's email (all three orders are Ada's), one at a time, newest first. The middle
    // page must know a page follows it: only a page read after the cursor in SQL can tell.
    const byEmail1 = await searchOrders(service.db, actingFor(TEST_OPERATOR, store.store), { q: ' ADA@example.com ' }, 1);
    expect(byEmail1.orders.map((order) => order.sourceOrderId)).toEqual([second]);
    const byEmail2 = await searchOrders(service.db, actingFor(TEST_OPERATOR, store.store), { q: 'ada@example.com', cursor: byEmail1.nextCursor ?? '' }, 1);
    expect(byEmail2.orders.map((order) => order.sourceOrderId)).toEqual([other]);
    expect(byEmail2.nextCursor).not.toBeNull();
    const byEmail3 = await searchOrders(service.db, actingFor(TEST_OPERATOR, store.store), { q: 'ada@example.com', cursor: byEmail2.nextCursor ?? '' }, 1);
    expect(byEmail3.orders.map((order) => order.sourceOrderId)).toEqual([first]);
    expect(byEmail3.nextCursor).toBeNull();
    expect((await searchOrders(service.db, actingFor(TEST_OPERATOR, store.store), { q: 'grace@example.com' }, 2)).orders).toEqual([]);
  });

  it('billing: the statement as the API answers it, and its ledger entries as CSV', async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'viewer');
    await placeOrder(store, { source_order_id: 'needs "quotes", here' });
    await placeOrder(store);
    const month = new Date().toISOString().slice(0, 7);
    const statement = await consoleCall(browser, 'GET', `/console/api/billing/statements/${month}`);
    expect(statement.body).toEqual((await call(service.baseUrl, 'GET', `/v1/billing/statements?month=${month}`, { key: store.liveKey })).body);

    const csv = await fetch(`${service.baseUrl}/console/api/billing/statements/${month}/csv`, { headers: { cookie: `${SESSION_COOKIE}=${browser.cookie as string}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="statement-${month}.csv"`);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('effective_at,source_order_id,reason,amount_cents');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^[^,]+,"needs ""quotes"", here",booking,188$/);
    expect(lines.slice(1).reduce((sum, line) => sum + Number(line.split(',').at(-1)), 0)).toBe(376);
    expect((await consoleCall(browser, 'GET', '/console/api/billing/statements/2026-1')).status).toBe(400);
  });
});

describe('developers', () => {
  it("lists the store's webhook endpoints, their deliveries and its platforms; another store sees none", async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'admin');
    const endpoint = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: 'https://hooks.example.com/op', events: ['order.created'] } });
    expect(endpoint.status).toBe(201);
    await createPlatform(service.db, TEST_OPERATOR, `devplat${Date.now()}`, 'developers-platform-secret-0123456789');
    const platform = (await service.db.platform.findFirstOrThrow({ orderBy: { createdAt: 'desc' } })).slug;
    await connectStore(service.db, actingFor(TEST_OPERATOR, store.store), platform);

    const listed = await consoleCall(browser, 'GET', '/console/api/webhook_endpoints');
    expect(listed.body.data).toEqual([expect.objectContaining({ id: endpoint.body.id, url: 'https://hooks.example.com/op', events: ['order.created'] })]);
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.body.secret as string);
    const deliveries = await consoleCall(browser, 'GET', `/console/api/webhook_endpoints/${endpoint.body.id as string}/deliveries`);
    expect(deliveries.body).toEqual({ data: [], has_more: false });

    // 21 orders, 21 deliveries: a page of 20, newest first, then the one before them.
    for (let n = 0; n < 21; n += 1) expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body: orderBody() })).status).toBe(201);
    const deliveriesPath = `/console/api/webhook_endpoints/${endpoint.body.id as string}/deliveries`;
    const first = await consoleCall(browser, 'GET', deliveriesPath);
    const firstIds = (first.body.data as Array<{ id: string }>).map((delivery) => delivery.id);
    expect(firstIds).toHaveLength(20);
    expect(first.body.has_more).toBe(true);
    const second = await consoleCall(browser, 'GET', `${deliveriesPath}?starting_after=${firstIds.at(-1) ?? ''}`);
    expect(second.body.has_more).toBe(false);
    const secondIds = (second.body.data as Array<{ id: string }>).map((delivery) => delivery.id);
    expect(secondIds).toHaveLength(1);
    expect(firstIds).not.toContain(secondIds[0]);
    const stored = await service.db.webhookDelivery.findMany({ where: { endpointId: endpoint.body.id as string }, orderBy: { seq: 'desc' }, select: { id: true } });
    expect([...firstIds, ...secondIds]).toEqual(stored.map((delivery) => delivery.id));
    expect((await consoleCall(browser, 'GET', `${deliveriesPath}?starting_after=wd_nothing`)).status).toBe(400);
    expect((await consoleCall(browser, 'GET', '/console/api/platforms')).body.data).toEqual([expect.objectContaining({ slug: platform, webhook_path: `/api/webhooks/${platform}` })]);

    const stranger = await loggedIn(rival, 'owner');
    expect((await consoleCall(stranger.browser, 'GET', `/console/api/webhook_endpoints/${endpoint.body.id as string}/deliveries`)).status).toBe(404);
    expect((await consoleCall(stranger.browser, 'GET', '/console/api/webhook_endpoints')).body.data).toEqual([]);
    expect((await consoleCall(stranger.browser, 'GET', '/console/api/platforms')).body.data).toEqual([]);
  });

  it("shows the last day's requests of the store's keys: method, path, status, request id, nothing else", async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'admin');
    const body = orderBody({ customer_details: { first_name: 'Quentin', last_name: 'Logless', email: 'quentin@example.com' } });
    const created = await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body, headers: { 'x-request-id': 'req-log-1' } });
    expect(created.status).toBe(201);
    expect((await call(service.baseUrl, 'GET', '/v2/orders/absent?expand=secret-query', { key: store.liveKey })).status).toBe(404);
    await service.requestLog.flush();

    const log = await consoleCall(browser, 'GET', '/console/api/request_log');
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([
      expect.objectContaining({ mode: 'live', method: 'GET', path: '/v2/orders/absent', status: 404 }),
      expect.objectContaining({ mode: 'live', method: 'POST', path: '/v2/orders', status: 201, request_id: 'req-log-1' }),
    ]);
    for (const value of ['Quentin', 'quentin@example.com', 'secret-query', store.liveKey]) expect(JSON.stringify(log.body)).not.toContain(value);
    const stranger = await loggedIn(rival, 'owner');
    expect((await consoleCall(stranger.browser, 'GET', '/console/api/request_log')).body.data).toEqual([]);
    // A day later, the lines are past their retention: not shown. Their day is dropped once all of
    // it is a day old (by the day after tomorrow, whatever the time now).
    const dayLater = new Date(Date.now() + 25 * 3600 * 1000);
    expect((await listRequestLog(service.db, actingFor(TEST_OPERATOR, store.store), dayLater, { limit: 10 })).lines).toEqual([]);
    expect(await deleteExpiredRequestLog(service.db, new Date(Date.now() + 49 * 3600 * 1000))).toBeGreaterThanOrEqual(2);
    expect(await service.db.requestLogEntry.count({ where: { storeId: store.store.id } })).toBe(0);
  });
});
