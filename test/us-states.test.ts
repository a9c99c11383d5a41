// The one table of US states (server/domain/addresses/us-states.ts), read by the standardiser's stateCode and,
// through it, by the Smarty adapter: both must accept the same spellings, and together everything
// either of them accepted when each had a table of its own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSmartyVerifier } from '../server/addresses/smarty.js';
import { addressKind, MILITARY_STATES, standardizeAddress, STATE_CODE_BY_NAME, stateCode, US_STATES } from '../server/domain/addresses/index.js';
import type { AddressInput } from '../server/domain/addresses/index.js';

import { smartyCandidate, startSmartyFake, type SmartyFake } from './support/smarty-fake.js';

describe('the table', () => {
  it('has two-letter codes, and names in the form the lookup cleans to (upper case words, single spaces)', () => {
    for (const [code, names] of Object.entries(US_STATES)) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      for (const name of names) expect(name).toMatch(/^[A-Z0-9]+( [A-Z0-9]+)*$/);
    }
  });

  it('gives every name one code, and no name is another state code', () => {
    const seen = new Map<string, string>();
    for (const [code, names] of Object.entries(US_STATES)) {
      for (const name of names) {
        expect(seen.get(name), name).toBeUndefined();
        expect(Object.hasOwn(US_STATES, name), name).toBe(false);
        seen.set(name, code);
      }
    }
    for (const [name, code] of seen) expect(STATE_CODE_BY_NAME.get(name)).toBe(code);
  });

  it('holds the 50 states, DC, the territories, the freely associated states and the military states', () => {
    expect(Object.keys(US_STATES)).toHaveLength(50 + 1 + 5 + 3 + 3);
    expect([...MILITARY_STATES].sort()).toEqual(['AA', 'AE', 'AP']);
    for (const code of MILITARY_STATES) {
      expect(Object.hasOwn(US_STATES, code)).toBe(true);
      const address = standardizeAddress(input({ streetAddress1: '123 Main St', province: code.toLowerCase() }));
      expect(address.state).toBe(code);
      expect(addressKind(address)).toBe('military');
    }
  });
});

describe('what the Smarty adapter accepted before the tables were one', () => {
  // Its own table, as it was: each code and one name, compared after every character but a letter
  // or digit became a space.
  const SMARTY_NAMES: Record<string, string> = {
    AL: 'ALABAMA', AK: 'ALASKA', AZ: 'ARIZONA', AR: 'ARKANSAS', CA: 'CALIFORNIA', CO: 'COLORADO',
    CT: 'CONNECTICUT', DE: 'DELAWARE', DC: 'DISTRICT OF COLUMBIA', FL: 'FLORIDA', GA: 'GEORGIA',
    HI: 'HAWAII', ID: 'IDAHO', IL: 'ILLINOIS', IN: 'INDIANA', IA: 'IOWA', KS: 'KANSAS', KY: 'KENTUCKY',
    LA: 'LOUISIANA', ME: 'MAINE', MD: 'MARYLAND', MA: 'MASSACHUSETTS', MI: 'MICHIGAN', MN: 'MINNESOTA',
    MS: 'MISSISSIPPI', MO: 'MISSOURI', MT: 'MONTANA', NE: 'NEBRASKA', NV: 'NEVADA', NH: 'NEW HAMPSHIRE',
    NJ: 'NEW JERSEY', NM: 'NEW MEXICO', NY: 'NEW YORK', NC: 'NORTH CAROLINA', ND: 'NORTH DAKOTA',
    OH: 'OHIO', OK: 'OKLAHOMA', OR: 'OREGON', PA: 'PENNSYLVANIA', RI: 'RHODE ISLAND',
    SC: 'SOUTH CAROLINA', SD: 'SOUTH DAKOTA', TN: 'TENNESSEE', TX: 'TEXAS', UT: 'UTAH', VT: 'VERMONT',
    VA: 'VIRGINIA', WA: 'WASHINGTON', WV: 'WEST VIRGINIA', WI: 'WISCONSIN', WY: 'WYOMING',
    AS: 'AMERICAN SAMOA', GU: 'GUAM', MP: 'NORTHERN MARIANA ISLANDS', PR: 'PUERTO RICO',
    VI: 'VIRGIN ISLANDS', FM: 'FEDERATED STATES OF MICRONESIA', MH: 'MARSHALL ISLANDS', PW: 'PALAU',
    AA: 'ARMED FORCES AMERICAS', AE: 'ARMED FORCES EUROPE', AP: 'ARMED FORCES PACIFIC',
  };

  it.each(Object.entries(SMARTY_NAMES))('%s and %s, in any case, are still read as that code', (code, name) => {
    for (const sent of [code, code.toLowerCase(), name, name.toLowerCase()]) expect(stateCode(sent), sent).toBe(code);
  });

  it.each([
    ['New.York', 'NY'],
    ['North_Carolina', 'NC'],
    ['Rhode-Island!', 'RI'],
    ['  district of  columbia ', 'DC'],
  ])('punctuation read as a space, as it did: %s -> %s', (sent, code) => {
    expect(stateCode(sent)).toBe(code);
  });
});

describe('the standardiser and the Smarty adapter read a state alike', () => {
  let fake: SmartyFake;
  beforeEach(async () => {
    fake = await startSmartyFake();
  });
  afterEach(async () => {
    await fake.close();
  });

  /**
   * The Smarty path: a B# footnote (city and/or state spelling) with the city misspelt; the state is
   * reported as changed only when the state sent does not read as the candidate's state.
   */
  async function smartyChanges(province: string, candidateState: string): Promise<string[]> {
    const address = input({ city: 'Mountian View', province });
    fake.register(address.streetAddress1, [smartyCandidate({ analysis: { footnotes: 'B#' }, components: { state_abbreviation: candidateState } })]);
    const verifier = createSmartyVerifier({ authId: fake.authId, authToken: fake.authToken, baseUrl: fake.baseUrl });
    return (await verifier.verify(address, new AbortController().signal)).changes;
  }

  it.each([
    ['Massachusetts', 'MA'],
    ['MASSACHUSETTS', 'MA'],
    ['Mass', 'MA'],
    ['MASS', 'MA'],
    ['Mass.', 'MA'],
    ['ma', 'MA'],
    ['California', 'CA'],
    ['Calif.', 'CA'],
    ['Cal', 'CA'],
    ['N.Y.', 'NY'],
    ['N. Y.', 'NY'],
    ['New.York', 'NY'],
    ['W. Va.', 'WV'],
    ['Washington, D.C.', 'DC'],
    ['U.S. Virgin Islands', 'VI'],
    ['Armed Forces Europe', 'AE'],
    ['Armed Forces Africa', 'AE'],
    ['ap', 'AP'],
  ])('%s is %s to both', async (sent, code) => {
    expect(stateCode(sent)).toBe(code);
    expect(standardizeAddress(input({ province: sent })).state).toBe(code);
    expect(await smartyChanges(sent, code)).toEqual(['city']);
  });

  it.each(['Narnia', 'Califronia', 'Ontario'])('%s is no state to either', async (sent) => {
    expect(stateCode(sent)).toBeNull();
    expect(await smartyChanges(sent, 'CA')).toEqual(['city', 'state']);
  });
});

function input(fields: Partial<AddressInput> = {}): AddressInput {
  return {
    streetAddress1: '1600 Amphitheatre Pkwy',
    streetAddress2: null,
    city: 'Mountain View',
    province: 'CA',
    zip: '94043',
    countryCode: null,
    ...fields,
  };
}
