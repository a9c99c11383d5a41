// The in-memory cache of API-key callers (server/domain/access/api-key-cache.ts): a used key is served
// without the database, every key or store change empties the cache of every instance, and while
// the notification channel is down nothing is served from memory.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { actingFor, type Caller, createCallerCache, findApiKeyStore, issueApiKey, revokeApiKey } from '../server/domain/access/index.js';

import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { signWebhook } from '../contract/webhook-signature.js';
import { call } from './support/http.js';
import { createTestDatabase, seedStore, startService, type SeededStore, type TestService, TEST_OPERATOR } from './support/service.js';


const quote = { cart: { covered: { amount: '200.00' } } };
let databaseUrl: string;
let a: TestService;
let b: TestService;
let shop: SeededStore;
let admin: pg.Client;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  a = await startService({ databaseUrl });
  b = await startService({ databaseUrl });
  shop = await seedStore(a.db);
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await a.close();
  await b.close();
});

const quoteWith = (service: TestService, key: string) => call(service.baseUrl, 'POST', '/v2/quotes', { key, body: quote });

/** Revokes a key without telling anyone: the notification triggers do not fire for a replica session. */
async function revokeSilently(keyId: string): Promise<void> {
  await admin.query("SET session_replication_role = 'replica'");
  try {
    await admin.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [keyId]);
  } finally {
    await admin.query("SET session_replication_role = 'origin'");
  }
}

describe('a key in use', () => {
  it('is served from memory: a revocation nobody is told of goes unseen until a change is notified', async () => {
    const issued = await issueApiKey(a.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'store' });
    expect((await quoteWith(a, issued.key)).status).toBe(201);
    await revokeSilently(issued.id);
    // The database says revoked; the instance did not read it, which is what the cache is for.
    expect((await quoteWith(a, issued.key)).status).toBe(201);
    // Any notified change on the channel empties the cache.
    await admin.query("SELECT pg_notify('api_key_changes', 'api_keys')");
    await a.settled();
    expect((await quoteWith(a, issued.key)).status).toBe(401);
  });

  it('is refused by every instance once a revocation made through one of them reaches it', async () => {
    const issued = await issueApiKey(a.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'store' });
    expect([(await quoteWith(a, issued.key)).status, (await quoteWith(b, issued.key)).status]).toEqual([201, 201]);
    await revokeApiKey(a.db, actingFor(TEST_OPERATOR, await findApiKeyStore(a.db, issued.id)), issued.id, new Date());
    await Promise.all([a.settled(), b.settled()]);
    expect([(await quoteWith(a, issued.key)).status, (await quoteWith(b, issued.key)).status]).toEqual([401, 401]);
  });

  it("prices with a store's new terms on every instance once the change reaches it", async () => {
    const store = await seedStore(a.db);
    // 200.00 at 1.5 % = 3.00, then at 2.5 % = 5.00.
    const premiums = async () => [(await quoteWith(a, store.liveKey)).body.premium?.amount, (await quoteWith(b, store.liveKey)).body.premium?.amount];
    expect(await premiums()).toEqual(['3.00', '3.00']);
    await a.db.store.update({ where: { id: store.store.id }, data: { rateBps: 250 } });
    await Promise.all([a.settled(), b.settled()]);
    expect(await premiums()).toEqual(['5.00', '5.00']);
  });
});

describe('when the notification channel drops', () => {
  const listenerPids = async () =>
    (
      await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN api_key_changes'",
      )
    ).rows.map((row) => row.pid);

  it('forgets what it cached, reads the database until it listens again, then caches again', async () => {
    const issued = await issueApiKey(a.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'store' });
    expect((await quoteWith(b, issued.key)).status).toBe(201);
    // Cut both instances' listening connections, as a database restart or a network fault would.
    const before = await listenerPids();
    expect(before).toHaveLength(2); // one per instance
    await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
    await vi.waitFor(() => expect(b.apiKeys.listening).toBe(false), { timeout: 10_000, interval: 20 });
    await revokeSilently(issued.id);
    // Not listening: the key is read from the database, which says revoked.
    expect((await quoteWith(b, issued.key)).status).toBe(401);

    // Both come back on their own, on new connections.
    await vi.waitFor(() => expect([a.apiKeys.listening, b.apiKeys.listening]).toEqual([true, true]), { timeout: 10_000, interval: 20 });
    const after = await listenerPids();
    expect(after).toHaveLength(2);
    expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    // And cache again: a silent revocation of a key in use goes unseen once more.
    const next = await issueApiKey(a.db, actingFor(TEST_OPERATOR, shop.store), { mode: 'live', scope: 'store' });
    expect((await quoteWith(b, next.key)).status).toBe(201);
    await revokeSilently(next.id);
    expect((await quoteWith(b, next.key)).status).toBe(201);
    await admin.query("SELECT pg_notify('api_key_changes', 'api_keys')");
    await b.settled();
    expect((await quoteWith(b, next.key)).status).toBe(401);
  });
});

describe('platforms and their stores, for platform webhooks', () => {
  /** An order.placed message to `service`, signed with `secret`. */
  async function push(service: TestService, platform: string, secret: string, orderId: string) {
    const raw = JSON.stringify({
      merchant: shop.store.slug,
      event: 'order.placed',
      order: { id: orderId, number: `#${orderId}`, created_at: '2026-11-20T10:00:00Z', line_items: [{ id: 'l1', sku: 'MUG', title: 'Mug', unit_price_cents: 1500, quantity: 1 }] },
    });
    return call(service.baseUrl, 'POST', `/api/webhooks/${platform}`, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(secret, raw) } });
  }

  it('are served from memory, and every instance hears a rotated secret and a removed connection at once', async () => {
    const platform = `plat-${Date.now()}`;
    const first = 'whsec_first_secret_0123456789';
    const second = 'whsec_second_secret_0123456789';
    await createPlatform(a.db, TEST_OPERATOR, platform, first);
    await connectStore(a.db, actingFor(TEST_OPERATOR, shop.store), platform);
    expect((await push(b, platform, first, `${platform}-1`)).status).toBe(200);
    // Served from memory: a change nobody is told of goes unseen.
    await admin.query("SET session_replication_role = 'replica'");
    try {
      await admin.query('UPDATE platforms SET secret = $1 WHERE slug = $2', [second, platform]);
    } finally {
      await admin.query("SET session_replication_role = 'origin'");
    }
    expect((await push(b, platform, first, `${platform}-2`)).status).toBe(200);
    // A rotation through the database's triggers reaches the instance.
    await admin.query('UPDATE platforms SET secret = $1 WHERE slug = $2', [second, platform]);
    await b.settled();
    expect((await push(b, platform, first, `${platform}-3`)).status).toBe(401);
    expect((await push(b, platform, second, `${platform}-4`)).status).toBe(200);
    // A connection removed: the store no longer takes the platform's messages, on any instance.
    await admin.query('DELETE FROM store_platforms WHERE platform_id = (SELECT id FROM platforms WHERE slug = $1)', [platform]);
    await b.settled();
    expect((await push(b, platform, second, `${platform}-5`)).status).toBe(404);
  });
});

describe('the cache itself', () => {
  const caller: Caller = {
    keyId: 'k',
    mode: 'live',
    scope: 'store',
    store: { id: 's', slug: 's', name: 'S', pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null }, protectionSkus: [], quoteOrigin: 'backend', clientProfile: 'standard' },
  };

  it('drops a caller read before a change it has since heard of', () => {
    const cache = createCallerCache({ trustworthy: () => true });
    const readAt = cache.generation();
    cache.clear(); // a change arrived while the database was being read
    cache.set('hash', caller, readAt);
    expect(cache.get('hash')).toBeUndefined();
    cache.set('hash', caller, cache.generation());
    expect(cache.get('hash')).toEqual(caller);
  });

  it('neither serves nor keeps anything while changes cannot be heard', () => {
    let trustworthy = true;
    const cache = createCallerCache({ trustworthy: () => trustworthy });
    cache.set('hash', caller, cache.generation());
    trustworthy = false;
    expect(cache.get('hash')).toBeUndefined();
    cache.set('other', caller, cache.generation());
    trustworthy = true;
    expect(cache.get('other')).toBeUndefined();
  });

  it('forgets a caller after its time to live', async () => {
    const cache = createCallerCache({ trustworthy: () => true, ttlMs: 30 });
    const setAt = performance.now();
    cache.set('hash', caller, cache.generation());
    expect(cache.get('hash')).toBeDefined();
    // Polled rather than slept: it goes once its 30 ms are up (within the poll's bound, far below
    // the 60 s default), and not before.
    await expect.poll(() => cache.get('hash'), { timeout: 5_000, interval: 5 }).toBeUndefined();
    expect(performance.now() - setAt).toBeGreaterThanOrEqual(30);
  });

  it('hands out callers nobody can change', () => {
    const cache = createCallerCache({ trustworthy: () => true });
    cache.set('hash', caller, cache.generation());
    const served = cache.get('hash') as Caller;
    expect(Object.isFrozen(served) && Object.isFrozen(served.store)).toBe(true);
  });
});
