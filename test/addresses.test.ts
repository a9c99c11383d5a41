// POST /v2/addresses/verify through real HTTP (README, Address verification): request rules, the
// rules of every answer, test keys, the non-US short cut, the 24-hour dedupe and the verifier
// deadline. The verifier is a counting stand-in so each rule is checked exactly; the real
// verifiers have their own tests.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AddressInput, AddressVerifier, Verification } from '../server/domain/addresses/index.js';
import { createOfflineVerifier } from '../server/addresses/offline.js';
import { call, tableCounts } from './support/http.js';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const DELIVERABLE: Verification = {
  verdict: 'deliverable',
  reason: 'confirmed',
  message: 'Deliverable as sent.',
  address: { streetAddress1: '1600 AMPHITHEATRE PKWY', streetAddress2: null, city: 'MOUNTAIN VIEW', province: 'CA', zip: '94043', zip4: '1351' },
  changes: [],
  flags: [],
};

class StandInVerifier implements AddressVerifier {
  readonly name = 'usps' as const;
  readonly local = false;
  calls: AddressInput[] = [];
  answer: Verification | 'hang' | 'throw' = DELIVERABLE;
  lastSignal: AbortSignal | null = null;
  async verify(address: AddressInput, signal: AbortSignal): Promise<Verification> {
    this.calls.push(address);
    this.lastSignal = signal;
    if (this.answer === 'throw') throw new Error('boom');
    if (this.answer === 'hang') return new Promise(() => {});
    return this.answer;
  }
}

const verifier = new StandInVerifier();
let service: TestService;
let offline: TestService;
let shop: SeededStore;

beforeAll(async () => {
  service = await startService({ addressVerifier: verifier, addressTimeoutMs: 300 });
  offline = await startService({ databaseUrl: service.databaseUrl, addressVerifier: createOfflineVerifier() });
  shop = await seedStore(service.db);
});
afterAll(async () => {
  await service.close();
  await offline.close();
});
beforeEach(async () => {
  verifier.calls = [];
  verifier.answer = DELIVERABLE;
  await service.db.addressLookup.deleteMany();
});

const verify = (body: unknown, key = shop.liveKey, base = service.baseUrl) => call(base, 'POST', '/v2/addresses/verify', { key, body });
const home = { street_address1: '1600 Amphitheatre Parkway', city: 'Mountain View', province: 'California', zip: '94043' };
const fields = (response: { body: { errors: Array<{ field: string }> } }) => response.body.errors.map((e) => e.field).sort();

describe('the request', () => {
  it('needs street_address1, and city with province unless zip is sent, listing every missing field', async () => {
    const none = await verify({ address: { street_address2: 'Apt 4' } });
    expect(none.status).toBe(400);
    expect(fields(none)).toEqual(['address.city', 'address.province', 'address.street_address1']);
    const withZip = await verify({ address: { street_address1: '1 Main St', zip: '94043' } });
    expect(withZip.status).toBe(200);
    const withCityState = await verify({ address: { street_address1: '1 Main St', city: 'Austin', province: 'TX' } });
    expect(withCityState.status).toBe(200);
  });

  it('takes shipping_details in place of address, with paths to match', async () => {
    expect((await verify({ shipping_details: home })).status).toBe(200);
    const bad = await verify({ shipping_details: { city: 'Austin' } });
    expect(fields(bad)).toEqual(['shipping_details.province', 'shipping_details.street_address1']);
    const neither = await verify({});
    expect(neither.body.errors).toEqual([{ field: 'address', message: 'is required (or send shipping_details)' }]);
  });

  it('ignores names and phone numbers', async () => {
    const response = await verify({ address: { ...home, first_name: 'Ada', last_name: 'L', phone: '555-0100' }, first_name: 'Ada' });
    expect(response.status).toBe(200);
    expect(JSON.stringify(verifier.calls)).not.toMatch(/Ada|555-0100/);
  });
});

describe('the answer', () => {
  it.each([
    ['deliverable', true],
    ['corrected', true],
    ['unit_required', false],
    ['undeliverable', false],
    ['unknown', null],
  ] as const)('%s has deliverable %s, and an address only when it is shipped to', async (verdict, deliverable) => {
    verifier.answer = { ...DELIVERABLE, verdict, reason: `r_${verdict}`, changes: ['zip'], flags: ['vacant'] };
    const response = await verify({ address: home });
    expect(response.status).toBe(200);
    const shipsTo = verdict === 'deliverable' || verdict === 'corrected';
    expect(response.body).toEqual({
      verdict,
      deliverable,
      reason: `r_${verdict}`,
      message: 'Deliverable as sent.',
      address: shipsTo
        ? { street_address1: '1600 AMPHITHEATRE PKWY', street_address2: null, city: 'MOUNTAIN VIEW', province: 'CA', zip: '94043', zip4: '1351', country_code: 'US' }
        : null,
      // changes only on corrected, whatever a verifier says
      changes: verdict === 'corrected' ? ['zip'] : [],
      flags: ['vacant'],
    });
  });

  it('answers unknown without a lookup for an address outside the US', async () => {
    for (const country of ['CA', 'GB', 'USA']) {
      const response = await verify({ address: { ...home, country_code: country } });
      expect(response.body).toMatchObject({ verdict: 'unknown', deliverable: null, reason: 'outside_us', address: null });
    }
    expect(verifier.calls).toEqual([]);
    expect(await service.db.addressLookup.count()).toBe(0);
    await verify({ address: { ...home, country_code: 'us' } });
    expect(verifier.calls).toHaveLength(1);
  });

  it('has no side effects: only the lookup cache is written', async () => {
    const before = await tableCounts(service.db);
    await verify({ address: home });
    const after = await tableCounts(service.db);
    expect({ ...after, address_lookups: 0 }).toEqual({ ...before, address_lookups: 0 });
  });
});

describe('test keys', () => {
  it('answer locally: well-formed is deliverable, ZIP 00000 undeliverable; no lookup, no cache entry', async () => {
    const ok = await verify({ address: home }, shop.testKey);
    expect(ok.body).toMatchObject({ verdict: 'deliverable', deliverable: true, address: { zip: '94043', province: 'CA', street_address1: '1600 AMPHITHEATRE PKWY' } });
    const zeros = await verify({ address: { ...home, zip: '00000' } }, shop.testKey);
    expect(zeros.body).toMatchObject({ verdict: 'undeliverable', deliverable: false, address: null });
    expect(verifier.calls).toEqual([]);
    expect(await service.db.addressLookup.count()).toBe(0);
    expect((await verify({ address: {} }, shop.testKey)).status).toBe(400);
  });
});

describe('the 24-hour dedupe', () => {
  it('looks an address up once, however it is written, and again after 24 hours', async () => {
    await verify({ address: home });
    await verify({ address: { street_address1: '1600 AMPHITHEATRE PKWY', city: 'mountain view', province: 'ca', zip: '94043' } });
    expect(verifier.calls).toHaveLength(1);
    const row = await service.db.addressLookup.findFirstOrThrow();
    // The cache holds the verifier's answer under a hash, never the address as sent.
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toMatch(/Amphitheatre Parkway/i);

    service.clock.advance(24 * 60 * 60 * 1000 + 1);
    try {
      await verify({ address: home });
      expect(verifier.calls).toHaveLength(2);
    } finally {
      service.clock.advance(-(24 * 60 * 60 * 1000 + 1));
    }
  });

  it('purges expired lookups as new ones are written', async () => {
    await verify({ address: home });
    service.clock.advance(25 * 60 * 60 * 1000);
    try {
      await verify({ address: { ...home, street_address1: '1 Infinite Loop' } });
      const rows = await service.db.addressLookup.findMany();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.expiresAt.getTime()).toBeGreaterThan(service.clock.now().getTime());
    } finally {
      service.clock.advance(-25 * 60 * 60 * 1000);
    }
  });

  it('does not keep an answer that says the verifier could not be asked', async () => {
    verifier.answer = { ...DELIVERABLE, verdict: 'unknown', reason: 'verifier_unavailable', address: null };
    await verify({ address: home });
    await verify({ address: home });
    expect(verifier.calls).toHaveLength(2);
    expect(await service.db.addressLookup.count()).toBe(0);
  });
});

describe('a failing verifier', () => {
  it('answers unknown when the verifier is slower than the deadline, and aborts the lookup', async () => {
    verifier.answer = 'hang';
    const started = Date.now();
    const response = await verify({ address: home });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ verdict: 'unknown', deliverable: null, reason: 'verifier_timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(verifier.lastSignal?.aborted).toBe(true);
  });

  it('answers unknown when the verifier throws', async () => {
    verifier.answer = 'throw';
    const response = await verify({ address: home });
    expect(response.body).toMatchObject({ verdict: 'unknown', reason: 'verifier_unavailable' });
  });
});

describe('the offline verifier through HTTP', () => {
  it('never claims deliverable: a well-formed address is unknown, a ZIP of another state undeliverable', async () => {
    const plausible = await verify({ address: home }, shop.liveKey, offline.baseUrl);
    expect(plausible.body).toMatchObject({ verdict: 'unknown', deliverable: null, address: null });
    const wrongState = await verify({ address: { ...home, province: 'NY' } }, shop.liveKey, offline.baseUrl);
    expect(wrongState.body).toMatchObject({ verdict: 'undeliverable', deliverable: false, reason: 'zip_state_mismatch' });
  });

  it('keeps nothing in the lookup cache: it has no lookup to save', async () => {
    const before = await tableCounts(service.db);
    for (const address of [home, { ...home, province: 'NY' }, { ...home, zip: '1234' }]) {
      expect((await verify({ address }, shop.liveKey, offline.baseUrl)).status).toBe(200);
    }
    expect(await tableCounts(service.db)).toEqual(before);
  });
});
