// The console's sessions through real HTTP on PostgreSQL (docs/console.md): a user made by the
// operator's CLI sets a password through the one-time link; the session cookie and its CSRF token;
// keys made, used on the merchant API and revoked from the console; roles; another store's user;
// login throttling with one generic answer; logout; and every console route classified by how
// another store's user is kept out of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleContract, SESSION_COOKIE } from '../contract/console/index.js';
import { LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ACCOUNT_AND_IP, LOGIN_FAILURES_PER_IP, LOGIN_WINDOW_SECONDS } from '../server/routes/console/session.js';
import { runAdmin } from './support/admin-cli.js';
import { consoleCall, loggedIn, newBrowser, rival, service, shop, startConsoleApiService, stopConsoleApiService } from './support/console-api.js';
import { call } from './support/http.js';
import { startService } from './support/service.js';

beforeAll(() => startConsoleApiService());
afterAll(stopConsoleApiService);

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

    // Asked about first (the setup page does): it works, and asking spends nothing nor names anyone.
    const checked = await consoleCall(newBrowser(), 'POST', '/console/api/setup/check', { token });
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ valid: true });
    expect(checked.setCookie).toEqual([]);
    const unknown = await consoleCall(newBrowser(), 'POST', '/console/api/setup/check', { token: `${token}x` });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error_code: 'not_found', error: 'This setup link is unknown, used or expired; ask for a new one.' });
    expect(JSON.stringify(unknown.body)).not.toContain(email.toLowerCase());
    expect((await consoleCall(newBrowser(), 'POST', '/console/api/setup/check', {})).status).toBe(400);

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

    // The link works once, and is said to be spent when asked about.
    expect((await consoleCall(newBrowser(), 'POST', '/console/api/setup', { token, password: 'another long password' })).status).toBe(404);
    const spent = await consoleCall(newBrowser(), 'POST', '/console/api/setup/check', { token });
    expect(spent.status).toBe(404);
    expect(spent.body.error_code).toBe('not_found');
    expect((await consoleCall(browser, 'GET', '/console/api/session')).status).toBe(200);
  });

  it('says an expired setup link, or a disabled user\'s, does not work, and never spends one by asking', async () => {
    const email = `expiring-${Date.now()}@example.com`;
    const created = await runAdmin(service.databaseUrl, '--json', 'user', 'create', '--merchant', shop.store.slug, '--email', email, '--role', 'viewer');
    expect(created.code).toBe(0);
    const token = new URL((JSON.parse(created.stdout) as { setup_url: string }).setup_url).searchParams.get('token') as string;
    const check = async () => (await consoleCall(newBrowser(), 'POST', '/console/api/setup/check', { token })).status;
    expect(await check()).toBe(200);
    expect(await check()).toBe(200);
    const user = await service.db.merchantUser.findUniqueOrThrow({ where: { email } });
    expect((await service.db.userSetupToken.findFirstOrThrow({ where: { userId: user.id } })).usedAt).toBeNull();
    await service.db.merchantUser.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await check()).toBe(404);
    await service.db.merchantUser.update({ where: { id: user.id }, data: { disabledAt: null } });
    expect(await check()).toBe(200);
    await service.db.userSetupToken.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(service.clock.now().getTime() - 1000) } });
    expect(await check()).toBe(404);
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

describe('isolation', () => {
  // Every console route, and how a user of another store is kept out of it (tested in the
  // console-api*.test.ts files): a route added to the console contract fails here until it is classified.
  const ISOLATION: Record<string, string> = {
    'session.current': "the caller's own session",
    'session.login': 'opens a session of the user whose password it is',
    'session.logout': "the caller's own session",
    'session.changePassword': "the caller's own password",
    'session.setup': 'the user of the token',
    'session.checkSetup': 'names no user or store: 200 or 404 for the token, spending nothing (tested)',
    'keys.list': 'own store only (tested)',
    'keys.create': "creates in the caller's store",
    'keys.revoke': "404 for another store's key (tested)",
    'overview.get': "the caller's store's figures",
    'orders.search': "own store only: another store's id finds nothing (tested)",
    'orders.get': "404 for another store's order (tested)",
    'orders.redact': "404 for another store's order, nothing erased (tested)",
    'claims.list': 'own store only (tested)',
    'claims.get': "404 for another store's claim (tested)",
    'claims.setStatus': "404 for another store's claim, unchanged (tested)",
    'claims.photo': "404 for another store's claim (tested)",
    'claimRules.get': "the caller's store's rules",
    'claimRules.put': "sets the caller's store's rules; names no other object",
    'claimRules.dryRun': "evaluates against the caller's store's claims only",
    'billing.statement': "the caller's store's statement",
    'billing.csv': "the caller's store's ledger",
    'shipments.list': "own store only: another store's user sees none of them (tested)",
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
    'developers.createEndpoint': "adds to the caller's store",
    'developers.updateEndpoint': "404 for another store's endpoint, unchanged (tested)",
    'developers.deleteEndpoint': "404 for another store's endpoint (tested)",
    'developers.rotateSecret': "404 for another store's endpoint, unchanged (tested)",
    'developers.sendTestEvent': "404 for another store's endpoint (tested)",
    'developers.resendEvent': "404 for another store's endpoint or event (tested)",
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
