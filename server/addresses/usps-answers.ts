// How USPS's answers become Verifications, for the USPS Addresses API v3 verifier (./usps.ts): the
// unknown answers by reason, a defensive reading of USPS's JSON, and the verdicts for a 200 answer,
// a 400/404 error and any other status. Apart from the HTTP and the token cache so that the rules
// (which v3 fields decide what; see ./usps.ts) read on their own.
import { type AddressChange, type AddressFlag, type AddressInput, type DeliveryAddress, MILITARY_STATES, standardizeAddress, type StandardizedAddress, unknownVerification, type Verification } from '../domain/addresses/index.js';



/** The documented 400/404 messages of GET /addresses/v3/address (Addresses 3.x OpenAPI, components.examples). */
export const ERROR_MESSAGES = {
  noMatch: 'There is no match for the address requested.',
  invalidDeliveryAddress: 'The address requested is an invalid delivery address.',
  multipleAddresses: 'More than one address was found matching the requested address.',
  insufficient: 'The address information in the request is insufficient to match.',
  invalidState: 'The state code in the request is missing or invalid.',
  invalidCity: 'The city in the request is missing or invalid.',
  cityStateUnverifiable: 'The city and state are missing or together unverifiable.',
} as const;

/** Correction codes (Addresses 3.x, AddressCorrections). */
const CORRECTION_DEFAULT_ADDRESS = '32'; // found, but more information (apartment, suite, box) is needed
const CORRECTION_MULTIPLE_MATCHES = '22'; // several addresses match and no default exists

// ---------------------------------------------------------------------------------------------
// The answers, by reason. Messages never repeat the address.

export const answers = {
  timeout: () => unknownVerification('verifier_timeout', 'USPS did not answer in time; nothing is known about the address.'),
  unavailable: () => unknownVerification('verifier_unavailable', 'USPS could not be reached; nothing is known about the address.'),
  unexpected: () =>
    unknownVerification('verifier_unavailable', 'USPS gave an answer this service could not read; nothing is known about the address.'),
  rateLimited: () =>
    unknownVerification('verifier_rate_limited', 'USPS is limiting the rate of requests; nothing is known about the address.'),
  misconfigured: () =>
    unknownVerification(
      'verifier_misconfigured',
      'USPS refused this service\'s credentials (check USPS_CLIENT_ID and USPS_CLIENT_SECRET); nothing is known about the address.',
    ),
  ambiguous: () =>
    unknownVerification(
      'ambiguous_address',
      'USPS found more than one address matching this one and cannot tell which is meant; add detail such as a directional or a unit.',
    ),
  insufficient: () =>
    unknownVerification('insufficient_address', 'The address has too little information for USPS to match it (it needs a state, and a city or a ZIP code).'),
  rejected: () => unknownVerification('address_rejected', 'USPS rejected the city, state or ZIP code as sent, so the address was not checked.'),
  outsideUs: () => unknownVerification('outside_us', 'Only US addresses are verified; this one was not checked.'),
  noDpv: () =>
    unknownVerification('dpv_not_returned', 'USPS standardised the address but gave no delivery-point confirmation; nothing is known about deliverability.'),
  error: () => unknownVerification('verifier_unavailable', 'The USPS check failed unexpectedly; nothing is known about the address.'),
};

function notDeliverable(reason: string, message: string): Verification {
  return { verdict: 'undeliverable', reason, message, address: null, changes: [], flags: [] };
}

function unitRequired(reason: 'secondary_missing' | 'secondary_unrecognized'): Verification {
  const message =
    reason === 'secondary_missing'
      ? 'USPS found the building, but delivery needs an apartment, suite or unit number, and none was given.'
      : 'USPS found the building, but does not recognise the apartment, suite or unit number given.';
  return { verdict: 'unit_required', reason, message, address: null, changes: [], flags: [] };
}

// ---------------------------------------------------------------------------------------------
// Reading USPS's JSON, defensively: every field may be missing, null or the wrong type.

interface UspsCode {
  code: string;
  text: string;
}

interface UspsAnswer {
  streetAddress: string | null;
  secondaryAddress: string | null;
  city: string | null;
  state: string | null;
  ZIPCode: string | null;
  ZIPPlus4: string | null;
  DPVConfirmation: string | null;
  DPVCMRA: string | null;
  vacant: string | null;
  carrierRoute: string | null;
  corrections: UspsCode[];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed.toUpperCase();
}

function codes(value: unknown): UspsCode[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((entry) => ({
    code: typeof entry.code === 'string' || typeof entry.code === 'number' ? String(entry.code).trim() : '',
    text: typeof entry.text === 'string' ? entry.text : '',
  }));
}

/** The 200 answer. Also reads the pre-August-2025 names (addressAdditionalInfo, addressCorrections) USPS's examples once showed. */
function readAnswer(body: unknown): UspsAnswer | null {
  if (!isRecord(body) || !isRecord(body.address)) return null;
  const address = body.address;
  const info = isRecord(body.additionalInfo) ? body.additionalInfo : isRecord(body.addressAdditionalInfo) ? body.addressAdditionalInfo : {};
  return {
    streetAddress: text(address.streetAddress),
    secondaryAddress: text(address.secondaryAddress),
    city: text(address.city),
    state: text(address.state),
    ZIPCode: text(address.ZIPCode),
    ZIPPlus4: text(address.ZIPPlus4),
    DPVConfirmation: text(info.DPVConfirmation),
    DPVCMRA: text(info.DPVCMRA),
    vacant: text(info.vacant),
    carrierRoute: text(info.carrierRoute),
    corrections: codes(body.corrections ?? body.addressCorrections),
  };
}

/** error.message of a USPS ErrorMessage body, or '' when there is none. */
function errorMessage(body: unknown): string {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
  return '';
}

// ---------------------------------------------------------------------------------------------
// Mapping a 200 answer to a verdict.

/** Flags for a confirmed delivery point. */
function flagsOf(answer: UspsAnswer): AddressFlag[] {
  const flags: AddressFlag[] = [];
  // Addresses 3.x: vacant Y = "The address is not occupied" (the 3.0.2 text had Y and N swapped).
  if (answer.vacant === 'Y') flags.push('vacant');
  if (answer.DPVCMRA === 'Y') flags.push('mail_receiving_agency');
  const route = answer.carrierRoute ?? '';
  if (route.startsWith('B')) flags.push('po_box'); // B### = PO Box section
  if (route.startsWith('G')) flags.push('general_delivery'); // G### = General Delivery
  // R777 (physical address, no USPS delivery) and R779 (USPS does not deliver there); mail goes to a PO Box instead.
  if (route === 'R777' || route === 'R779') flags.push('no_street_delivery');
  if (answer.state !== null && MILITARY_STATES.has(answer.state)) flags.push('military');
  return flags;
}

/** The fields of the standardised answer that differ from the standardised input. A ZIP+4 merely added is no change. */
function changesBetween(sent: StandardizedAddress, answered: StandardizedAddress): AddressChange[] {
  const changes: AddressChange[] = [];
  if (sent.street !== answered.street) changes.push('street');
  if ((sent.secondary ?? null) !== (answered.secondary ?? null)) changes.push('secondary');
  if ((sent.city ?? null) !== (answered.city ?? null)) changes.push('city');
  if ((sent.state ?? null) !== (answered.state ?? null)) changes.push('state');
  if ((sent.zip5 ?? null) !== (answered.zip5 ?? null)) changes.push('zip');
  return changes;
}

function confirmed(input: AddressInput, answer: UspsAnswer): Verification {
  const { streetAddress, city, state, ZIPCode } = answer;
  if (streetAddress === null || city === null || state === null || ZIPCode === null || !/^\d{5}$/.test(ZIPCode)) {
    return answers.unexpected();
  }
  const zip4 = answer.ZIPPlus4 !== null && /^\d{4}$/.test(answer.ZIPPlus4) ? answer.ZIPPlus4 : null;
  const address: DeliveryAddress = {
    streetAddress1: streetAddress,
    streetAddress2: answer.secondaryAddress,
    city,
    province: state,
    zip: ZIPCode,
    zip4,
  };
  const answered = standardizeAddress({
    streetAddress1: streetAddress,
    streetAddress2: answer.secondaryAddress,
    city,
    province: state,
    zip: zip4 === null ? ZIPCode : `${ZIPCode}-${zip4}`,
    countryCode: null,
  });
  const changes = changesBetween(standardizeAddress(input), answered);
  const flags = flagsOf(answer);
  if (changes.length === 0) {
    return { verdict: 'deliverable', reason: 'dpv_confirmed', message: 'USPS confirmed the address as a delivery point, as sent.', address, changes, flags };
  }
  return {
    verdict: 'corrected',
    reason: 'address_corrected',
    message: `USPS confirmed the address as a delivery point after correcting it (${changes.join(', ')}); use the address returned.`,
    address,
    changes,
    flags,
  };
}

/** Maps a 200 answer. Order matters: an ambiguous match says nothing; a missing unit outranks the DPV code. */
export function mapUspsAnswer(input: AddressInput, body: unknown): Verification {
  const answer = readAnswer(body);
  if (answer === null) return answers.unexpected();
  const correctionCodes = new Set(answer.corrections.map((correction) => correction.code));
  if (correctionCodes.has(CORRECTION_MULTIPLE_MATCHES)) return answers.ambiguous();
  if (correctionCodes.has(CORRECTION_DEFAULT_ADDRESS) || answer.DPVConfirmation === 'D') return unitRequired('secondary_missing');
  switch (answer.DPVConfirmation) {
    case 'S':
      return unitRequired('secondary_unrecognized');
    case 'N':
      return notDeliverable('not_a_delivery_point', 'USPS knows the street, but not this address as a delivery point; nothing can be delivered to it.');
    case 'Y':
      return confirmed(input, answer);
    default:
      return answers.noDpv();
  }
}

/** Maps a 400 or 404 by its message (USPS lists the address errors under both statuses). */
export function mapUspsError(status: number, body: unknown): Verification {
  const message = errorMessage(body).toLowerCase();
  if (message.includes('no match')) {
    return notDeliverable('address_not_found', 'USPS has no record of this address.');
  }
  if (message.includes('invalid delivery address')) {
    return notDeliverable('invalid_delivery_address', 'USPS says this is not a valid delivery address.');
  }
  if (message.includes('more than one')) return answers.ambiguous();
  if (message.includes('insufficient')) return answers.insufficient();
  // The state code, the city, or the pair was refused: about the address as sent, but no claim about delivery.
  if (status === 400 && (message.includes('state') || message.includes('city'))) return answers.rejected();
  // Anything else (a gateway 404 from a wrong base URL, an unknown text) claims nothing.
  return answers.unexpected();
}

/** Failures common to both endpoints. */
export function transportFailure(status: number): Verification {
  if (status === 429) return answers.rateLimited();
  if (status === 401 || status === 403) return answers.misconfigured();
  if (status >= 500) return answers.unavailable();
  return answers.unexpected();
}
