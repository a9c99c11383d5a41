// The admin CLI as an operator runs it: a real subprocess on a real database, and the keys it
// issues proven against the real API. Each run starts tsx (about a second), so the file shares one
// database and runs as few commands as the assertions need.
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../contract/webhook-signature.js';
import { createStore } from '../server/domain/stores/index.js';
import { runAdmin, type CliRun } from './support/admin-cli.js';
import { call, orderBody } from './support/http.js';
import { createTestDatabase, startService, type TestService, TEST_OPERATOR } from './support/service.js';

const KEY_MERCHANT = 'cli-keys';

let databaseUrl: string;
let service: TestService;

/** Runs `npm run admin -- <args>` on this file's database. */
const admin = (...args: string[]): Promise<CliRun> => runAdmin(databaseUrl, ...args);

/** The single JSON object that --json promises on stdout. */
function json(run: CliRun): Record<string, Record<string, unknown>> {
  return JSON.parse(run.stdout) as Record<string, Record<string, unknown>>;
}

async function issueKey(...extra: string[]): Promise<{ id: string; key: string }> {
  const run = await admin('key', 'create', '--merchant', KEY_MERCHANT, '--mode', 'live', '--json', ...extra);
  expect(run.code, run.stderr).toBe(0);
  const key = json(run).key;
  return { id: String(key?.id), key: String(key?.key) };
}

function quote(key: string) {
  return call(service.baseUrl, 'POST', '/v2/quotes', { key, body: { cart: { covered: { amount: '100.00' } } } });
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  service = await startService({ databaseUrl });
  // The key tests get their merchant directly, so they do not depend on the merchant tests.
  await createStore(service.db, TEST_OPERATOR, {
    slug: KEY_MERCHANT,
    name: 'CLI keys',
    pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null },
    protectionSkus: [],
    quoteOrigin: 'backend',
    clientProfile: 'standard',
  });
});

afterAll(async () => {
  await service?.close();
});

describe('merchant create', () => {
  it('creates the store with the given settings, and refuses the same slug twice', async () => {
    const args = ['merchant', 'create', '--slug', 'acme-cli', '--name', 'Acme CLI', '--rate-bps', '200', '--min-premium', '1.5'];
    const created = await admin(...args, '--max-covered', '2500', '--protection-sku', 'PROT-A', '--protection-sku', 'PROT-B', '--quote-origin', 'browser', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(json(created)).toEqual({
      store: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        slug: 'acme-cli',
        name: 'Acme CLI',
        rate_bps: 200,
        min_premium: '1.50',
        max_covered: '2500.00',
        protection_skus: ['PROT-A', 'PROT-B'],
        quote_origin: 'browser',
        client_profile: 'standard',
      },
    });

    const again = await admin(...args);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe('error: A store with slug "acme-cli" already exists.\n');
  });

  it('exits 2 naming every bad option, and creates nothing', async () => {
    const run = await admin('merchant', 'create', '--slug', 'Bad Slug', '--name', 'Bad', '--rate-bps', '20000', '--min-premium', '1.234');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: invalid options: /);
    for (const flag of ['--slug', '--rate-bps', '--min-premium']) expect(run.stderr).toContain(flag);
    expect(run.stderr).not.toContain('--name');
    expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
    const rows = await service.db.$queryRawUnsafe<Array<{ slug: string }>>("SELECT slug FROM stores WHERE name = 'Bad'");
    expect(rows).toEqual([]);
  });
});

describe('key create and key revoke', () => {
  it('issues a live key that the API accepts, storing only its SHA-256', async () => {
    const { id, key } = await issueKey();
    expect(key).toMatch(/^ak_live_[A-Za-z0-9]{40}$/);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    expect((await quote(key)).status).toBe(201);

    const rows = await service.db.$queryRawUnsafe<Array<{ key_hash: string }>>('SELECT key_hash FROM api_keys');
    expect(rows.some((row) => row.key_hash.includes(key))).toBe(false);
    expect(rows.map((row) => row.key_hash)).toContain(createHash('sha256').update(key).digest('hex'));
  });

  it('says in its text output that the key is shown only once', async () => {
    const run = await admin('key', 'create', '--merchant', KEY_MERCHANT, '--mode', 'test');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}ak_test_[A-Za-z0-9]{40}$/m);
    expect(run.stdout).toMatch(/shown this once/i);
  });

  it('issues an account key that store routes refuse with 403', async () => {
    const { key } = await issueKey('--account');
    const response = await quote(key);
    expect(response.status).toBe(403);
    expect(response.body.error_code).toBe('forbidden');
  });

  it('revokes a key, which the API then refuses with 401; an unknown id exits 1', async () => {
    const { id, key } = await issueKey();
    const revoked = await admin('key', 'revoke', '--id', id, '--json');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(json(revoked)).toEqual({ revoked: { id, revoked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } });

    await service.settled(); // the revocation's notification has reached the service
    const response = await quote(key);
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe('unauthorized');

    const unknown = await admin('key', 'revoke', '--id', '00000000-0000-4000-8000-000000000000', '--json');
    expect(unknown.code).toBe(1);
    expect(json(unknown)).toMatchObject({ error_code: 'not_found' });

    const malformed = await admin('key', 'revoke', '--id', 'not-a-key-id');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--id must be a key id');
  });

  it('names a key with --name (trimmed): printed, stored, and in the audit details', async () => {
    const run = await admin('key', 'create', '--merchant', KEY_MERCHANT, '--mode', 'live', '--name', '  Production server ', '--json');
    expect(run.code, run.stderr).toBe(0);
    const key = json(run).key;
    expect(key).toMatchObject({ name: 'Production server', mode: 'live', scope: 'store' });
    const stored = await service.db.apiKey.findUniqueOrThrow({ where: { id: String(key?.id) } });
    expect(stored.name).toBe('Production server');
    const audit = await service.db.auditEvent.findFirstOrThrow({ where: { subjectId: stored.id, action: 'api_key.created' } });
    expect(audit).toMatchObject({ actorKind: 'operator', details: { mode: 'live', scope: 'store', last4: stored.last4, name: 'Production server' } });

    const text = await admin('key', 'create', '--merchant', KEY_MERCHANT, '--mode', 'test', '--name', 'Staging');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Issued a test store key named "Staging" for merchant "cli-keys"/);
    // Without --name the key has none, and says so in JSON.
    const unnamed = await admin('key', 'create', '--merchant', KEY_MERCHANT, '--mode', 'test', '--json');
    expect(json(unnamed).key).toMatchObject({ name: null });
  });

  it('exits 2 naming every bad option, a bad --name among them, and issues nothing', async () => {
    const before = await service.db.apiKey.count();
    const blank = await admin('key', 'create', '--merchant', 'Bad Slug', '--mode', 'both', '--name', '   ');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/^error: invalid options: /);
    for (const flag of ['--merchant', '--mode', '--name must not be blank']) expect(blank.stderr).toContain(flag);
    const long = await admin('key', 'create', '--merchant', KEY_MERCHANT, '--mode', 'live', '--name', 'x'.repeat(101), '--json');
    expect(long.code).toBe(2);
    expect(JSON.parse(long.stdout)).toMatchObject({ errors: [{ field: '--name', message: 'must be at most 100 characters' }] });
    const control = await admin('key', 'create', '--merchant', KEY_MERCHANT, '--mode', 'live', '--name', 'two\nlines');
    expect(control.code).toBe(2);
    expect(control.stderr).toContain('--name must not contain control characters');
    expect(await service.db.apiKey.count()).toBe(before);
  });

  it('exits 1 with not found for an unknown merchant', async () => {
    const run = await admin('key', 'create', '--merchant', 'nope', '--mode', 'live');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: No store with slug "nope".\n');
  });
});

describe('platforms and integration declarations', () => {
  it('creates a platform with a generated secret, connects a merchant, and the signed messages go through', async () => {
    const created = await admin('platform', 'create', '--slug', 'cli-platform', '--json');
    expect(created.code, created.stderr).toBe(0);
    const platform = json(created).platform;
    expect(String(platform?.secret)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const connected = await admin('merchant', 'connect', '--merchant', KEY_MERCHANT, '--platform', 'cli-platform', '--json');
    expect(connected.code, connected.stderr).toBe(0);
    expect(json(connected)).toEqual({ connected: { store: KEY_MERCHANT, platform: 'cli-platform' } });

    const raw = JSON.stringify({
      merchant: KEY_MERCHANT,
      event: 'order.placed',
      order: { id: 'cli-1', created_at: '2026-11-20T10:00:00Z', line_items: [{ id: 'a', title: 'Desk', unit_price_cents: 10000, quantity: 1 }] },
    });
    const response = await call(service.baseUrl, 'POST', '/api/webhooks/cli-platform', {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhook(String(platform?.secret), raw) },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ received: true, order_id: 'cli-1' });

    const again = await admin('platform', 'create', '--slug', 'cli-platform', '--secret', 'x'.repeat(20));
    expect(again.code).toBe(1);
    const short = await admin('platform', 'create', '--slug', 'cli-platform-2', '--secret', 'short');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('--secret must be at least 16 characters');
  });

  it('updates the declared protection SKUs and quote origin', async () => {
    const updated = await admin('merchant', 'update', '--slug', KEY_MERCHANT, '--protection-sku', 'ACME-SHIELD', '--protection-sku', 'ACME-2', '--quote-origin', 'browser', '--json');
    expect(updated.code, updated.stderr).toBe(0);
    expect(json(updated).store).toMatchObject({ protection_skus: ['ACME-SHIELD', 'ACME-2'], quote_origin: 'browser' });
    const cleared = await admin('merchant', 'update', '--slug', KEY_MERCHANT, '--clear-protection-skus', '--json');
    expect(json(cleared).store).toMatchObject({ protection_skus: [], quote_origin: 'browser' });
    const nothing = await admin('merchant', 'update', '--slug', KEY_MERCHANT);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
  });

  it("sets the claim page's branding, contact, windows and logo, naming every bad option", async () => {
    const logo = join(await mkdtemp(join(tmpdir(), 'cli-logo-')), 'logo.png');
    await writeFile(logo, await sharp({ create: { width: 900, height: 300, channels: 4, background: '#1a7f5a' } }).png().toBuffer());
    const set = await admin('merchant', 'claim-page', '--slug', KEY_MERCHANT, '--accent-color', '#1A7F5A', '--support-email', 'help@cli.example', '--lost-after-days', '10', '--logo', logo, '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(json(set).claim_page).toMatchObject({ url_path: `/claims/${KEY_MERCHANT}`, accent_color: '#1a7f5a', support_email: 'help@cli.example', support_url: null, lost_after_days: 10, after_delivery_days: 30, logo_url: expect.stringMatching(/\/logo\?v=/) });
    const page = await call(service.baseUrl, 'GET', `/shopper/api/stores/${KEY_MERCHANT}`);
    expect(page.body).toMatchObject({ accent_color: '#1a7f5a', logo_url: json(set).claim_page?.logo_url, claim_windows: { lost_after_days: 10 } });
    const bad = await admin('merchant', 'claim-page', '--slug', KEY_MERCHANT, '--accent-color', 'green', '--support-url', 'http://x.example', '--after-delivery-days', '0');
    expect(bad.code).toBe(2);
    for (const flag of ['--accent-color', '--support-url', '--after-delivery-days']) expect(bad.stderr).toContain(flag);
    const cleared = await admin('merchant', 'claim-page', '--slug', KEY_MERCHANT, '--clear-accent-color', '--support-email', '', '--remove-logo', '--json');
    expect(json(cleared).claim_page).toMatchObject({ accent_color: null, support_email: null, logo_url: null, lost_after_days: 10 });
  });

  it('files a claim as the operator: the same rules as the API, recorded as the CLI channel', async () => {
    const order = orderBody({ source_order_id: `cli-claim-${Date.now()}` });
    const key = await issueKey();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: key.key, body: order })).status).toBe(201);
    const filed = await admin('claim', 'create', '--merchant', KEY_MERCHANT, '--order', order.source_order_id as string, '--reason', 'lost', '--description', 'Phoned in', '--json');
    expect(filed.code, filed.stderr).toBe(0);
    expect(json(filed).claim).toMatchObject({ source_order_id: order.source_order_id as string, reason: 'lost', channel: 'cli', status: 'open', description: 'Phoned in' });
    const unknown = await admin('claim', 'create', '--merchant', KEY_MERCHANT, '--order', 'no-such-order', '--reason', 'lost');
    expect(unknown.code).toBe(1);
    const badReason = await admin('claim', 'create', '--merchant', KEY_MERCHANT, '--order', order.source_order_id as string, '--reason', 'bored');
    expect(badReason.code).toBe(2);
    expect(badReason.stderr).toContain('--reason');
  });

  it('declares the route client profile and a WooCommerce webhook secret, refusing a bad profile', async () => {
    const route = await admin('merchant', 'update', '--slug', KEY_MERCHANT, '--client-profile', 'route', '--woocommerce-webhook-secret', 'kept-from-route-0123456789', '--json');
    expect(route.code, route.stderr).toBe(0);
    expect(json(route).store).toMatchObject({ client_profile: 'route' });
    expect(JSON.stringify(json(route))).not.toContain('kept-from-route');
    const stored = await service.db.store.findUniqueOrThrow({ where: { slug: KEY_MERCHANT } });
    expect(stored.woocommerceWebhookSecret).toBe('kept-from-route-0123456789');
    const bad = await admin('merchant', 'update', '--slug', KEY_MERCHANT, '--client-profile', 'shopify');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('must be standard or route');
    const back = await admin('merchant', 'update', '--slug', KEY_MERCHANT, '--client-profile', 'standard', '--clear-woocommerce-webhook-secret', '--json');
    expect(json(back).store).toMatchObject({ client_profile: 'standard' });
    expect((await service.db.store.findUniqueOrThrow({ where: { slug: KEY_MERCHANT } })).woocommerceWebhookSecret).toBeNull();
  });
});
