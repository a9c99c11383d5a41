// The USPS Addresses API v3 verifier (server/addresses/usps.ts) against a local fake of the USPS token
// and address endpoints (test/support/usps-fake.ts). Canned answers follow the documented Addresses 3.x
// shapes. Nothing here leaves 127.0.0.1: fetch is wrapped to refuse any other destination.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUspsVerifier } from '../server/addresses/usps.js';
import type { AddressInput, Verification } from '../server/domain/addresses/index.js';
import {
  startUspsFake,
  USPS_CODES,
  USPS_MESSAGES,
  uspsAddressResponse,
  uspsError,
  type UspsFake,
} from './support/usps-fake.js';

let fake: UspsFake;
const realFetch = globalThis.fetch;
const consoleSpies: ReturnType<typeof vi.spyOn>[] = [];

beforeEach(async () => {
  fake = await startUspsFake();
  vi.spyOn(globalThis, 'fetch').mockImplementation((resource, init) => {
    const url = resource instanceof Request ? resource.url : String(resource);
    if (!url.startsWith(fake.baseUrl)) return Promise.reject(new Error(`test tried to reach ${url}`));
    return realFetch(resource, init);
  });
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    consoleSpies.push(vi.spyOn(console, method));
  }
});

afterEach(async () => {
  // No logging of addresses, names or secrets: the verifier logs nothing at all.
  for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
  consoleSpies.length = 0;
  vi.restoreAllMocks();
  await fake.close();
});

/** A verifier on the fake, with a clock tests can move. */
function verifier(options: { clientSecret?: string; baseUrl?: string } = {}) {
  const clock = { now: new Date('2026-03-10T12:00:00Z') };
  const usps = createUspsVerifier({
    clientId: fake.clientId,
    clientSecret: options.clientSecret ?? fake.clientSecret,
    baseUrl: options.baseUrl ?? fake.baseUrl,
    now: () => clock.now,
  });
  const advance = (ms: number) => {
    clock.now = new Date(clock.now.getTime() + ms);
  };
  return { usps, advance };
}

const signal = () => new AbortController().signal;

const input = (fields: Partial<AddressInput> = {}): AddressInput => ({
  streetAddress1: '3120 M St NW',
  streetAddress2: null,
  city: 'Washington',
  province: 'DC',
  zip: '20007',
  countryCode: null,
  ...fields,
});

/** Registers `answer` for the default street and verifies `sent` (the default input unless given). */
async function verifyWith(answer: Parameters<UspsFake['respondTo']>[1], sent: AddressInput = input()): Promise<Verification> {
  fake.respondTo(sent.streetAddress1, answer);
  return verifier().usps.verify(sent, signal());
}

const expectUnknown = (verification: Verification, reason: string) => {
  expect(verification).toMatchObject({ verdict: 'unknown', reason, address: null, changes: [], flags: [] });
  expect(verification.message).not.toBe('');
};

describe('the token', () => {
  it('is requested with the client-credentials grant, form-encoded, and sent as a Bearer token', async () => {
    await verifyWith({ body: uspsAddressResponse({}) });

    expect(fake.tokenRequestCount).toBe(1);
    expect(fake.tokenRequests[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(fake.tokenRequests[0]!.fields).toEqual({
      grant_type: 'client_credentials',
      client_id: fake.clientId,
      client_secret: fake.clientSecret,
    });
    expect(fake.lookups[0]!.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
  });

  it('is reused across calls', async () => {
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    const { usps } = verifier();
    for (let i = 0; i < 3; i += 1) expect((await usps.verify(input(), signal())).verdict).toBe('deliverable');

    expect(fake.tokenRequestCount).toBe(1);
    expect(fake.lookups).toHaveLength(3);
    expect(new Set(fake.lookups.map((lookup) => lookup.authorization))).toEqual(new Set([`Bearer ${fake.issuedTokens[0]}`]));
  });

  it('is requested once for concurrent calls', async () => {
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    const { usps } = verifier();
    const results = await Promise.all(Array.from({ length: 5 }, () => usps.verify(input(), signal())));

    expect(results.map((result) => result.verdict)).toEqual(Array(5).fill('deliverable'));
    expect(fake.tokenRequestCount).toBe(1);
  });

  it('is refreshed after it expires, and shortly before', async () => {
    fake.setTokenLifetime(3_600);
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    const { usps, advance } = verifier();

    await usps.verify(input(), signal());
    advance(3_600_000 - 61_000); // more than a minute left: still good
    await usps.verify(input(), signal());
    expect(fake.tokenRequestCount).toBe(1);

    advance(30_000); // 31 seconds left: refreshed ahead of expiry
    await usps.verify(input(), signal());
    expect(fake.tokenRequestCount).toBe(2);

    advance(3_600_000 + 1_000); // long expired
    await usps.verify(input(), signal());
    expect(fake.tokenRequestCount).toBe(3);
    expect(fake.lookups.map((lookup) => lookup.authorization)).toEqual([
      `Bearer ${fake.issuedTokens[0]}`,
      `Bearer ${fake.issuedTokens[0]}`,
      `Bearer ${fake.issuedTokens[1]}`,
      `Bearer ${fake.issuedTokens[2]}`,
    ]);
  });

  it('is refreshed once, and the lookup retried once, after a 401', async () => {
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    const { usps } = verifier();
    await usps.verify(input(), signal());
    fake.revokeTokens(); // revoked or expired early, before the cache thinks so

    const verification = await usps.verify(input(), signal());

    expect(verification.verdict).toBe('deliverable');
    expect(fake.tokenRequestCount).toBe(2);
    expect(fake.lookups.map((lookup) => lookup.authorization)).toEqual([
      `Bearer ${fake.issuedTokens[0]}`,
      `Bearer ${fake.issuedTokens[0]}`,
      `Bearer ${fake.issuedTokens[1]}`,
    ]);
  });

  it('gives up after the one retry when the 401 persists', async () => {
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    fake.failNextLookup({ status: 401 });
    fake.failNextLookup({ status: 401 });
    fake.failNextLookup({ status: 401 });

    const verification = await verifier().usps.verify(input(), signal());

    expectUnknown(verification, 'verifier_misconfigured');
    expect(fake.lookups).toHaveLength(2);
    expect(fake.tokenRequestCount).toBe(2);
  });

  it('answers unknown verifier_misconfigured when USPS refuses the credentials', async () => {
    expectUnknown(await verifier({ clientSecret: 'wrong' }).usps.verify(input(), signal()), 'verifier_misconfigured');
    expect(fake.lookups).toHaveLength(0);
  });

  it('answers unknown when the token endpoint is rate limited or down', async () => {
    const { usps } = verifier();
    fake.failNextToken({ status: 429, headers: { 'retry-after': '30' } });
    expectUnknown(await usps.verify(input(), signal()), 'verifier_rate_limited');
    fake.failNextToken({ status: 503 });
    expectUnknown(await usps.verify(input(), signal()), 'verifier_unavailable');
    expect(fake.lookups).toHaveLength(0);
  });

  it('reads expires_in sent as a numeric string', async () => {
    fake.setTokenLifetime('3600');
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    const { usps, advance } = verifier();

    await usps.verify(input(), signal());
    advance(3_000_000);
    await usps.verify(input(), signal());
    expect(fake.tokenRequestCount).toBe(1);
    advance(600_000);
    await usps.verify(input(), signal());
    expect(fake.tokenRequestCount).toBe(2);
  });
});

describe('the lookup request', () => {
  it('sends the documented query parameters, with the state as its two-letter code', async () => {
    const sent = input({
      streetAddress1: '1600 Amphitheatre Parkway',
      streetAddress2: 'Suite 100',
      city: 'Mountain View',
      province: 'California',
      zip: '94043-1351',
    });
    fake.respondTo(sent.streetAddress1, { body: uspsAddressResponse({}) });
    await verifier().usps.verify(sent, signal());

    expect(fake.lookups).toHaveLength(1);
    expect(fake.lookups[0]!.query).toEqual({
      streetAddress: '1600 Amphitheatre Parkway',
      secondaryAddress: 'Suite 100',
      city: 'Mountain View',
      state: 'CA',
      ZIPCode: '94043',
      ZIPPlus4: '1351',
    });
  });

  it('leaves out what was not sent, and takes the state from the ZIP code when there is no province', async () => {
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    await verifier().usps.verify(input({ city: null, province: null }), signal());

    expect(fake.lookups[0]!.query).toEqual({ streetAddress: '3120 M St NW', state: 'DC', ZIPCode: '20007' });
  });

  it('answers unknown insufficient_address without a lookup when USPS could not match anyway', async () => {
    const verification = await verifier().usps.verify(input({ city: 'Washington', province: null, zip: null }), signal());
    expectUnknown(verification, 'insufficient_address');
    expect(fake.tokenRequestCount).toBe(0);
    expect(fake.lookups).toHaveLength(0);
  });

  it('answers unknown outside_us for another country, without a lookup', async () => {
    expectUnknown(await verifier().usps.verify(input({ countryCode: 'CA' }), signal()), 'outside_us');
    expect(fake.tokenRequestCount).toBe(0);
  });
});

describe('DPVConfirmation Y', () => {
  it('is deliverable when the answer is the address as sent; an added ZIP+4 is no change', async () => {
    const verification = await verifyWith({ body: uspsAddressResponse({}) });

    expect(verification).toEqual({
      verdict: 'deliverable',
      reason: 'dpv_confirmed',
      message: expect.any(String),
      address: { streetAddress1: '3120 M ST NW', streetAddress2: null, city: 'WASHINGTON', province: 'DC', zip: '20007', zip4: '3704' },
      changes: [],
      flags: [],
    });
  });

  it('is deliverable, not corrected, when only the suffix spelling differs ("Parkway" and "PKWY")', async () => {
    const sent = input({ streetAddress1: '1600 Amphitheatre Parkway', city: 'Mountain View', province: 'CA', zip: '94043' });
    const verification = await verifyWith(
      {
        body: uspsAddressResponse({
          address: { streetAddress: '1600 AMPHITHEATRE PKWY', city: 'MOUNTAIN VIEW', state: 'CA', ZIPCode: '94043', ZIPPlus4: '1351' },
        }),
      },
      sent,
    );

    expect(verification.verdict).toBe('deliverable');
    expect(verification.changes).toEqual([]);
    expect(verification.address).toEqual({
      streetAddress1: '1600 AMPHITHEATRE PKWY',
      streetAddress2: null,
      city: 'MOUNTAIN VIEW',
      province: 'CA',
      zip: '94043',
      zip4: '1351',
    });
  });

  it('is corrected, with zip in changes, when USPS answers another ZIP code', async () => {
    const verification = await verifyWith({ body: uspsAddressResponse({}) }, input({ zip: '20027' }));

    expect(verification.verdict).toBe('corrected');
    expect(verification.reason).toBe('address_corrected');
    expect(verification.changes).toEqual(['zip']);
    expect(verification.address?.zip).toBe('20007');
  });

  it('is corrected, with city in changes, when USPS answers another city', async () => {
    const verification = await verifyWith({ body: uspsAddressResponse({}) }, input({ city: 'Georgetown' }));

    expect(verification.verdict).toBe('corrected');
    expect(verification.changes).toEqual(['city']);
    expect(verification.address?.city).toBe('WASHINGTON');
  });

  it('lists every field that moved', async () => {
    const verification = await verifyWith(
      { body: uspsAddressResponse({ address: { secondaryAddress: 'APT 2' } }) },
      input({ streetAddress1: '3120 M St', streetAddress2: 'Apt 3', city: 'Georgetown', zip: '20027' }),
    );

    expect(verification.verdict).toBe('corrected');
    expect(verification.changes).toEqual(['street', 'secondary', 'city', 'zip']);
    expect(verification.address).toEqual({
      streetAddress1: '3120 M ST NW',
      streetAddress2: 'APT 2',
      city: 'WASHINGTON',
      province: 'DC',
      zip: '20007',
      zip4: '3704',
    });
  });
});

describe('units and undeliverable addresses', () => {
  it('D is unit_required, secondary_missing', async () => {
    const verification = await verifyWith({ body: uspsAddressResponse({ additionalInfo: { DPVConfirmation: 'D' } }) });
    expect(verification).toMatchObject({ verdict: 'unit_required', reason: 'secondary_missing', address: null, changes: [], flags: [] });
  });

  it('correction 32 (default address) is unit_required, secondary_missing', async () => {
    const verification = await verifyWith({
      body: uspsAddressResponse({ additionalInfo: { DPVConfirmation: null }, corrections: [USPS_CODES.defaultAddress] }),
    });
    expect(verification).toMatchObject({ verdict: 'unit_required', reason: 'secondary_missing', address: null });
  });

  it('S is unit_required, secondary_unrecognized', async () => {
    const verification = await verifyWith(
      { body: uspsAddressResponse({ address: { secondaryAddress: 'APT 99' }, additionalInfo: { DPVConfirmation: 'S' } }) },
      input({ streetAddress2: 'Apt 99' }),
    );
    expect(verification).toMatchObject({ verdict: 'unit_required', reason: 'secondary_unrecognized', address: null, changes: [] });
  });

  it('N is undeliverable, not_a_delivery_point', async () => {
    const verification = await verifyWith({
      body: uspsAddressResponse({ address: { ZIPPlus4: null }, additionalInfo: { DPVConfirmation: 'N', deliveryPoint: null } }),
    });
    expect(verification).toMatchObject({ verdict: 'undeliverable', reason: 'not_a_delivery_point', address: null, changes: [], flags: [] });
  });

  it(`404 "${USPS_MESSAGES.noMatch}" is undeliverable, address_not_found`, async () => {
    // Nothing registered: the fake answers USPS's 404 no-match.
    const verification = await verifier().usps.verify(input({ streetAddress1: '99999 Nowhere Rd' }), signal());
    expect(verification).toMatchObject({ verdict: 'undeliverable', reason: 'address_not_found', address: null });
  });

  it(`404 "${USPS_MESSAGES.invalidDeliveryAddress}" is undeliverable, invalid_delivery_address`, async () => {
    const verification = await verifyWith({ status: 404, body: uspsError(404, USPS_MESSAGES.invalidDeliveryAddress) });
    expect(verification).toMatchObject({ verdict: 'undeliverable', reason: 'invalid_delivery_address', address: null });
  });
});

describe('answers that say nothing about the address', () => {
  it(`404 "${USPS_MESSAGES.multipleAddresses}" is unknown, ambiguous_address`, async () => {
    expectUnknown(await verifyWith({ status: 404, body: uspsError(404, USPS_MESSAGES.multipleAddresses) }), 'ambiguous_address');
  });

  it('the same messages under 400 (where the spec also lists them) map the same way', async () => {
    expectUnknown(await verifyWith({ status: 400, body: uspsError(404, USPS_MESSAGES.multipleAddresses) }), 'ambiguous_address');
  });

  it(`404 "${USPS_MESSAGES.insufficient}" is unknown, insufficient_address`, async () => {
    expectUnknown(await verifyWith({ status: 404, body: uspsError(404, USPS_MESSAGES.insufficient) }), 'insufficient_address');
  });

  it('400 about the city or the state is unknown, address_rejected', async () => {
    expectUnknown(await verifyWith({ status: 400, body: uspsError(400, USPS_MESSAGES.cityStateUnverifiable) }), 'address_rejected');
  });

  it('correction 22 (multiple matches, no default) is unknown, ambiguous_address', async () => {
    expectUnknown(
      await verifyWith({ body: uspsAddressResponse({ corrections: [USPS_CODES.multipleAddresses], matches: [] }) }),
      'ambiguous_address',
    );
  });

  it('a 404 with an unrecognised message claims nothing', async () => {
    expectUnknown(await verifyWith({ status: 404, body: { message: 'no route' } }), 'verifier_unavailable');
  });

  it('429 is unknown, verifier_rate_limited', async () => {
    expectUnknown(await verifyWith({ status: 429, headers: { 'retry-after': '30' } }), 'verifier_rate_limited');
  });

  it('503 and other 5xx are unknown, verifier_unavailable', async () => {
    expectUnknown(await verifyWith({ status: 503 }), 'verifier_unavailable');
    expectUnknown(await verifyWith({ status: 500 }), 'verifier_unavailable');
  });

  it('an unreadable 200 is unknown, verifier_unavailable', async () => {
    fake.failNextLookup({ status: 200, body: ['not', 'an', 'address'] });
    expectUnknown(await verifier().usps.verify(input(), signal()), 'verifier_unavailable');
  });

  it('a refused connection is unknown, verifier_unavailable', async () => {
    const closed = await startUspsFake();
    const url = closed.baseUrl;
    await closed.close();
    const verification = await createUspsVerifier({ clientId: 'x', clientSecret: 'y', baseUrl: url }).verify(input(), signal());
    expectUnknown(verification, 'verifier_unavailable');
  });

  it('a lookup that hangs is unknown, verifier_timeout, as soon as the signal aborts', async () => {
    const { usps } = verifier();
    fake.failNextLookup({ hang: true });
    const controller = new AbortController();
    const pending = usps.verify(input(), controller.signal);
    await vi.waitFor(() => expect(fake.lookups).toHaveLength(1));
    controller.abort();

    expectUnknown(await pending, 'verifier_timeout');
  });

  it('a token request that hangs is unknown, verifier_timeout, and the next call asks again', async () => {
    const { usps } = verifier();
    fake.failNextToken({ hang: true });
    const controller = new AbortController();
    const pending = usps.verify(input(), controller.signal);
    await vi.waitFor(() => expect(fake.tokenRequestCount).toBe(1));
    controller.abort();
    expectUnknown(await pending, 'verifier_timeout');
    expect(fake.lookups).toHaveLength(0);

    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    expect((await usps.verify(input(), signal())).verdict).toBe('deliverable');
    expect(fake.tokenRequestCount).toBe(2);
  });

  it('one caller giving up does not fail another waiting on the same token', async () => {
    fake.respondTo('3120 M St NW', { body: uspsAddressResponse({}) });
    const { usps } = verifier();
    const quitter = new AbortController();
    const first = usps.verify(input(), quitter.signal);
    const second = usps.verify(input(), signal());
    quitter.abort();

    expectUnknown(await first, 'verifier_timeout');
    expect((await second).verdict).toBe('deliverable');
    expect(fake.tokenRequestCount).toBe(1);
  });

  it('an already aborted signal answers verifier_timeout without a request', async () => {
    const controller = new AbortController();
    controller.abort();
    expectUnknown(await verifier().usps.verify(input(), controller.signal), 'verifier_timeout');
    expect(fake.tokenRequestCount).toBe(0);
  });
});

describe('flags', () => {
  const flagged = async (additionalInfo: Parameters<typeof uspsAddressResponse>[0]['additionalInfo'], address = {}) =>
    (await verifyWith({ body: uspsAddressResponse({ additionalInfo, address }) })).flags;

  it('vacant Y is vacant', async () => {
    expect(await flagged({ vacant: 'Y' })).toEqual(['vacant']);
  });

  it('DPVCMRA Y is mail_receiving_agency', async () => {
    expect(await flagged({ DPVCMRA: 'Y' })).toEqual(['mail_receiving_agency']);
  });

  it('a B carrier route is po_box', async () => {
    expect(await flagged({ carrierRoute: 'B001' })).toEqual(['po_box']);
  });

  it('a G carrier route is general_delivery', async () => {
    expect(await flagged({ carrierRoute: 'G001' })).toEqual(['general_delivery']);
  });

  it('carrier routes R777 and R779 are no_street_delivery; other rural routes are not', async () => {
    expect(await flagged({ carrierRoute: 'R777' })).toEqual(['no_street_delivery']);
    expect(await flagged({ carrierRoute: 'R779' })).toEqual(['no_street_delivery']);
    expect(await flagged({ carrierRoute: 'R001' })).toEqual([]);
  });

  it.each(['AA', 'AE', 'AP'])('state %s is military', async (state) => {
    const sent = input({ streetAddress1: 'Unit 2050 Box 4190', city: 'APO', province: state, zip: '09096' });
    const verification = await verifyWith(
      {
        body: uspsAddressResponse({
          address: { streetAddress: 'UNIT 2050 BOX 4190', city: 'APO', state, ZIPCode: '09096', ZIPPlus4: '4190' },
          additionalInfo: { carrierRoute: 'C001' },
        }),
      },
      sent,
    );
    expect(verification.verdict).toBe('deliverable');
    expect(verification.flags).toEqual(['military']);
  });

  it('several flags together', async () => {
    expect(await flagged({ vacant: 'Y', DPVCMRA: 'Y', carrierRoute: 'B002' })).toEqual(['vacant', 'mail_receiving_agency', 'po_box']);
  });

  it('are only given on a deliverable address', async () => {
    expect(await flagged({ DPVConfirmation: 'D', vacant: 'Y', DPVCMRA: 'Y' })).toEqual([]);
  });
});
