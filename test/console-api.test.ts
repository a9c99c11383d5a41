// The console's API through real HTTP on PostgreSQL (docs/console.md): a user made by the operator's
// CLI sets a password through the one-time link; the session cookie and its CSRF token; keys made,
// used on the merchant API and revoked from the console; roles; another store's user; login
// throttling with one generic answer; logout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleContract, CSRF_HEADER, SESSION_COOKIE } from '../contract/console/index.js';
import sharp from 'sharp';
import { createClaim, listStoreClaims } from '../server/domain/claims/claims.js';
import { uploadClaimPhoto } from '../server/domain/claims/claim-photos.js';
import { postgresPhotoStore } from '../server/domain/claims/photo-store.js';
import { createMerchantUser } from '../server/domain/access/merchant-users.js';
import { searchOrders } from '../server/domain/orders/order-search.js';
import { connectStore, createPlatform } from '../server/domain/platforms/platforms.js';
import { deleteExpiredRequestLog, listRequestLog } from '../server/domain/access/request-log.js';
import { LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ACCOUNT_AND_IP, LOGIN_FAILURES_PER_IP, LOGIN_WINDOW_SECONDS } from '../server/routes/console/session.js';
import { runAdmin } from './support/admin-cli.js';
import { call, orderBody } from './support/http.js';
import { seedStore, startService, TEST_OPERATOR, type SeededStore, type TestService } from './support/service.js';

let service: TestService;
let shop: SeededStore;
let rival: SeededStore;

beforeAll(async () => {
  service = await startService();
  shop = await seedStore(service.db);
  rival = await seedStore(service.db);
});
afterAll(async () => service?.close());

interface Browser {
  cookie: string | undefined;
  csrf: string | undefined;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  setCookie: string[];
  headers: Headers;
}

/** A request as the console's page makes it: same origin, the session cookie, the CSRF token on changes. */
async function consoleCall(browser: Browser, method: string, path: string, body?: unknown, options: { csrf?: string | null; origin?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { origin: options.origin ?? service.baseUrl };
  if (browser.cookie !== undefined) headers.cookie = `${SESSION_COOKIE}=${browser.cookie}`;
  const csrf = options.csrf === undefined ? browser.csrf : options.csrf;
  if (csrf !== null && csrf !== undefined && method !== 'GET') headers[CSRF_HEADER] = csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${service.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  const setCookie = response.headers.getSetCookie();
  for (const line of setCookie) {
    const match = new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(line);
    if (match) browser.cookie = match[1] === '' ? undefined : match[1];
  }
  const parsed = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  if (typeof parsed.csrf_token === 'string') browser.csrf = parsed.csrf_token;
  return { status: response.status, body: parsed, setCookie, headers: response.headers };
}

const newBrowser = (): Browser => ({ cookie: undefined, csrf: undefined });

/** A user of the store with a chosen password, logged in. */
async function loggedIn(store: SeededStore, role: 'owner' | 'admin' | 'viewer'): Promise<{ browser: Browser; email: string }> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@${store.store.slug}.example`;
  const { setupPath } = await createMerchantUser(service.db, TEST_OPERATOR, { storeId: store.store.id, email, role }, new Date());
  const browser = newBrowser();
  const token = new URL(setupPath, 'http://x').searchParams.get('token');
  expect((await consoleCall(browser, 'POST', '/console/api/setup', { token, password: 'correct horse battery' })).status).toBe(200);
  return { browser, email };
}

describe('the first owner', () => {
  it('is created by the CLI with a one-time setup link, where the password is chosen', async () => {
    const email = `Owner.${Date.now()}@Example.com`;
    const created = await runAdmin(service.databaseUrl, '--json', 'user', 'create', '--merchant', shop.store.slug, '--email', email, '--role', 'owner');
    expect(created.code).toBe(0);
    const printed = JSON.parse(created.stdout) as { user: { email: string; role: string }; setup_url: string };
    expect(printed.user).toMatchObject({ email: email.toLowerCase(), role: 'owner' });
    const setupUrl = new URL(printed.setup_url);
    expect(setupUrl.pathname).toBe('/console/setup');
    const token = setupUrl.searchParams.get('token') as string;
    // Only the token's hash is stored.
    expect(JSON.stringify(await service.db.userSetupToken.findMany())).not.toContain(token);

    const browser = newBrowser();
    const short = await consoleCall(browser, 'POST', '/console/api/setup', { token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([expect.objectContaining({ field: 'password' })]);
    const wrong = await consoleCall(browser, 'POST', '/console/api/setup', { token: `${token}x`, password: 'a long enough password' });
    expect(wrong.status).toBe(404);

    const setUp = await consoleCall(browser, 'POST', '/console/api/setup', { token, password: 'a long enough password' });
    expect(setUp.status).toBe(200);
    expect(setUp.body).toMatchObject({ user: { email: email.toLowerCase(), role: 'owner' }, store: { id: shop.store.id, slug: shop.store.slug } });
    // The cookie: HttpOnly, SameSite=Lax, scoped to /console; not Secure on localhost only.
    const cookie = setUp.setCookie.find((line) => line.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/console/);
    expect(cookie).not.toMatch(/; Secure/);
    // Sessions are stored as hashes too.
    expect(JSON.stringify(await service.db.consoleSession.findMany())).not.toContain(browser.cookie);

    // The link works once.
    expect((await consoleCall(newBrowser(), 'POST', '/console/api/setup', { token, password: 'another long password' })).status).toBe(404);
    expect((await consoleCall(browser, 'GET', '/console/api/session')).status).toBe(200);
  });

  it('answers a bad CLI call with exit 2, and an email taken with exit 1', async () => {
    const bad = await runAdmin(service.databaseUrl, '--json', 'user', 'create', '--merchant', shop.store.slug, '--email', 'not-an-email', '--role', 'boss');
    expect(bad.code).toBe(2);
    expect((JSON.parse(bad.stdout) as { errors: Array<{ field: string }> }).errors.map((error) => error.field).sort()).toEqual(['--email', '--role']);
    const email = `twice-${Date.now()}@example.com`;
    expect((await runAdmin(service.databaseUrl, 'user', 'create', '--merchant', shop.store.slug, '--email', email, '--role', 'viewer')).code).toBe(0);
    const again = await runAdmin(service.databaseUrl, '--json', 'user', 'create', '--merchant', rival.store.slug, '--email', email.toUpperCase(), '--role', 'viewer');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error_code).toBe('conflict');
  });
});

describe('keys from the console', () => {
  it('creates a key shown once, which the API takes; revokes it, which the API then refuses', async () => {
    const { browser } = await loggedIn(shop, 'admin');
    const created = await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'live' });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^ak_live_/);
    expect(created.body).toMatchObject({ mode: 'live', last4: secret.slice(-4), last_used_at: null, revoked_at: null });

    expect((await call(service.baseUrl, 'GET', '/v2/orders/none-such', { key: secret })).status).toBe(404);
    // Its use is recorded, to the minute, and the list never holds a secret.
    await expect
      .poll(async () => ((await consoleCall(browser, 'GET', '/console/api/keys')).body.data as Array<{ id: string; last_used_at: string | null }>).find((key) => key.id === created.body.id)?.last_used_at ?? null)
      .toMatch(/:00\.000Z$/);
    const listed = await consoleCall(browser, 'GET', '/console/api/keys');
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const revoked = await consoleCall(browser, 'POST', `/console/api/keys/${created.body.id as string}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect((await call(service.baseUrl, 'GET', '/v2/orders/none-such', { key: secret })).status).toBe(401);
  });

  it('refuses a change without the CSRF token or from another origin, a viewer, and another store', async () => {
    const { browser } = await loggedIn(shop, 'owner');
    expect((await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'test' }, { csrf: null })).status).toBe(403);
    expect((await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'test' }, { csrf: 'forged' })).status).toBe(403);
    expect((await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'test' }, { origin: 'https://evil.example' })).status).toBe(403);
    const mine = await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'test' });
    expect(mine.status).toBe(201);
    const bad = await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'sandbox' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'mode', message: 'must be live or test' }]);

    const viewer = await loggedIn(shop, 'viewer');
    expect((await consoleCall(viewer.browser, 'GET', '/console/api/keys')).status).toBe(200);
    const refused = await consoleCall(viewer.browser, 'POST', '/console/api/keys', { mode: 'test' });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe('forbidden');

    const stranger = await loggedIn(rival, 'owner');
    const theirs = await consoleCall(stranger.browser, 'POST', `/console/api/keys/${mine.body.id as string}/revoke`);
    expect(theirs.status).toBe(404);
    expect(((await consoleCall(stranger.browser, 'GET', '/console/api/keys')).body.data as Array<{ id: string }>).map((key) => key.id)).not.toContain(mine.body.id);
    expect((await service.db.apiKey.findUniqueOrThrow({ where: { id: mine.body.id as string } })).revokedAt).toBeNull();
  });
});

describe('login and logout', () => {
  it('logs in with email and password, rotates the session, and logs out for good', async () => {
    const { browser, email } = await loggedIn(shop, 'viewer');
    const before = browser.cookie;
    const again = await consoleCall(browser, 'POST', '/console/api/session', { email: email.toUpperCase(), password: 'correct horse battery' });
    expect(again.status).toBe(200);
    expect(browser.cookie).not.toBe(before);
    // The replaced session is gone.
    expect((await consoleCall({ cookie: before, csrf: undefined }, 'GET', '/console/api/session')).status).toBe(401);

    const old = { ...browser };
    expect((await consoleCall(browser, 'DELETE', '/console/api/session')).status).toBe(200);
    expect(browser.cookie).toBeUndefined();
    expect((await consoleCall(old, 'GET', '/console/api/session')).status).toBe(401);
  });

  it('answers a wrong password and an unknown email alike, and throttles an account from one address, with Retry-After', async () => {
    const { email } = await loggedIn(shop, 'viewer');
    const wrong = await consoleCall(newBrowser(), 'POST', '/console/api/session', { email, password: 'not the password' });
    const unknown = await consoleCall(newBrowser(), 'POST', '/console/api/session', { email: `nobody-${email}`, password: 'not the password' });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body);

    for (let attempt = 1; attempt < LOGIN_FAILURES_PER_ACCOUNT_AND_IP; attempt += 1) {
      expect((await consoleCall(newBrowser(), 'POST', '/console/api/session', { email, password: `guess ${attempt}` })).status).toBe(401);
    }
    // This address has used its allowance for the account: even the right password waits, and is told how long.
    const throttled = await consoleCall(newBrowser(), 'POST', '/console/api/session', { email, password: 'correct horse battery' });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error_code).toBe('rate_limited');
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(LOGIN_WINDOW_SECONDS - 60);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_SECONDS);
  });

  it('never locks the rightful user out: a guesser elsewhere slows only itself, until the account ceiling', async () => {
    // Its own service behind one proxy, so that X-Forwarded-For names each request's address.
    const proxied = await startService({ databaseUrl: service.databaseUrl, trustedProxies: 1 });
    try {
      const { email } = await loggedIn(shop, 'viewer');
      const login = (ip: string, password: string) =>
        fetch(`${proxied.baseUrl}/console/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: proxied.baseUrl, 'x-forwarded-for': ip },
          body: JSON.stringify({ email, password }),
        });
      // The guesser's address is slowed after its allowance.
      for (let attempt = 0; attempt < LOGIN_FAILURES_PER_ACCOUNT_AND_IP; attempt += 1) expect((await login('198.51.100.9', `guess ${attempt}`)).status).toBe(401);
      const slowed = await login('198.51.100.9', 'correct horse battery');
      expect(slowed.status).toBe(429);
      expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
      // The merchant, from their own address, logs in at once.
      expect((await login('203.0.113.5', 'correct horse battery')).status).toBe(200);

      // A guesser spread over many addresses reaches the account's ceiling, ten times higher.
      expect(LOGIN_FAILURES_PER_ACCOUNT).toBe(10 * LOGIN_FAILURES_PER_ACCOUNT_AND_IP);
      for (let attempt = 0; attempt < LOGIN_FAILURES_PER_ACCOUNT; attempt += 1) {
        expect((await login(`198.51.${101 + Math.floor(attempt / 5)}.${attempt % 5}`, `spread ${attempt}`)).status).toBe(401);
      }
      const ceiling = await login('203.0.113.5', 'correct horse battery');
      expect(ceiling.status).toBe(429);
      expect(ceiling.headers.get('retry-after')).not.toBeNull();
    } finally {
      await proxied.close();
    }
  }, 60_000);

  it('throttles an IP that fails across many accounts', async () => {
    // Its own service, so the address's failures are counted from zero and spare the other tests.
    const alone = await startService();
    try {
      const attempt = (index: number) =>
        fetch(`${alone.baseUrl}/console/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: alone.baseUrl },
          body: JSON.stringify({ email: `guess-${index}@example.com`, password: 'wrong' }),
        });
      for (let index = 0; index < LOGIN_FAILURES_PER_IP; index += 1) expect((await attempt(index)).status).toBe(401);
      const refused = await attempt(LOGIN_FAILURES_PER_IP);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error_code: string }).error_code).toBe('rate_limited');
    } finally {
      await alone.close();
    }
  });

  it('answers 401 to every console route without a session', async () => {
    for (const [method, path] of [
      ['GET', '/console/api/session'],
      ['DELETE', '/console/api/session'],
      ['GET', '/console/api/keys'],
      ['POST', '/console/api/keys'],
    ] as const) {
      const answer = await consoleCall(newBrowser(), method, path, method === 'POST' ? { mode: 'live' } : undefined);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body.error_code).toBe('unauthorized');
    }
  });
});

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
    const approved = await consoleCall(admin.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'approved', note: 'photos match' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      claim: { status: 'approved' },
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
    expect((await consoleCall(stranger.browser, 'POST', `/console/api/claims/${claimId}/status`, { status: 'paid' })).status).toBe(404);
    expect((await consoleCall(stranger.browser, 'GET', '/console/api/claims')).body.data).toEqual([]);
    expect((await service.db.claim.findUniqueOrThrow({ where: { id: claimId } })).status).toBe('approved');
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
    const page1 = await listStoreClaims(service.db, store.store.id, {}, 2);
    expect(page1.claims.map((claim) => claim.id)).toEqual(claimIds.slice(0, 2));
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await listStoreClaims(service.db, store.store.id, { cursor: page1.nextCursor ?? '' }, 2);
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
    const byNumber1 = await searchOrders(service.db, store.store.id, { q: '#1001' }, 1);
    expect(byNumber1.orders.map((order) => order.sourceOrderId)).toEqual([second]);
    const byNumber2 = await searchOrders(service.db, store.store.id, { q: '#1001', cursor: byNumber1.nextCursor ?? '' }, 1);
    expect(byNumber2.orders.map((order) => order.sourceOrderId)).toEqual([first]);
    expect(byNumber2.nextCursor).toBeNull();

    // By the shopper's email (all three orders are Ada's), one at a time, newest first. The middle
    // page must know a page follows it: only a page read after the cursor in SQL can tell.
    const byEmail1 = await searchOrders(service.db, store.store.id, { q: ' ADA@example.com ' }, 1);
    expect(byEmail1.orders.map((order) => order.sourceOrderId)).toEqual([second]);
    const byEmail2 = await searchOrders(service.db, store.store.id, { q: 'ada@example.com', cursor: byEmail1.nextCursor ?? '' }, 1);
    expect(byEmail2.orders.map((order) => order.sourceOrderId)).toEqual([other]);
    expect(byEmail2.nextCursor).not.toBeNull();
    const byEmail3 = await searchOrders(service.db, store.store.id, { q: 'ada@example.com', cursor: byEmail2.nextCursor ?? '' }, 1);
    expect(byEmail3.orders.map((order) => order.sourceOrderId)).toEqual([first]);
    expect(byEmail3.nextCursor).toBeNull();
    expect((await searchOrders(service.db, store.store.id, { q: 'grace@example.com' }, 2)).orders).toEqual([]);
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

describe('shipments, settings, users and passwords', () => {
  it('shipments: the timeline, and setting the carrier of one whose carrier is unknown', async () => {
    const store = await seedStore(service.db);
    const admin = await loggedIn(store, 'admin');
    const body = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body })).status).toBe(201);
    const created = await call(service.baseUrl, 'POST', '/v1/shipments', { key: store.liveKey, body: { tracking_number: 'SBXMYSTERY42', source_order_id: body.source_order_id } });
    expect(created.status).toBe(201);
    expect(created.body.courier).toBe('unknown');

    const page = await consoleCall(admin.browser, 'GET', '/console/api/shipments/SBXMYSTERY42');
    expect(page.body).toMatchObject({
      shipment: { tracking_number: 'SBXMYSTERY42', courier: 'unknown', checkpoints: expect.any(Array), merchant_messages: expect.any(Array) },
      order: { source_order_id: body.source_order_id, source_order_number: expect.any(String), order_number: expect.stringMatching(/^OP-\d+$/) },
    });
    const bad = await consoleCall(admin.browser, 'POST', '/console/api/shipments/SBXMYSTERY42/carrier', { courier_id: 'owl-post' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'courier_id' })]);
    const set = await consoleCall(admin.browser, 'POST', '/console/api/shipments/SBXMYSTERY42/carrier', { courier_id: 'fedex' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ shipment: { courier: 'fedex' }, order: { source_order_id: body.source_order_id } });
    expect((await call(service.baseUrl, 'GET', '/v1/shipments/SBXMYSTERY42', { key: store.liveKey })).body.courier).toBe('fedex');

    const viewer = await loggedIn(store, 'viewer');
    expect((await consoleCall(viewer.browser, 'POST', '/console/api/shipments/SBXMYSTERY42/carrier', { courier_id: 'ups' })).status).toBe(403);
    const stranger = await loggedIn(rival, 'owner');
    expect((await consoleCall(stranger.browser, 'GET', '/console/api/shipments/SBXMYSTERY42')).status).toBe(404);
    expect((await consoleCall(stranger.browser, 'POST', '/console/api/shipments/SBXMYSTERY42/carrier', { courier_id: 'ups' })).status).toBe(404);
  });

  it('settings: declarations changed by an admin, pricing read only, users managed by an owner only', async () => {
    const store = await seedStore(service.db);
    const owner = await loggedIn(store, 'owner');
    const admin = await loggedIn(store, 'admin');
    const settings = await consoleCall(admin.browser, 'GET', '/console/api/settings');
    expect(settings.body).toMatchObject({ store: { slug: store.store.slug }, pricing: { rate_bps: 150, min_premium_cents: 98 }, quote_origin: 'backend', client_profile: 'standard', personal_data_retention_days: 730 });
    const changed = await consoleCall(admin.browser, 'PATCH', '/console/api/settings', { protection_skus: ['MY-PROTECT'], quote_origin: 'browser' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ protection_skus: ['MY-PROTECT'], quote_origin: 'browser' });
    // Pricing is the operator's: a body that tries is refused field by field or ignored, never applied.
    expect((await consoleCall(admin.browser, 'PATCH', '/console/api/settings', { quote_origin: 'elsewhere' })).body.errors).toEqual([{ field: 'quote_origin', message: 'must be backend or browser' }]);
    await consoleCall(admin.browser, 'PATCH', '/console/api/settings', { rate_bps: 1 });
    expect((await service.db.store.findUniqueOrThrow({ where: { id: store.store.id } })).rateBps).toBe(150);

    expect((await consoleCall(admin.browser, 'GET', '/console/api/users')).status).toBe(403);
    const invited = await consoleCall(owner.browser, 'POST', '/console/api/users', { email: `new-${Date.now()}@example.com`, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body.setup_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/setup\?token=/);
    expect(invited.body.user).toMatchObject({ role: 'viewer', password_set: false });
    const users = await consoleCall(owner.browser, 'GET', '/console/api/users');
    expect((users.body.data as unknown[]).length).toBe(3);

    // Disabling a user ends their sessions at once; an owner cannot disable themself.
    const adminId = ((users.body.data as Array<{ id: string; role: string }>).find((user) => user.role === 'admin') as { id: string }).id;
    const disabled = await consoleCall(owner.browser, 'POST', `/console/api/users/${adminId}/disable`);
    expect(disabled.body.disabled_at).toEqual(expect.any(String));
    expect((await consoleCall(admin.browser, 'GET', '/console/api/settings')).status).toBe(401);
    const self = (await consoleCall(owner.browser, 'GET', '/console/api/session')).body.user as { id: string };
    expect((await consoleCall(owner.browser, 'POST', `/console/api/users/${self.id}/disable`)).status).toBe(409);
    const stranger = await loggedIn(rival, 'owner');
    expect((await consoleCall(stranger.browser, 'POST', `/console/api/users/${self.id}/disable`)).status).toBe(404);

    // Enabled again, the admin logs in with the password they had; only an owner of the store can.
    expect((await consoleCall(stranger.browser, 'POST', `/console/api/users/${adminId}/enable`)).status).toBe(404);
    const enabled = await consoleCall(owner.browser, 'POST', `/console/api/users/${adminId}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ id: adminId, role: 'admin', disabled_at: null });
    expect((await consoleCall(owner.browser, 'POST', `/console/api/users/${adminId}/enable`)).body).toMatchObject({ disabled_at: null });
    const relogin = newBrowser();
    expect((await consoleCall(relogin, 'POST', '/console/api/session', { email: admin.email, password: 'correct horse battery' })).status).toBe(200);
    expect((await consoleCall(relogin, 'GET', '/console/api/settings')).status).toBe(200);
    expect(await service.db.auditEvent.count({ where: { subjectId: adminId, action: 'user.enabled' } })).toBe(1);
  });

  it('a password change ends every session of the user and opens one here', async () => {
    const { browser, email } = await loggedIn(shop, 'viewer');
    const elsewhere = newBrowser();
    expect((await consoleCall(elsewhere, 'POST', '/console/api/session', { email, password: 'correct horse battery' })).status).toBe(200);
    const wrong = await consoleCall(browser, 'POST', '/console/api/password', { current_password: 'nope', new_password: 'a brand new password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'current_password', message: 'is not your current password' }]);
    const before = browser.cookie;
    const changed = await consoleCall(browser, 'POST', '/console/api/password', { current_password: 'correct horse battery', new_password: 'a brand new password' });
    expect(changed.status).toBe(200);
    expect(browser.cookie).not.toBe(before);
    expect((await consoleCall(elsewhere, 'GET', '/console/api/session')).status).toBe(401);
    expect((await consoleCall({ cookie: before, csrf: undefined }, 'GET', '/console/api/session')).status).toBe(401);
    expect((await consoleCall(browser, 'GET', '/console/api/session')).status).toBe(200);
    expect((await consoleCall(newBrowser(), 'POST', '/console/api/session', { email, password: 'a brand new password' })).status).toBe(200);
  });
});

describe("the claim page's settings, and claims' photos", () => {
  /** The logo upload as the page sends it: the image itself as the body. */
  async function putLogo(browser: Browser, bytes: Buffer): Promise<Answer> {
    const headers: Record<string, string> = { origin: service.baseUrl, 'content-type': 'image/png' };
    if (browser.cookie !== undefined) headers.cookie = `${SESSION_COOKIE}=${browser.cookie}`;
    if (browser.csrf !== undefined) headers[CSRF_HEADER] = browser.csrf;
    const response = await fetch(`${service.baseUrl}/console/api/settings/logo`, { method: 'PUT', headers, body: bytes });
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, setCookie: [], headers: response.headers };
  }

  it('an admin sets the branding, contact and windows (every bad field named), and the logo; a viewer reads them', async () => {
    const store = await seedStore(service.db);
    const admin = await loggedIn(store, 'admin');
    const viewer = await loggedIn(store, 'viewer');
    const defaults = await consoleCall(viewer.browser, 'GET', '/console/api/settings');
    expect(defaults.body.claim_page).toEqual({
      url_path: `/claims/${store.store.slug}`,
      accent_color: null,
      support_email: null,
      support_url: null,
      logo_url: null,
      lost_after_days: 7,
      after_delivery_days: 30,
    });
    const bad = await consoleCall(admin.browser, 'PATCH', '/console/api/settings', {
      claim_page: { accent_color: 'red', support_email: 'nope', support_url: 'http://plain.example', lost_after_days: 0, after_delivery_days: 400 },
    });
    expect(bad.status).toBe(400);
    expect((bad.body.errors as Array<{ field: string }>).map((error) => error.field).sort()).toEqual([
      'claim_page.accent_color',
      'claim_page.after_delivery_days',
      'claim_page.lost_after_days',
      'claim_page.support_email',
      'claim_page.support_url',
    ]);
    expect((await consoleCall(viewer.browser, 'PATCH', '/console/api/settings', { claim_page: { lost_after_days: 3 } })).status).toBe(403);
    const saved = await consoleCall(admin.browser, 'PATCH', '/console/api/settings', {
      claim_page: { accent_color: '#1A7F5A', support_email: 'help@shop.example', support_url: 'https://shop.example/help', lost_after_days: 10, after_delivery_days: 14 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.claim_page).toMatchObject({ accent_color: '#1a7f5a', support_email: 'help@shop.example', support_url: 'https://shop.example/help', lost_after_days: 10, after_delivery_days: 14 });
    // The claim page reads the same settings.
    const page = await call(service.baseUrl, 'GET', `/shopper/api/stores/${store.store.slug}`);
    expect(page.body).toMatchObject({ accent_color: '#1a7f5a', support_email: 'help@shop.example', claim_windows: { lost_after_days: 10, after_delivery_days: 14 } });
    const audit = await service.db.auditEvent.findFirst({ where: { storeId: store.store.id, action: 'store.claim_page_changed' } });
    expect(audit).toMatchObject({ actorKind: 'console_user', details: { changed: ['accent_color', 'support_email', 'support_url', 'lost_after_days', 'after_delivery_days'] } });

    const logo = await sharp({ create: { width: 1200, height: 400, channels: 4, background: '#2a6' } }).png().toBuffer();
    expect((await putLogo(viewer.browser, logo)).status).toBe(403);
    expect((await putLogo(admin.browser, Buffer.from('GIF89a but not really'))).status).toBe(400);
    const withLogo = await putLogo(admin.browser, logo);
    expect(withLogo.status).toBe(200);
    const logoUrl = (withLogo.body.claim_page as { logo_url: string }).logo_url;
    expect(logoUrl).toMatch(new RegExp(`^/shopper/api/stores/${store.store.slug}/logo\\?v=[0-9a-f]{16}$`));
    const served = await fetch(`${service.baseUrl}${logoUrl}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    // Re-encoded, at most 512 pixels wide.
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 512, height: 171 });
    const removed = await consoleCall(admin.browser, 'DELETE', '/console/api/settings/logo');
    expect(removed.body.claim_page).toMatchObject({ logo_url: null });
    expect((await fetch(`${service.baseUrl}${logoUrl}`)).status).toBe(404);
  });

  it("shows a claim's photos to the store's users only", async () => {
    const store = await seedStore(service.db);
    const viewer = await loggedIn(store, 'viewer');
    const body = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: store.liveKey, body })).status).toBe(201);
    const order = await service.db.order.findFirstOrThrow({ where: { storeId: store.store.id, sourceOrderId: body.source_order_id as string } });
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#a33' } }).jpeg().toBuffer();
    const photo = await uploadClaimPhoto(service.db, postgresPhotoStore(service.db), { storeId: store.store.id, orderId: order.id }, jpeg, new Date());
    const claim = await createClaim(
      service.db,
      { store: store.store, actor: { kind: 'shopper', orderId: order.id }, mode: 'live' },
      { source_order_id: order.sourceOrderId, reason: 'other', description: 'see photo' },
      new Date(),
      { photoIds: [photo.id] },
    ).catch((error: unknown) => error);
    // A shopper must name the parcel: the rule holds even outside the claim page.
    expect(claim).toMatchObject({ code: 'invalid_request' });
    const filed = await createClaim(service.db, { store: store.store, actor: TEST_OPERATOR, mode: 'live' }, { source_order_id: order.sourceOrderId, reason: 'other' }, new Date(), { photoIds: [photo.id] });
    const detail = await consoleCall(viewer.browser, 'GET', `/console/api/claims/${filed.id}`);
    expect(detail.body.claim).toMatchObject({ channel: 'cli', photos: [{ id: photo.id, width: 640, height: 480 }] });
    const image = await fetch(`${service.baseUrl}/console/api/claims/${filed.id}/photos/${photo.id}`, { headers: { cookie: `${SESSION_COOKIE}=${viewer.browser.cookie}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    const stranger = await loggedIn(rival, 'owner');
    const refused = await fetch(`${service.baseUrl}/console/api/claims/${filed.id}/photos/${photo.id}`, { headers: { cookie: `${SESSION_COOKIE}=${stranger.browser.cookie}` } });
    expect(refused.status).toBe(404);
  });
});

describe('developers', () => {
  it("lists the store's webhook endpoints, their deliveries and its platforms; another store sees none", async () => {
    const store = await seedStore(service.db);
    const { browser } = await loggedIn(store, 'viewer');
    const endpoint = await call(service.baseUrl, 'POST', '/v1/webhook_endpoints', { key: store.liveKey, body: { url: 'https://hooks.example.com/op', events: ['order.created'] } });
    expect(endpoint.status).toBe(201);
    await createPlatform(service.db, TEST_OPERATOR, `devplat${Date.now()}`, 'developers-platform-secret-0123456789');
    const platform = (await service.db.platform.findFirstOrThrow({ orderBy: { createdAt: 'desc' } })).slug;
    await connectStore(service.db, TEST_OPERATOR, store.store.slug, platform);

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
    const { browser } = await loggedIn(store, 'viewer');
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
    // A day later, the lines are past their retention: not shown, and swept.
    const dayLater = new Date(Date.now() + 25 * 3600 * 1000);
    expect((await listRequestLog(service.db, store.store.id, dayLater, { limit: 10 })).lines).toEqual([]);
    expect(await deleteExpiredRequestLog(service.db, dayLater)).toBeGreaterThanOrEqual(2);
    expect(await service.db.requestLogEntry.count({ where: { storeId: store.store.id } })).toBe(0);
  });
});

describe('isolation', () => {
  // Every console route, and how a user of another store is kept out of it (tested above): a route
  // added to the console contract fails here until it is classified.
  const ISOLATION: Record<string, string> = {
    'session.current': "the caller's own session",
    'session.login': 'opens a session of the user whose password it is',
    'session.logout': "the caller's own session",
    'session.changePassword': "the caller's own password",
    'session.setup': 'the user of the token',
    'keys.list': 'own store only (tested)',
    'keys.create': "creates in the caller's store",
    'keys.revoke': "404 for another store's key (tested)",
    'overview.get': "the caller's store's figures",
    'orders.search': "own store only: another store's id finds nothing (tested)",
    'orders.get': "404 for another store's order (tested)",
    'claims.list': 'own store only (tested)',
    'claims.get': "404 for another store's claim (tested)",
    'claims.setStatus': "404 for another store's claim, unchanged (tested)",
    'claims.photo': "404 for another store's claim (tested)",
    'billing.statement': "the caller's store's statement",
    'billing.csv': "the caller's store's ledger",
    'shipments.get': "404 for another store's shipment (tested)",
    'shipments.setCarrier': "404 for another store's shipment (tested)",
    'settings.get': "the caller's store",
    'settings.update': "the caller's store",
    'settings.setLogo': "the caller's store",
    'settings.removeLogo': "the caller's store",
    'settings.users': "the caller's store's users",
    'settings.invite': "invites to the caller's store",
    'settings.disable': "404 for another store's user (tested)",
    'settings.enable': "404 for another store's user (tested)",
    'developers.endpoints': 'own store only (tested)',
    'developers.deliveries': "404 for another store's endpoint (tested)",
    'developers.platforms': 'own store only (tested)',
    'developers.requestLog': 'own store only (tested)',
  };

  it('classifies every console route', () => {
    const names = (router: Record<string, unknown>, prefix = ''): string[] =>
      Object.entries(router).flatMap(([key, child]) =>
        child !== null && typeof child === 'object' && 'method' in child ? [`${prefix}${key}`] : names(child as Record<string, unknown>, `${prefix}${key}.`),
      );
    expect(names(consoleContract).sort()).toEqual(Object.keys(ISOLATION).sort());
  });
});
