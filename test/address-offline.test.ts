// The offline verifier (server/addresses/offline.ts, docs/addresses.md): every verdict, reason and
// flag it can give, with real ZIP codes from the zipcodes package's data. It never answers
// deliverable, corrected or unit_required.
import { describe, expect, it } from 'vitest';
import { createOfflineVerifier } from '../server/addresses/offline.js';
import type { AddressInput, Verification } from '../server/domain/addresses/index.js';

const verifier = createOfflineVerifier();
const signal = new AbortController().signal;

function address(fields: Partial<AddressInput>): AddressInput {
  return { streetAddress1: '1 Main St', streetAddress2: null, city: null, province: null, zip: null, countryCode: null, ...fields };
}
const verify = (fields: Partial<AddressInput>): Promise<Verification> => verifier.verify(address(fields), signal);
const googleplex = { streetAddress1: '1600 Amphitheatre Parkway', city: 'Mountain View', province: 'CA', zip: '94043' };

async function expectUndeliverable(fields: Partial<AddressInput>, reason: string): Promise<Verification> {
  const answer = await verify(fields);
  expect(answer).toMatchObject({ verdict: 'undeliverable', reason, address: null, changes: [] });
  expect(answer.message.length).toBeGreaterThan(0);
  return answer;
}
async function expectUnknown(fields: Partial<AddressInput>): Promise<Verification> {
  const answer = await verify(fields);
  expect(answer).toMatchObject({ verdict: 'unknown', reason: 'not_verifiable_offline', address: null, changes: [] });
  return answer;
}

describe('the offline verifier', () => {
  it('is named offline', () => {
    expect(verifier.name).toBe('offline');
  });

  it('answers unknown, not deliverable, for a well-formed address it cannot confirm', async () => {
    const answer = await verify(googleplex);
    expect(answer).toEqual<Verification>({
      verdict: 'unknown',
      reason: 'not_verifiable_offline',
      message:
        'The address passed the offline format checks (ZIP code, state and street line), but whether mail can be delivered there cannot be confirmed without an address verifier.',
      address: null,
      changes: [],
      flags: [],
    });
  });

  it.each([
    ['Mountain View CA, ZIP+4', { ...googleplex, zip: '94043-1351' }],
    ['New York NY', { streetAddress1: '20 W 34th St', city: 'New York', province: 'NY', zip: '10001' }],
    ['state spelled out', { ...googleplex, province: 'california' }],
    ['ZIP only', { streetAddress1: '20 W 34th St', zip: '10001' }],
    ['city and state only', { streetAddress1: '20 W 34th St', city: 'New York', province: 'New York' }],
    ['a PO-box-only ZIP (10008 New York)', { streetAddress1: 'PO Box 1234', city: 'New York', province: 'NY', zip: '10008' }],
    ['a unique ZIP (20500, the White House)', { streetAddress1: '1600 Pennsylvania Ave NW', city: 'Washington', province: 'DC', zip: '20500' }],
    ['Anchorage AK', { streetAddress1: '632 W 6th Ave', city: 'Anchorage', province: 'AK', zip: '99501' }],
    ['a house number written as a word', { streetAddress1: 'One Microsoft Way', city: 'Redmond', province: 'WA', zip: '98052' }],
    ['a firm line before the street', { streetAddress1: 'Acme Corp', streetAddress2: '123 Main St', city: 'Mountain View', province: 'CA', zip: '94043' }],
    ['a rural route', { streetAddress1: 'RR 2 Box 152', city: 'Mountain View', province: 'CA', zip: '94043' }],
    ['a Puerto Rico urbanization line with no number', { streetAddress1: 'Urb Las Gladiolas', city: 'San Juan', province: 'PR', zip: '00926' }],
  ])('unknown: %s', async (_name, fields) => {
    await expectUnknown(fields);
  });

  it('does not check the city, which the data cannot support: one ZIP takes several city names', async () => {
    await expectUnknown({ ...googleplex, city: 'Oakland' });
    await expectUnknown({ streetAddress1: '6801 Hollywood Blvd', city: 'Hollywood', province: 'CA' });
    await expectUnknown({ streetAddress1: '1 Main St', city: 'St Louis', province: 'MO' });
  });

  it('answers unknown outside the US without checking', async () => {
    const answer = await verify({ streetAddress1: '24 Sussex Dr', city: 'Ottawa', province: 'Ontario', zip: 'K1M 1M4', countryCode: 'CA' });
    expect(answer).toMatchObject({ verdict: 'unknown', reason: 'outside_us', flags: [] });
  });
});

describe('zip_malformed', () => {
  it.each(['9404', '940431', '94043-13', 'ABCDE', '2101', '94043-'])('%s', async (zip) => {
    const answer = await expectUndeliverable({ ...googleplex, zip }, 'zip_malformed');
    expect(answer.message).toBe(`The ZIP code "${zip}" is not a ZIP code: it must be 5 digits, or 9 digits as ZIP+4 (12345-6789).`);
  });
});

describe('state_unknown', () => {
  it.each(['Ontario', 'XX', 'Narnia'])('%s', async (province) => {
    const answer = await expectUndeliverable({ ...googleplex, province }, 'state_unknown');
    expect(answer.message).toBe(`The state "${province}" is not a US state, territory or military state (AA, AE, AP).`);
  });
});

describe('zip_not_found', () => {
  it('00000: no ZIP begins with 000', async () => {
    const answer = await expectUndeliverable({ zip: '00000' }, 'zip_not_found');
    expect(answer.message).toBe('The ZIP code 00000 does not exist: no US ZIP code begins with 000.');
  });

  it('21300: no ZIP begins with 213', async () => {
    await expectUndeliverable({ province: 'MD', zip: '21300' }, 'zip_not_found');
  });

  it('a ZIP the data lacks in a prefix that exists is not called not found (75036 Frisco TX, 75072 McKinney TX)', async () => {
    await expectUnknown({ city: 'Frisco', province: 'TX', zip: '75036' });
    await expectUnknown({ city: 'McKinney', province: 'TX', zip: '75072' });
  });
});

describe('zip_state_mismatch', () => {
  it('94043 with state NY', async () => {
    const answer = await expectUndeliverable({ ...googleplex, province: 'NY' }, 'zip_state_mismatch');
    expect(answer.message).toBe('The ZIP code 94043 is in CA, not in NY.');
  });

  it('10001 with state New Jersey', async () => {
    await expectUndeliverable({ city: 'New York', province: 'New Jersey', zip: '10001' }, 'zip_state_mismatch');
  });

  it('a military ZIP with a state', async () => {
    const answer = await expectUndeliverable({ city: 'Sacramento', province: 'CA', zip: '09021' }, 'zip_state_mismatch');
    expect(answer.message).toBe('The ZIP code 09021 is in AE, not in CA.');
  });

  it('a ZIP missing from the data, by the state of its prefix (75072 is in TX)', async () => {
    const answer = await expectUndeliverable({ city: 'McKinney', province: 'CA', zip: '75072' }, 'zip_state_mismatch');
    expect(answer.message).toBe('The ZIP code 75072 is not in CA: ZIP codes beginning with 750 are in TX.');
  });

  it('accepts either state for a ZIP that crosses a state line (42223 Fort Campbell KY/TN)', async () => {
    await expectUnknown({ city: 'Fort Campbell', province: 'KY', zip: '42223' });
    await expectUnknown({ city: 'Fort Campbell', province: 'TN', zip: '42223' });
    await expectUndeliverable({ city: 'Fort Campbell', province: 'OH', zip: '42223' }, 'zip_state_mismatch');
  });

  it('accepts Fishers Island NY in a Connecticut prefix (06390)', async () => {
    await expectUnknown({ city: 'Fishers Island', province: 'NY', zip: '06390' });
    await expectUndeliverable({ city: 'Fishers Island', province: 'CT', zip: '06390' }, 'zip_state_mismatch');
  });
});

describe('military', () => {
  it.each([
    ['96615 AP (FPO)', { streetAddress1: 'PSC 1234 Box 5678', city: 'FPO', province: 'AP', zip: '96615' }],
    ['09021 AE (APO)', { streetAddress1: 'Unit 2050 Box 4190', city: 'APO', province: 'AE', zip: '09021' }],
    ['34001 AA (APO)', { streetAddress1: 'CMR 480 Box 123', city: 'APO', province: 'AA', zip: '34001' }],
    ['a military ZIP missing from the data (09497 AE)', { streetAddress1: 'PSC 1234 Box 5678', city: 'DPO', province: 'AE', zip: '09497' }],
    ['a military ZIP missing from the data (96389 AP)', { streetAddress1: 'PSC 1234 Box 5678', city: 'FPO', province: 'AP', zip: '96389' }],
    ['an AE ZIP in an unused prefix (09912)', { streetAddress1: 'Unit 2050 Box 4190', city: 'APO', province: 'AE', zip: '09912' }],
    ['a ship, by its state', { streetAddress1: 'USS Ronald Reagan', city: 'FPO', province: 'AP', zip: '96616' }],
  ])('unknown, flagged military: %s', async (_name, fields) => {
    const answer = await expectUnknown(fields);
    expect(answer.flags).toEqual(['military']);
  });

  it.each([
    ['AE with an AP ZIP', 'AE', '96615', 'The ZIP code 96615 is not a military ZIP code of AE; AE addresses use ZIP codes 090xx to 099xx.'],
    ['AP with a California ZIP', 'AP', '94043', 'The ZIP code 94043 is not a military ZIP code of AP; AP addresses use ZIP codes 962xx to 966xx.'],
    ['AA with an AE ZIP', 'AA', '09021', 'The ZIP code 09021 is not a military ZIP code of AA; AA addresses use ZIP codes 340xx.'],
    ['AP with 96799 (American Samoa)', 'AP', '96799', 'The ZIP code 96799 is not a military ZIP code of AP; AP addresses use ZIP codes 962xx to 966xx.'],
  ])('military_zip_mismatch: %s', async (_name, province, zip, message) => {
    const answer = await expectUndeliverable({ streetAddress1: 'PSC 1234 Box 5678', city: 'APO', province, zip }, 'military_zip_mismatch');
    expect(answer.message).toBe(message);
    expect(answer.flags).toEqual(['military']);
  });

  it('flags military from the unit line, the city or the ZIP when no state is sent', async () => {
    expect((await expectUnknown({ streetAddress1: 'PSC 1234 Box 5678', zip: '09021' })).flags).toEqual(['military']);
    expect((await expectUnknown({ streetAddress1: 'CMR 480 Box 123', city: 'APO', zip: '09021' })).flags).toEqual(['military']);
  });
});

describe('street_missing_number', () => {
  it.each([
    ['Main Street', null],
    ['Main St Apt 4', null],
    ['Amphitheatre Parkway', 'Suite 100'],
  ])('%s', async (streetAddress1, streetAddress2) => {
    const answer = await expectUndeliverable({ ...googleplex, streetAddress1, streetAddress2 }, 'street_missing_number');
    expect(answer.message).toMatch(/has no house number/);
  });

  it('gives the exact message', async () => {
    const answer = await expectUndeliverable({ ...googleplex, streetAddress1: 'Main Street' }, 'street_missing_number');
    expect(answer.message).toBe(
      'The street line "MAIN ST" has no house number; a street address needs one (PO Box, General Delivery, military and rural route addresses excepted).',
    );
  });

  it.each([
    ['PO Box', 'PO Box 12'],
    ['General Delivery', 'General Delivery'],
    ['highway contract route', 'HC 68 Box 23A'],
  ])('not for a %s', async (_name, streetAddress1) => {
    await expectUnknown({ ...googleplex, streetAddress1 });
  });
});

describe('flags', () => {
  it('po_box on unknown and on undeliverable', async () => {
    expect((await expectUnknown({ ...googleplex, streetAddress1: 'P.O. Box 12' })).flags).toEqual(['po_box']);
    expect((await expectUndeliverable({ ...googleplex, streetAddress1: 'Post Office Box 12', province: 'NY' }, 'zip_state_mismatch')).flags).toEqual([
      'po_box',
    ]);
  });

  it('general_delivery on unknown and on undeliverable', async () => {
    expect((await expectUnknown({ ...googleplex, streetAddress1: 'General Delivery' })).flags).toEqual(['general_delivery']);
    expect((await expectUndeliverable({ ...googleplex, streetAddress1: 'General Delivery', zip: '00000' }, 'zip_not_found')).flags).toEqual([
      'general_delivery',
    ]);
  });

  it('none on an ordinary street address', async () => {
    expect((await expectUnknown(googleplex)).flags).toEqual([]);
  });
});

describe('answers for any input', () => {
  const odd: Array<Partial<AddressInput>> = [
    { streetAddress1: '' },
    { streetAddress1: '...,,,###' },
    { streetAddress1: '🏠 Main St', city: '🏙', province: '🌴', zip: '🔢' },
    { streetAddress1: 'x'.repeat(5000), city: 'y'.repeat(5000), province: 'z'.repeat(5000), zip: '9'.repeat(5000) },
    { streetAddress1: '#', streetAddress2: '#', city: '-', province: '.', zip: '-' },
    { streetAddress1: 'constructor', city: 'toString', province: '__proto__', zip: '12345' },
  ];

  it.each(odd)('never throws, never claims deliverable: %#', async (fields) => {
    const answer = await verify(fields);
    expect(['unknown', 'undeliverable']).toContain(answer.verdict);
    expect(answer.address).toBeNull();
    expect(answer.changes).toEqual([]);
  });

  it('keeps the message short when the input is long', async () => {
    const answer = await verify({ ...googleplex, province: 'z'.repeat(5000) });
    expect(answer.reason).toBe('state_unknown');
    expect(answer.message.length).toBeLessThan(200);
  });
});
