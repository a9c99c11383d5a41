// The Smarty US Street verifier through the real SDK against a local fake of the API
// (test/support/smarty-fake.ts). Candidates are written by hand from the documented response shape.
// Nothing here leaves 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSmartyVerifier } from '../server/addresses/smarty.js';
import type { AddressInput, Verification } from '../server/domain/addresses/index.js';
import { smartyCandidate, startSmartyFake, type SmartyCandidateFields, type SmartyFake } from './support/smarty-fake.js';

let fake: SmartyFake;
beforeEach(async () => {
  fake = await startSmartyFake();
});
afterEach(async () => {
  await fake.close();
});

const STREET = '1600 Amphitheatre Pkwy';

const input = (fields: Partial<AddressInput> = {}): AddressInput => ({
  streetAddress1: STREET,
  streetAddress2: null,
  city: 'Mountain View',
  province: 'CA',
  zip: '94043',
  countryCode: null,
  ...fields,
});

const verifier = (options: { timeoutMs?: number; baseUrl?: string } = {}) =>
  createSmartyVerifier({ authId: fake.authId, authToken: fake.authToken, baseUrl: fake.baseUrl, ...options });

/** Registers one candidate for the default street and verifies the default input (or `address`). */
async function verifyWith(fields: SmartyCandidateFields, address: AddressInput = input()): Promise<Verification> {
  fake.register(address.streetAddress1, [smartyCandidate(fields)]);
  return verifier().verify(address, new AbortController().signal);
}

const CONFIRMED_ADDRESS = {
  streetAddress1: '1600 Amphitheatre Pkwy',
  streetAddress2: null,
  city: 'Mountain View',
  province: 'CA',
  zip: '94043',
  zip4: '1351',
};

describe('the request the SDK sends', () => {
  it('is a GET to /street-address with the credentials, the enhanced match strategy, one candidate and the address fields', async () => {
    await verifyWith({}, input({ streetAddress2: 'Apt 4', province: 'California' }));

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe('/street-address');
    // StaticCredentials signs with query parameters, not headers.
    expect(request!.query['auth-id']).toBe(fake.authId);
    expect(request!.query['auth-token']).toBe(fake.authToken);
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.query).toMatchObject({
      street: STREET,
      secondary: 'Apt 4',
      city: 'Mountain View',
      state: 'California',
      zipcode: '94043',
      match: 'enhanced',
      candidates: '1',
    });
    expect(request!.query.agent).toMatch(/^smarty \(sdk:javascript@/);
  });

  it('leaves out the fields the input does not have', async () => {
    await verifyWith({}, input({ city: null, province: null }));
    const { query } = fake.requests[0]!;
    expect(query).not.toHaveProperty('city');
    expect(query).not.toHaveProperty('state');
    expect(query).not.toHaveProperty('secondary');
    expect(query.zipcode).toBe('94043');
  });

  it('appends /street-address to a base URL given as a bare origin', async () => {
    fake.register(STREET, [smartyCandidate()]);
    const origin = new URL(fake.baseUrl).origin;
    const answer = await verifier({ baseUrl: origin }).verify(input(), new AbortController().signal);
    expect(answer.verdict).toBe('deliverable');
    expect(fake.requests[0]!.path).toBe('/street-address');
  });

  it('refuses empty credentials when the verifier is built', () => {
    expect(() => createSmartyVerifier({ authId: ' ', authToken: 'x' })).toThrow(/auth id and auth token/);
  });
});

describe('deliverable and corrected (dpv_match_code Y)', () => {
  it('answers deliverable with the candidate as the address when nothing changed', async () => {
    const answer = await verifyWith({});
    expect(answer).toEqual({
      verdict: 'deliverable',
      reason: 'confirmed',
      message: expect.any(String),
      address: CONFIRMED_ADDRESS,
      changes: [],
      flags: [],
    });
  });

  it('takes delivery_line_2 as the second street line and an absent plus4_code as a null zip4', async () => {
    const answer = await verifyWith({ delivery_line_2: 'Bldg 40', components: { plus4_code: '' } });
    expect(answer.address).toMatchObject({ streetAddress2: 'Bldg 40', zip4: null });
  });

  it('keeps the secondary in delivery_line_1, where Smarty puts it', async () => {
    const answer = await verifyWith(
      {
        delivery_line_1: '100 Main St Apt 4',
        components: { primary_number: '100', street_name: 'Main', street_suffix: 'St', secondary_designator: 'Apt', secondary_number: '4' },
      },
      input({ streetAddress1: '100 Main St', streetAddress2: 'Apt 4' }),
    );
    expect(answer.verdict).toBe('deliverable');
    expect(answer.address).toMatchObject({ streetAddress1: '100 Main St Apt 4', streetAddress2: null });
  });

  it('does not count N# (abbreviations standardised) as a change', async () => {
    const answer = await verifyWith({ analysis: { footnotes: 'N#' } }, input({ streetAddress1: '1600 Amphitheatre Parkway' }));
    expect(answer.verdict).toBe('deliverable');
  });

  it.each([
    ['A#', ['zip'], 'zip_corrected'],
    ['U#', ['city'], 'city_corrected'],
    ['M#', ['street'], 'street_corrected'],
    ['K#', ['street'], 'street_corrected'],
    ['L#', ['street'], 'street_corrected'],
    ['S#', ['secondary'], 'secondary_corrected'],
  ])('answers corrected for footnote %s with changes %j', async (footnotes, changes, reason) => {
    const answer = await verifyWith({ analysis: { footnotes } });
    expect(answer).toEqual({
      verdict: 'corrected',
      reason,
      message: expect.any(String),
      address: CONFIRMED_ADDRESS,
      changes,
      flags: [],
    });
  });

  it('collects every change the footnotes name, once each', async () => {
    const answer = await verifyWith({ analysis: { footnotes: 'A#K#M#N#' } });
    expect(answer.verdict).toBe('corrected');
    expect(answer.reason).toBe('address_corrected');
    expect(answer.changes).toEqual(['zip', 'street']);
  });

  describe('B# (city and/or state spelling), resolved against the input', () => {
    it('is a city change when the city sent differs', async () => {
      const answer = await verifyWith({ analysis: { footnotes: 'B#' } }, input({ city: 'Mountian Veiw' }));
      expect(answer.changes).toEqual(['city']);
    });

    it('is a state change when the state sent differs', async () => {
      const answer = await verifyWith({ analysis: { footnotes: 'B#' } }, input({ province: 'Califronia' }));
      expect(answer.changes).toEqual(['state']);
    });

    it('reads a state name as its code', async () => {
      const answer = await verifyWith({ analysis: { footnotes: 'B#' } }, input({ city: 'Mountian View', province: 'california' }));
      expect(answer.changes).toEqual(['city']);
    });

    it('is both when both differ', async () => {
      // Not "Calif": that is California to the shared state table (../server/domain/us-states.ts).
      const answer = await verifyWith({ analysis: { footnotes: 'B#' } }, input({ city: 'Mtn Vew', province: 'Califronia' }));
      expect(answer.changes).toEqual(['city', 'state']);
    });

    it('is both, as the footnote says, when the comparison cannot see what was fixed', async () => {
      const answer = await verifyWith({ analysis: { footnotes: 'B#' } }, input({ city: 'Mountain-View' }));
      expect(answer.verdict).toBe('corrected');
      expect(answer.changes).toEqual(['city', 'state']);
    });
  });
});

describe('unit_required', () => {
  it('answers secondary_missing for dpv_match_code D, without an address', async () => {
    const answer = await verifyWith({
      delivery_line_1: '100 Main St',
      components: { plus4_code: '1234' },
      metadata: { record_type: 'H' },
      analysis: { dpv_match_code: 'D', dpv_footnotes: 'AAN1', footnotes: 'H#' },
    });
    expect(answer).toEqual({
      verdict: 'unit_required',
      reason: 'secondary_missing',
      message: expect.any(String),
      address: null,
      changes: [],
      flags: [],
    });
  });

  it('answers secondary_missing for DPV footnote N1', async () => {
    const answer = await verifyWith({ analysis: { dpv_match_code: 'Y', dpv_footnotes: 'AAN1' } });
    expect(answer).toMatchObject({ verdict: 'unit_required', reason: 'secondary_missing' });
  });

  it('answers secondary_missing for footnote H#, even with dpv_match_code Y', async () => {
    const answer = await verifyWith({ metadata: { record_type: 'H' }, analysis: { footnotes: 'H#' } });
    expect(answer).toMatchObject({ verdict: 'unit_required', reason: 'secondary_missing', address: null });
  });

  it('answers secondary_unrecognized for dpv_match_code S with C1 (the unit sent is unknown and one is needed)', async () => {
    const answer = await verifyWith(
      { metadata: { record_type: 'H' }, analysis: { dpv_match_code: 'S', dpv_footnotes: 'AAC1', footnotes: 'S#' } },
      input({ streetAddress2: 'Apt 999' }),
    );
    expect(answer).toEqual({
      verdict: 'unit_required',
      reason: 'secondary_unrecognized',
      message: expect.any(String),
      address: null,
      changes: [],
      flags: [],
    });
  });
});

describe('dpv_match_code S with CC: the secondary was dropped', () => {
  it('answers corrected with a secondary change and the address without the secondary', async () => {
    const answer = await verifyWith(
      { analysis: { dpv_match_code: 'S', dpv_footnotes: 'AACC', footnotes: 'S#' } },
      input({ streetAddress2: 'Ste 9' }),
    );
    expect(answer).toEqual({
      verdict: 'corrected',
      reason: 'secondary_corrected',
      message: expect.any(String),
      address: CONFIRMED_ADDRESS,
      changes: ['secondary'],
      flags: [],
    });
  });

  it('keeps the other changes the footnotes name', async () => {
    const answer = await verifyWith({ analysis: { dpv_match_code: 'S', dpv_footnotes: 'AACC', footnotes: 'A#S#' } }, input({ streetAddress2: 'Ste 9' }));
    expect(answer.changes).toEqual(['secondary', 'zip']);
  });
});

describe('undeliverable', () => {
  const unmatched = (analysis: SmartyCandidateFields['analysis']): SmartyCandidateFields => ({
    components: { plus4_code: '' },
    metadata: { record_type: '' },
    analysis: { dpv_cmra: '', dpv_vacant: '', dpv_no_stat: '', active: '', enhanced_match: 'none', ...analysis },
  });

  it.each([
    ['A1', 'address_not_found'],
    ['M1', 'primary_number_missing'],
    ['M3', 'primary_number_invalid'],
    ['P1', 'box_number_missing'],
    ['P3', 'box_number_invalid'],
  ])('answers %s as %s, without an address', async (dpvFootnotes, reason) => {
    const answer = await verifyWith(unmatched({ dpv_match_code: 'N', dpv_footnotes: `AA${dpvFootnotes}` }));
    expect(answer).toEqual({ verdict: 'undeliverable', reason, message: expect.any(String), address: null, changes: [], flags: [] });
  });

  it('answers A1 as address_not_found whatever the match code says', async () => {
    const answer = await verifyWith(unmatched({ dpv_match_code: '', dpv_footnotes: 'A1' }));
    expect(answer).toMatchObject({ verdict: 'undeliverable', reason: 'address_not_found' });
  });

  it('answers dpv_match_code N without a more precise footnote as address_not_confirmed', async () => {
    const answer = await verifyWith(unmatched({ dpv_match_code: 'N', dpv_footnotes: 'AA' }));
    expect(answer).toMatchObject({ verdict: 'undeliverable', reason: 'address_not_confirmed', address: null });
  });

  it('answers a blank dpv_match_code (not checked against USPS delivery points) as address_not_confirmed', async () => {
    const answer = await verifyWith(unmatched({ dpv_match_code: '', dpv_footnotes: '', enhanced_match: 'non-postal-match' }));
    expect(answer).toMatchObject({ verdict: 'undeliverable', reason: 'address_not_confirmed' });
  });

  it('answers address_not_found when Smarty returns no candidate at all', async () => {
    const answer = await verifier().verify(input({ streetAddress1: '1 Nowhere Rd' }), new AbortController().signal);
    expect(answer).toEqual({
      verdict: 'undeliverable',
      reason: 'address_not_found',
      message: expect.any(String),
      address: null,
      changes: [],
      flags: [],
    });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('flags', () => {
  it.each<[string, SmartyCandidateFields, string]>([
    ['dpv_vacant Y', { analysis: { dpv_vacant: 'Y' } }, 'vacant'],
    ['dpv_cmra Y', { analysis: { dpv_cmra: 'Y', dpv_footnotes: 'AABBR1' } }, 'mail_receiving_agency'],
    ['dpv_no_stat Y', { analysis: { dpv_no_stat: 'Y' } }, 'no_mail_service'],
    ['DPV footnote R7', { analysis: { dpv_footnotes: 'AABBR7', dpv_no_stat: 'Y' } }, 'no_street_delivery'],
    ['footnote W#', { analysis: { footnotes: 'W#' } }, 'no_street_delivery'],
    ['record_type P', { delivery_line_1: 'PO Box 100', metadata: { record_type: 'P' } }, 'po_box'],
    ['DPV footnote F1', { last_line: 'APO AE 09001-0001', analysis: { dpv_footnotes: 'AABBF1' } }, 'military'],
    ['footnote Y#', { analysis: { footnotes: 'Y#' } }, 'military'],
    ['record_type G', { delivery_line_1: 'General Delivery', metadata: { record_type: 'G' } }, 'general_delivery'],
    ['DPV footnote G1', { delivery_line_1: 'General Delivery', analysis: { dpv_footnotes: 'AABBG1' } }, 'general_delivery'],
  ])('%s flags %s on a deliverable address', async (_case, fields, flag) => {
    const answer = await verifyWith(fields);
    expect(answer.verdict).toBe('deliverable');
    expect(answer.flags).toContain(flag);
  });

  it('lists every flag that applies, once each', async () => {
    const answer = await verifyWith({
      metadata: { record_type: 'P' },
      analysis: { dpv_vacant: 'Y', dpv_cmra: 'Y', dpv_no_stat: 'Y', dpv_footnotes: 'AABBR7F1G1', footnotes: 'W#Y#' },
    });
    expect(answer.flags).toEqual(['vacant', 'mail_receiving_agency', 'no_mail_service', 'no_street_delivery', 'po_box', 'military', 'general_delivery']);
  });

  it('keeps the flags on a corrected address', async () => {
    const answer = await verifyWith({ analysis: { footnotes: 'A#', dpv_vacant: 'Y' } });
    expect(answer).toMatchObject({ verdict: 'corrected', changes: ['zip'], flags: ['vacant'] });
  });

  it('flags nothing on an ordinary address', async () => {
    expect((await verifyWith({})).flags).toEqual([]);
  });
});

describe('when the check cannot be made: unknown, never a throw', () => {
  const unknown = (reason: string) => ({ verdict: 'unknown', reason, message: expect.any(String), address: null, changes: [], flags: [] });
  const verifyDefault = (signal: AbortSignal = new AbortController().signal, timeoutMs?: number) => {
    fake.register(STREET, [smartyCandidate()]);
    return verifier({ timeoutMs }).verify(input(), signal);
  };

  it.each([401, 402, 403])('answers %i (bad credentials, no subscription) as verifier_misconfigured', async (status) => {
    fake.failNext({ status });
    expect(await verifyDefault()).toEqual(unknown('verifier_misconfigured'));
  });

  it('answers wrong credentials, refused by the API itself, as verifier_misconfigured', async () => {
    fake.register(STREET, [smartyCandidate()]);
    const answer = await createSmartyVerifier({ authId: fake.authId, authToken: 'wrong-token', baseUrl: fake.baseUrl }).verify(
      input(),
      new AbortController().signal,
    );
    expect(answer).toEqual(unknown('verifier_misconfigured'));
  });

  it('answers 429 as verifier_rate_limited, at once and without retrying', async () => {
    fake.failNext({ status: 429, headers: { 'retry-after': '30' } });
    const started = Date.now();
    expect(await verifyDefault()).toEqual(unknown('verifier_rate_limited'));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fake.requests).toHaveLength(1);
  });

  it.each([500, 503, 504])('answers %i as verifier_unavailable, without retrying', async (status) => {
    fake.failNext({ status });
    expect(await verifyDefault()).toEqual(unknown('verifier_unavailable'));
    expect(fake.requests).toHaveLength(1);
  });

  it('answers a 5xx whose body is not JSON as verifier_unavailable', async () => {
    fake.failNext({ status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' });
    expect(await verifyDefault()).toEqual(unknown('verifier_unavailable'));
  });

  it('answers another 4xx as verifier_rejected', async () => {
    fake.failNext({ status: 422 });
    expect(await verifyDefault()).toEqual(unknown('verifier_rejected'));
  });

  it('answers a dropped connection as verifier_unavailable', async () => {
    fake.failNext({ reset: true });
    expect(await verifyDefault()).toEqual(unknown('verifier_unavailable'));
  });

  it('answers a refused connection as verifier_unavailable', async () => {
    const baseUrl = fake.baseUrl;
    await fake.close();
    const answer = await createSmartyVerifier({ authId: 'id', authToken: 'token', baseUrl }).verify(input(), new AbortController().signal);
    expect(answer).toEqual(unknown('verifier_unavailable'));
    fake = await startSmartyFake(); // for afterEach
  });

  it('answers a 200 whose body is not a candidate array as verifier_unavailable', async () => {
    fake.failNext({ status: 200, body: 'not json', contentType: 'text/plain' });
    expect(await verifyDefault()).toEqual(unknown('verifier_unavailable'));
  });

  it('answers verifier_timeout as soon as the caller aborts the signal', async () => {
    fake.failNext({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    expect(await verifyDefault(controller.signal)).toEqual(unknown('verifier_timeout'));
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers verifier_timeout without a request when the signal is already aborted', async () => {
    expect(await verifyDefault(AbortSignal.abort())).toEqual(unknown('verifier_timeout'));
    expect(fake.requests).toHaveLength(0);
  });

  it("answers verifier_timeout when the SDK's own timeout ends the wait", async () => {
    fake.failNext({ hang: true });
    expect(await verifyDefault(new AbortController().signal, 200)).toEqual(unknown('verifier_timeout'));
  });

  it('says nothing of the credentials or the address in its messages', async () => {
    for (const status of [401, 429, 503]) fake.failNext({ status });
    const answers = [await verifyDefault(), await verifyDefault(), await verifyDefault()];
    for (const answer of answers) {
      expect(answer.message).not.toContain(fake.authToken);
      expect(answer.message).not.toContain(fake.authId);
      expect(answer.message).not.toContain('Amphitheatre');
    }
  });
});
