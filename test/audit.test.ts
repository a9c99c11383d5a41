// The audit log: every change that matters is recorded with its actor, in the same transaction as
// the change, and the log cannot be edited. Changes through the API carry the key's id; the
// operator's commands carry the operator; nothing recorded holds a secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actingFor, findApiKeyStore, issueApiKey, revokeApiKey, type ServiceScope } from '../server/domain/access/index.js';
import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { createStore, updateStoreDeclarations } from '../server/domain/stores/index.js';
import { call, orderBody } from './support/http.js';
import { startService, type TestService } from './support/service.js';
import { systemClock } from '../server/domain/kernel/index.js';

import { decideClaim } from '../server/domain/claims/index.js';

const OPERATOR: ServiceScope = { actor: { kind: 'operator', name: 'ada' } };
let service: TestService;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service.close());

const eventsOf = (subjectId: string) =>
  service.db.auditEvent.findMany({ where: { subjectId }, orderBy: { id: 'asc' }, select: { actorKind: true, actorId: true, action: true, details: true, storeId: true } });

describe('the audit log', () => {
  it('records the operator on store, key, platform and settings changes, and no secret', async () => {
    const slug = `audited-${Date.now()}`;
    const store = await createStore(service.db, OPERATOR, {
      slug,
      name: 'Audited',
      pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null },
      protectionSkus: [],
      quoteOrigin: 'backend',
      clientProfile: 'standard',
    });
    const key = await issueApiKey(service.db, actingFor(OPERATOR, store), { mode: 'live', scope: 'store' });
    await revokeApiKey(service.db, actingFor(OPERATOR, await findApiKeyStore(service.db, key.id)), key.id, new Date());
    await revokeApiKey(service.db, actingFor(OPERATOR, await findApiKeyStore(service.db, key.id)), key.id, new Date()); // a second revocation changes nothing
    const secret = 'audited-platform-secret-0123456789';
    const platform = await createPlatform(service.db, OPERATOR, `audited-platform-${Date.now()}`, secret);
    await connectStore(service.db, actingFor(OPERATOR, store), platform.slug);
    await connectStore(service.db, actingFor(OPERATOR, store), platform.slug); // connected already: nothing new
    await updateStoreDeclarations(service.db, actingFor(OPERATOR, store), { protectionSkus: ['PROT-1'] });

    const byOperator = { actorKind: 'operator', actorId: 'ada' };
    expect(await eventsOf(store.id)).toEqual([
      expect.objectContaining({ ...byOperator, action: 'store.created', storeId: store.id }),
      expect.objectContaining({ ...byOperator, action: 'store.platform_connected', details: { platform: platform.slug } }),
      expect.objectContaining({ ...byOperator, action: 'store.settings_changed', details: { protection_skus: ['PROT-1'] } }),
    ]);
    expect(await eventsOf(key.id)).toEqual([
      expect.objectContaining({ ...byOperator, action: 'api_key.created', details: { mode: 'live', scope: 'store', last4: key.key.slice(-4) } }),
      expect.objectContaining({ ...byOperator, action: 'api_key.revoked' }),
    ]);
    // A platform belongs to no store: its record is in the operator's log, not a store's.
    expect(await eventsOf(platform.id)).toEqual([]);
    expect(await service.db.operatorAuditEvent.findMany({ where: { subjectId: platform.id }, select: { actorKind: true, actorId: true, action: true, subjectType: true } })).toEqual([
      { ...byOperator, action: 'platform.created', subjectType: 'platform' },
    ]);
    const everything = JSON.stringify([
      await service.db.auditEvent.findMany({ select: { actorId: true, action: true, subjectId: true, details: true } }),
      await service.db.operatorAuditEvent.findMany({ select: { actorId: true, action: true, subjectId: true, details: true } }),
    ]);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(key.key);
  });

  it('records the API key that filed a claim or cancelled an order, and the operator who moved the claim', async () => {
    const slug = `audited-api-${Date.now()}`;
    const store = await createStore(service.db, OPERATOR, {
      slug,
      name: 'Audited API',
      pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null },
      protectionSkus: [],
      quoteOrigin: 'backend',
      clientProfile: 'standard',
    });
    const key = await issueApiKey(service.db, actingFor(OPERATOR, store), { mode: 'live', scope: 'store' });
    const body = orderBody();
    expect((await call(service.baseUrl, 'POST', '/v2/orders', { key: key.key, body })).status).toBe(201);
    const claim = await call(service.baseUrl, 'POST', '/v1/claims', { key: key.key, body: { source_order_id: body.source_order_id, reason: 'lost' } });
    expect(claim.status).toBe(201);
    await decideClaim(service.db, actingFor(OPERATOR, store), claim.body.id as string, { status: 'denied', note: 'no evidence' }, systemClock);
    const cancelled = await call(service.baseUrl, 'POST', `/v1/orders/${body.source_order_id as string}/cancel`, { key: key.key });
    expect(cancelled.status).toBe(200);
    // Cancelling again changes nothing, and records nothing.
    expect((await call(service.baseUrl, 'POST', `/v1/orders/${body.source_order_id as string}/cancel`, { key: key.key })).status).toBe(200);

    expect(await eventsOf(claim.body.id as string)).toEqual([
      expect.objectContaining({ actorKind: 'api_key', actorId: key.id, action: 'claim.filed' }),
      expect.objectContaining({ actorKind: 'operator', actorId: 'ada', action: 'claim.status_changed', details: { from: 'open', to: 'denied' } }),
    ]);
    expect(await eventsOf(cancelled.body.id as string)).toEqual([
      expect.objectContaining({ actorKind: 'api_key', actorId: key.id, action: 'order.cancelled' }),
    ]);
  });

  it('cannot be edited: UPDATE, DELETE and TRUNCATE are refused by the database, in the stores\' log and the operator\'s', async () => {
    for (const table of ['audit_events', 'operator_audit_events']) {
      await expect(service.db.$executeRawUnsafe(`UPDATE ${table} SET actor_id = 'someone else'`)).rejects.toThrow(new RegExp(`${table} is append-only`));
      await expect(service.db.$executeRawUnsafe(`DELETE FROM ${table}`)).rejects.toThrow(/append-only/);
      await expect(service.db.$executeRawUnsafe(`TRUNCATE ${table}`)).rejects.toThrow(/append-only/);
    }
    expect(await service.db.auditEvent.count()).toBeGreaterThan(0);
    expect(await service.db.operatorAuditEvent.count()).toBeGreaterThan(0);
  });
});
