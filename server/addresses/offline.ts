// The offline verifier (docs/addresses.md, "Offline verifier (default)"): the default when no
// USPS or Smarty credentials are set. No network, no account. It standardises the address (USPS
// Publication 28, ../domain/addresses/address-standardization.ts) and checks it against the ZIP code data of
// the `zipcodes` package. It cannot confirm that a delivery point exists, so it never answers
// deliverable, corrected or unit_required. Exactly what it checks, first failure wins:
//
//   zip_malformed          a ZIP was sent and is not 5 digits or 9 digits (ZIP+4, hyphen optional).
//   state_unknown          a province was sent and names no US state, DC, territory, freely
//                          associated state (FM, MH, PW) or military state (AA, AE, AP).
//   military_zip_mismatch  the state is AA, AE or AP and the ZIP is outside its military range
//                          (AA 340xx, AE 090xx-099xx, AP 962xx-966xx).
//   zip_not_found          the ZIP begins with a three-digit prefix that no ZIP in the data has
//                          (e.g. 000, 001, 213, 269). Military ranges are never called not found.
//   zip_state_mismatch     the ZIP is in the data under another state than the one sent; or the
//                          ZIP is missing from the data and no ZIP of its three-digit prefix is in
//                          the state sent. The ZIPs the Census Bureau shows crossing a state line
//                          accept either state (CROSS_STATE_ZIPS).
//   street_missing_number  the street line is an ordinary street (not PO Box, General Delivery,
//                          military, rural route or highway contract) with no digit at all and no
//                          house number written as a word ("One Microsoft Way"). Not applied in
//                          the territories and freely associated states, whose addresses (e.g.
//                          Puerto Rico urbanizations) often carry no house number.
//   otherwise unknown, reason not_verifiable_offline.
//
// What it deliberately does not check, because the data cannot support it:
//   - that a ZIP missing from the data does not exist: the data lacks real ZIPs (75036 and 75072
//     in Texas, 85144 in Arizona, created 2023; 96389 AP, 09497 AE), so only an unused prefix is
//     a certain "not found";
//   - the city against the ZIP or the state: the data has one city name per ZIP, while the Postal
//     Service accepts several (94608 is listed as Emeryville, Oakland is also accepted; "St Louis",
//     "Ft Worth" and "Hollywood, CA" have no entry at all), so zip_city_mismatch and
//     city_state_not_found would hold good addresses;
//   - anything about the street itself, the unit, vacancy or whether mail is delivered there.
//
// Flags, on any verdict, from what the text shows: po_box (a PO Box line), general_delivery,
// military (state AA/AE/AP, a PSC/CMR/UNIT ... BOX line, city APO/FPO/DPO, or a ZIP in a military
// range). It never throws: any input gets an answer.
import zipcodes from 'zipcodes';
import { type AddressFlag, type AddressInput, addressKind, type AddressVerifier, settleVerification, standardizeAddress, type StandardizedAddress, unknownVerification, type Verification } from '../domain/addresses/index.js';


/** ZIP ranges, by three-digit prefix, of the military states (Pub 28, military addresses). */
const MILITARY_ZIP_PREFIXES: Record<string, { from: number; to: number; range: string }> = {
  AA: { from: 340, to: 340, range: '340xx' },
  AE: { from: 90, to: 99, range: '090xx to 099xx' },
  AP: { from: 962, to: 966, range: '962xx to 966xx' },
};

/**
 * ZIPs that serve addresses in two states: the 13 five-digit ZCTAs that the Census Bureau's 2010
 * ZCTA-to-place relationship file places in two states. Either state is accepted with them.
 */
const CROSS_STATE_ZIPS: Record<string, readonly string[]> = {
  '02861': ['RI', 'MA'],
  '42223': ['KY', 'TN'],
  '59221': ['MT', 'ND'],
  '63673': ['MO', 'IL'],
  '71749': ['AR', 'LA'],
  '73949': ['OK', 'TX'],
  '81137': ['CO', 'NM'],
  '84536': ['UT', 'AZ'],
  '86044': ['AZ', 'UT'],
  '86515': ['AZ', 'NM'],
  '88063': ['NM', 'TX'],
  '89439': ['NV', 'CA'],
  '97635': ['OR', 'CA'],
};

/** Places whose addresses need not carry a house number: territories and freely associated states. */
const NO_HOUSE_NUMBER_RULE = new Set(['PR', 'VI', 'GU', 'AS', 'MP', 'FM', 'MH', 'PW', 'AA', 'AE', 'AP']);
const MILITARY_CITIES = new Set(['APO', 'FPO', 'DPO']);
/** House numbers written as words; such a line has a number ("One Microsoft Way"). */
const NUMBER_WORDS = new Set([
  'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN', 'ELEVEN', 'TWELVE',
  'THIRTEEN', 'FOURTEEN', 'FIFTEEN', 'SIXTEEN', 'SEVENTEEN', 'EIGHTEEN', 'NINETEEN', 'TWENTY',
  'THIRTY', 'FORTY', 'FIFTY', 'SIXTY', 'SEVENTY', 'EIGHTY', 'NINETY', 'HUNDRED',
]);

const NOT_VERIFIABLE_MESSAGE =
  'The address passed the offline format checks (ZIP code, state and street line), but whether mail can be delivered there cannot be confirmed without an address verifier.';

interface ZipData {
  /** US five-digit ZIP to its state. */
  stateOf: Map<string, string>;
  /** Three-digit prefix to the states of its ZIPs. */
  prefixStates: Map<string, Set<string>>;
}

let zipData: ZipData | null = null;

/** Built once, on first use, from the US entries of the package (it also holds Canadian ones). */
function loadZipData(): ZipData {
  if (zipData) return zipData;
  const stateOf = new Map<string, string>();
  const prefixStates = new Map<string, Set<string>>();
  for (const entry of Object.values(zipcodes.codes)) {
    if (entry.country !== 'US' || !/^[0-9]{5}$/.test(entry.zip)) continue;
    stateOf.set(entry.zip, entry.state);
    const prefix = entry.zip.slice(0, 3);
    const states = prefixStates.get(prefix) ?? new Set<string>();
    states.add(entry.state);
    prefixStates.set(prefix, states);
  }
  zipData = { stateOf, prefixStates };
  return zipData;
}

function militaryStateOfZip(zip5: string): string | null {
  const prefix = Number(zip5.slice(0, 3));
  for (const [state, { from, to }] of Object.entries(MILITARY_ZIP_PREFIXES)) {
    if (prefix >= from && prefix <= to) return state;
  }
  return null;
}

function undeliverable(reason: string, message: string, flags: AddressFlag[]): Verification {
  return settleVerification({ verdict: 'undeliverable', reason, message, address: null, changes: [], flags });
}

const quoted = (value: string): string => JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);

function flagsOf(standard: StandardizedAddress): AddressFlag[] {
  const flags: AddressFlag[] = [];
  const kind = addressKind({ ...standard, state: null });
  if (kind === 'po_box') flags.push('po_box');
  if (kind === 'general_delivery') flags.push('general_delivery');
  const military =
    kind === 'military' ||
    addressKind(standard) === 'military' ||
    (standard.city !== null && MILITARY_CITIES.has(standard.city)) ||
    (standard.zip5 !== null && militaryStateOfZip(standard.zip5) !== null);
  if (military) flags.push('military');
  return flags;
}

function hasHouseNumber(street: string): boolean {
  return /[0-9]/.test(street) || NUMBER_WORDS.has(street.split(' ')[0] ?? '');
}

/** The first structural failure, or null when the address passes every offline check. */
function structuralFailure(input: AddressInput, standard: StandardizedAddress): { reason: string; message: string } | null {
  const sentZip = input.zip?.trim() ?? '';
  const sentProvince = input.province?.trim() ?? '';
  const { zip5, state } = standard;

  if (sentZip !== '' && zip5 === null) {
    return { reason: 'zip_malformed', message: `The ZIP code ${quoted(sentZip)} is not a ZIP code: it must be 5 digits, or 9 digits as ZIP+4 (12345-6789).` };
  }
  if (sentProvince !== '' && state === null) {
    return { reason: 'state_unknown', message: `The state ${quoted(sentProvince)} is not a US state, territory or military state (AA, AE, AP).` };
  }

  const data = loadZipData();
  const zipMilitaryState = zip5 === null ? null : militaryStateOfZip(zip5);
  if (zip5 !== null && state !== null && Object.hasOwn(MILITARY_ZIP_PREFIXES, state) && zipMilitaryState !== state) {
    const { range } = MILITARY_ZIP_PREFIXES[state] as { range: string };
    return { reason: 'military_zip_mismatch', message: `The ZIP code ${zip5} is not a military ZIP code of ${state}; ${state} addresses use ZIP codes ${range}.` };
  }
  const prefix = zip5?.slice(0, 3) ?? '';
  const prefixStates = data.prefixStates.get(prefix);
  if (zip5 !== null && zipMilitaryState === null && !prefixStates) {
    return { reason: 'zip_not_found', message: `The ZIP code ${zip5} does not exist: no US ZIP code begins with ${prefix}.` };
  }
  if (zip5 !== null && state !== null && zipMilitaryState !== state && !(CROSS_STATE_ZIPS[zip5] ?? []).includes(state)) {
    const zipState = data.stateOf.get(zip5);
    if (zipState !== undefined && zipState !== state) {
      return { reason: 'zip_state_mismatch', message: `The ZIP code ${zip5} is in ${zipState}, not in ${state}.` };
    }
    if (zipState === undefined && prefixStates && !prefixStates.has(state)) {
      const states = [...prefixStates].sort().join(', ');
      return { reason: 'zip_state_mismatch', message: `The ZIP code ${zip5} is not in ${state}: ZIP codes beginning with ${prefix} are in ${states}.` };
    }
  }

  const placeState = state ?? (zip5 === null ? null : (data.stateOf.get(zip5) ?? zipMilitaryState));
  const numberRuleApplies = placeState === null || !NO_HOUSE_NUMBER_RULE.has(placeState);
  if (numberRuleApplies && addressKind(standard) === 'street' && !hasHouseNumber(standard.street)) {
    const line = standard.street === '' ? 'The street line is empty' : `The street line ${quoted(standard.street)} has no house number`;
    return { reason: 'street_missing_number', message: `${line}; a street address needs one (PO Box, General Delivery, military and rural route addresses excepted).` };
  }
  return null;
}

export function createOfflineVerifier(): AddressVerifier {
  return {
    name: 'offline',
    local: true,
    async verify(address: AddressInput): Promise<Verification> {
      const country = address.countryCode?.trim().toUpperCase() ?? '';
      if (country !== '' && country !== 'US') {
        return unknownVerification('outside_us', 'Only US addresses are verified; this one was not checked.');
      }
      const standard = standardizeAddress(address);
      const flags = flagsOf(standard);
      const failure = structuralFailure(address, standard);
      if (failure) return undeliverable(failure.reason, failure.message, flags);
      return settleVerification({ ...unknownVerification('not_verifiable_offline', NOT_VERIFIABLE_MESSAGE), flags });
    },
  };
}
