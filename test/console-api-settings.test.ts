// The console's settings through real HTTP on PostgreSQL (docs/console.md): a shipment's carrier
// set; the store's declarations, pricing read only, users invited, disabled and enabled by an
// owner; a password change; the claim page's branding, contact, windows and logo; a claim's photos
// shown to the store's users only.
import { actingFor } from '../server/domain/access/index.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE } from '../contract/console/index.js';
import { fileClaim, postgresPhotoStore, uploadClaimPhoto } from '../server/domain/claims/index.js';


import { consoleCall, loggedIn, newBrowser, rival, service, shop, startConsoleApiService, stopConsoleApiService, type Answer, type Browser } from './support/console-api.js';
import { call, orderBody } from './support/http.js';
import { seedStore, TEST_OPERATOR } from './support/service.js';

beforeAll(() => startConsoleApiService());
afterAll(stopConsoleApiService);

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
    const photo = await uploadClaimPhoto(service.db, { store: store.store, actor: { kind: 'shopper', orderId: order.id }, mode: 'live' }, postgresPhotoStore(service.db), jpeg, new Date());
    const claim = await fileClaim(
      service.db,
      { store: store.store, actor: { kind: 'shopper', orderId: order.id }, mode: 'live' },
      { source_order_id: order.sourceOrderId, reason: 'other', description: 'see photo' },
      new Date(),
      { photoIds: [photo.id] },
    ).catch((error: unknown) => error);
    // A shopper must name the parcel: the rule holds even outside the claim page.
    expect(claim).toMatchObject({ code: 'invalid_request' });
    const filed = await fileClaim(service.db, actingFor(TEST_OPERATOR, store.store), { source_order_id: order.sourceOrderId, reason: 'other' }, new Date(), { photoIds: [photo.id] });
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

