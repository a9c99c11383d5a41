// API key names through real HTTP on PostgreSQL (README, "API keys"): a key created in the console
// with a name ("Production server") or without one; a bad name refused with a 400 naming `name`;
// the name in the list, in the api_key.created audit details, and in a claim's history as the
// label of the key that filed it (`Live key "Production server" ••••9gXL`), while a key without a
// name keeps its old label.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleCall, loggedIn, service, shop, startConsoleApiService, stopConsoleApiService } from './support/console-api.js';
import { call, orderBody } from './support/http.js';

beforeAll(() => startConsoleApiService());
afterAll(stopConsoleApiService);

interface ListedKey {
  id: string;
  name: string | null;
  mode: string;
  last4: string;
}

describe('API key names from the console', () => {
  it('creates a key with a name (trimmed) and one without; the list shows both; the audit records the name', async () => {
    const { browser } = await loggedIn(shop, 'admin');
    const named = await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'live', name: '  Production server  ' });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    const secret = named.body.secret as string;
    expect(named.body).toMatchObject({ name: 'Production server', mode: 'live', last4: secret.slice(-4) });

    const unnamed = await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'test' });
    expect(unnamed.status).toBe(201);
    expect(unnamed.body).toMatchObject({ name: null, mode: 'test' });

    const listed = (await consoleCall(browser, 'GET', '/console/api/keys')).body.data as ListedKey[];
    expect(listed.find((key) => key.id === named.body.id)).toMatchObject({ name: 'Production server', mode: 'live' });
    expect(listed.find((key) => key.id === unnamed.body.id)).toMatchObject({ name: null, mode: 'test' });
    // Keys issued before names existed, like the seeded ones, have none.
    expect(listed.find((key) => key.last4 === shop.liveKey.slice(-4))).toMatchObject({ name: null });

    const audit = await service.db.auditEvent.findFirstOrThrow({ where: { subjectId: named.body.id as string, action: 'api_key.created' } });
    expect(audit).toMatchObject({ actorKind: 'console_user', details: { mode: 'live', scope: 'store', last4: secret.slice(-4), name: 'Production server' } });
    const unnamedAudit = await service.db.auditEvent.findFirstOrThrow({ where: { subjectId: unnamed.body.id as string, action: 'api_key.created' } });
    expect(unnamedAudit.details).toEqual({ mode: 'test', scope: 'store', last4: (unnamed.body.last4 as string) });
  });

  it('refuses a blank, too long, control-character or non-text name with a 400 naming `name`, and creates nothing', async () => {
    const { browser } = await loggedIn(shop, 'admin');
    const before = await service.db.apiKey.count({ where: { storeId: shop.store.id } });
    const cases: Array<[unknown, RegExp]> = [
      ['   ', /must not be blank/],
      ['x'.repeat(101), /at most 100 characters/],
      ['Production\nserver', /control characters/],
      ['tab\there', /control characters/],
      [42, /must be a text/],
    ];
    for (const [name, message] of cases) {
      const refused = await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'live', name });
      expect(refused.status, JSON.stringify(name)).toBe(400);
      const errors = refused.body.errors as Array<{ field: string; message: string }>;
      expect(errors.map((error) => error.field)).toEqual(['name']);
      expect(errors[0]?.message).toMatch(message);
    }
    // Exactly 100 characters, after trimming, is a name.
    const longest = await consoleCall(browser, 'POST', '/console/api/keys', { mode: 'live', name: ` ${'y'.repeat(100)} ` });
    expect([longest.status, longest.body.name]).toEqual([201, 'y'.repeat(100)]);
    expect(await service.db.apiKey.count({ where: { storeId: shop.store.id } })).toBe(before + 1);
  });

  it("labels a claim's history with the key's name: filed with the named key, decided in the console", async () => {
    const admin = await loggedIn(shop, 'admin');
    const created = await consoleCall(admin.browser, 'POST', '/console/api/keys', { mode: 'live', name: 'Production server' });
    const secret = created.body.secret as string;

    const claimWith = async (key: string): Promise<string> => {
      const order = orderBody({ source_created_on: new Date().toISOString() });
      expect((await call(service.baseUrl, 'POST', '/v2/orders', { key, body: order })).status).toBe(201);
      const filed = await call(service.baseUrl, 'POST', '/v1/claims', { key, body: { source_order_id: order.source_order_id, reason: 'lost' } });
      expect(filed.status, JSON.stringify(filed.body)).toBe(201);
      return filed.body.id as string;
    };

    const namedClaim = await claimWith(secret);
    const decided = await consoleCall(admin.browser, 'POST', `/console/api/claims/${namedClaim}/status`, { status: 'in_review', note: 'looking' });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.history).toEqual([
      expect.objectContaining({ to_status: 'open', by: { kind: 'api_key', label: `Live key "Production server" ••••${secret.slice(-4)}` } }),
      expect.objectContaining({ to_status: 'in_review', by: expect.objectContaining({ kind: 'console_user', label: admin.email }) }),
    ]);
    // The label holds the name and the last four characters, never the secret.
    expect(JSON.stringify(decided.body)).not.toContain(secret);
    const read = await consoleCall(admin.browser, 'GET', `/console/api/claims/${namedClaim}`);
    expect((read.body.history as Array<{ by: { label: string } }>)[0]?.by.label).toBe(`Live key "Production server" ••••${secret.slice(-4)}`);

    // A key without a name keeps the label it always had.
    const unnamedClaim = await claimWith(shop.liveKey);
    const unnamedRead = await consoleCall(admin.browser, 'GET', `/console/api/claims/${unnamedClaim}`);
    expect((unnamedRead.body.history as Array<{ by: { label: string } }>)[0]?.by.label).toBe(`Live API key ••••${shop.liveKey.slice(-4)}`);
  });
});
