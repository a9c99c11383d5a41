// The USPS Addresses API v3 verifier (docs/addresses.md; the rules every answer obeys: README,
// Address verification).
//
// Two calls, both answering JSON:
//   - POST {base}/oauth2/v3/token, an OAuth 2.0 client-credentials grant: grant_type, client_id and
//     client_secret, sent form-encoded (the media type the OAuth 2.0 v3 spec declares, and RFC 6749
//     §4.4; USPS's own curl examples send the same fields as JSON, which it also accepts). It answers
//     access_token and expires_in in seconds (documented as 8 hours; USPS's examples show it both as
//     a number and as a numeric string, so both are read).
//   - GET {base}/addresses/v3/address?streetAddress=&secondaryAddress=&city=&state=&ZIPCode=&ZIPPlus4=
//     with "Authorization: Bearer <token>". state is required (two letters), and so is a city or a
//     ZIP Code. The answer is { firm, address { streetAddress, secondaryAddress, city, state, ZIPCode,
//     ZIPPlus4, ... }, additionalInfo { deliveryPoint, carrierRoute, DPVConfirmation, DPVCMRA,
//     business, centralDeliveryPoint, vacant }, corrections [{code, text}], matches [{code, text}],
//     warnings [string] }. Errors are { apiVersion, error { code, message, errors[] } }, and the
//     address errors are told apart only by their message (the documented texts are in
//     ERROR_MESSAGES below).
//
// What v3 does NOT give: the DPV footnotes (AA, BB, C1, M1, N1, ...) and the record type (S, H, P, R,
// G, F) that Web Tools and CASS vendors return. So nothing here can say "primary number missing" versus
// "primary number out of range", or tell a firm record from a street record; the verdicts below use only
// DPVConfirmation, the correction codes, the carrier route, the CMRA and vacant indicators, the state,
// and the 404 messages.
//
// Nothing here logs: not the address, not the credentials, not the token.
import zipcodes from 'zipcodes';
import { standardizeAddress, type StandardizedAddress } from '../domain/addresses/address-standardization.js';
import { MILITARY_STATES } from '../domain/addresses/us-states.js';
import {
  unknownVerification,
  type AddressChange,
  type AddressFlag,
  type AddressInput,
  type AddressVerifier,
  type DeliveryAddress,
  type Verification,
} from '../domain/addresses/addresses.js';

export const DEFAULT_USPS_BASE_URL = 'https://apis.usps.com';

export interface UspsVerifierOptions {
  /** The app's Consumer Key from the USPS developer portal. */
  clientId: string;
  /** The app's Consumer Secret. */
  clientSecret: string;
  /** API root without a path: https://apis.usps.com by default; a test environment or a local fake otherwise. */
  baseUrl?: string;
  /** The clock the token cache reads; tests inject one. */
  now?: () => Date;
}

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

/** A token is refreshed this long before USPS says it expires (less for very short-lived tokens). */
const REFRESH_MARGIN_MS = 60_000;
/** When the token answer carries no usable expires_in. */
const FALLBACK_TOKEN_LIFETIME_S = 3_600;

/** Correction codes (Addresses 3.x, AddressCorrections). */
const CORRECTION_DEFAULT_ADDRESS = '32'; // found, but more information (apartment, suite, box) is needed
const CORRECTION_MULTIPLE_MATCHES = '22'; // several addresses match and no default exists

// ---------------------------------------------------------------------------------------------
// The answers, by reason. Messages never repeat the address.

const answers = {
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

function isRecord(value: unknown): value is Record<string, unknown> {
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

// ---------------------------------------------------------------------------------------------
// HTTP.

type Outcome<T> = { ok: true; value: T } | { ok: false; verification: Verification };

interface HttpAnswer {
  status: number;
  body: unknown;
}

/** fetch and read the JSON body; an abort becomes verifier_timeout, anything else verifier_unavailable. */
async function send(url: string, init: RequestInit, signal: AbortSignal): Promise<Outcome<HttpAnswer>> {
  try {
    const response = await fetch(url, { ...init, signal, redirect: 'error' });
    const raw = await response.text();
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    return { ok: true, value: { status: response.status, body } };
  } catch {
    return { ok: false, verification: signal.aborted ? answers.timeout() : answers.unavailable() };
  }
}

/** Failures common to both endpoints. */
function transportFailure(status: number): Verification {
  if (status === 429) return answers.rateLimited();
  if (status === 401 || status === 403) return answers.misconfigured();
  if (status >= 500) return answers.unavailable();
  return answers.unexpected();
}

function expiresInSeconds(value: unknown): number {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : FALLBACK_TOKEN_LIFETIME_S;
}

/** Resolves when `promise` does, or with `onAbort()` as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(onAbort());
  return new Promise<T>((resolve) => {
    const aborted = () => resolve(onAbort());
    signal.addEventListener('abort', aborted, { once: true });
    promise.then((value) => {
      signal.removeEventListener('abort', aborted);
      resolve(value);
    });
  });
}

// ---------------------------------------------------------------------------------------------

export function createUspsVerifier(options: UspsVerifierOptions): AddressVerifier {
  const base = (options.baseUrl ?? DEFAULT_USPS_BASE_URL).replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());

  interface TokenFlight {
    result: Promise<Outcome<string>>;
    controller: AbortController;
    waiters: number;
  }

  let cached: { token: string; refreshAt: number } | null = null;
  /** The one token request in flight, shared by every verify waiting on it. */
  let pending: TokenFlight | null = null;

  function startTokenRequest(): TokenFlight {
    const controller = new AbortController();
    const flight: TokenFlight = { controller, waiters: 0, result: Promise.resolve({ ok: false, verification: answers.error() }) };
    flight.result = requestToken(controller.signal)
      .catch((): Outcome<string> => ({ ok: false, verification: answers.error() }))
      .finally(() => {
        if (pending === flight) pending = null;
      });
    return flight;
  }

  async function requestToken(signal: AbortSignal): Promise<Outcome<string>> {
    const sent = await send(
      `${base}/oauth2/v3/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: options.clientId,
          client_secret: options.clientSecret,
        }).toString(),
      },
      signal,
    );
    if (!sent.ok) return sent;
    const { status, body } = sent.value;
    // 400 here is OAuth's invalid_client / invalid_grant: the credentials, not the address.
    if (status === 400) return { ok: false, verification: answers.misconfigured() };
    if (status !== 200) return { ok: false, verification: transportFailure(status) };
    if (!isRecord(body) || typeof body.access_token !== 'string' || body.access_token === '') {
      return { ok: false, verification: answers.unexpected() };
    }
    const lifetimeMs = expiresInSeconds(body.expires_in) * 1000;
    const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2);
    cached = { token: body.access_token, refreshAt: now().getTime() + lifetimeMs - margin };
    return { ok: true, value: body.access_token };
  }

  /**
   * The cached token, or a new one. Concurrent callers share one token request; a caller whose signal
   * aborts stops waiting at once, and the request itself is aborted when no caller is left waiting.
   */
  function token(signal: AbortSignal): Promise<Outcome<string>> {
    if (cached !== null && now().getTime() < cached.refreshAt) return Promise.resolve({ ok: true, value: cached.token });
    if (signal.aborted) return Promise.resolve({ ok: false, verification: answers.timeout() });
    pending ??= startTokenRequest();
    const flight = pending;
    flight.waiters += 1;
    let done = false;
    const leave = () => {
      if (done) return;
      done = true;
      flight.waiters -= 1;
    };
    return raceAbort(
      flight.result.then((outcome) => {
        leave();
        return outcome;
      }),
      signal,
      () => {
        leave();
        if (flight.waiters === 0) {
          flight.controller.abort();
          if (pending === flight) pending = null;
        }
        return { ok: false, verification: answers.timeout() };
      },
    );
  }

  function forget(staleToken: string): void {
    if (cached?.token === staleToken) cached = null;
  }

  function lookupUrl(input: AddressInput, standard: StandardizedAddress): string | null {
    // USPS requires the two-letter state; without a recognisable province, the ZIP code's state stands in.
    const state = standard.state ?? (standard.zip5 === null ? null : (zipcodes.lookup(standard.zip5)?.state ?? null));
    const city = input.city;
    if (state === null || (city === null && standard.zip5 === null) || input.streetAddress1.trim() === '') return null;
    const query = new URLSearchParams({ streetAddress: input.streetAddress1 });
    if (input.streetAddress2 !== null) query.set('secondaryAddress', input.streetAddress2);
    if (city !== null) query.set('city', city);
    query.set('state', state);
    if (standard.zip5 !== null) query.set('ZIPCode', standard.zip5);
    if (standard.zip5 !== null && standard.zip4 !== null) query.set('ZIPPlus4', standard.zip4);
    return `${base}/addresses/v3/address?${query.toString()}`;
  }

  async function verify(input: AddressInput, signal: AbortSignal): Promise<Verification> {
    if (signal.aborted) return answers.timeout();
    if (input.countryCode !== null && input.countryCode.trim().toUpperCase() !== 'US') return answers.outsideUs();
    const url = lookupUrl(input, standardizeAddress(input));
    if (url === null) return answers.insufficient();

    for (let attempt = 0; ; attempt += 1) {
      const bearer = await token(signal);
      if (!bearer.ok) return bearer.verification;
      const sent = await send(url, { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${bearer.value}` } }, signal);
      if (!sent.ok) return sent.verification;
      const { status, body } = sent.value;
      if (status === 200) return mapUspsAnswer(input, body);
      if (status === 401 && attempt === 0) {
        forget(bearer.value); // expired or revoked early: one fresh token, one retry
        continue;
      }
      if (status === 400 || status === 404) return mapUspsError(status, body);
      return transportFailure(status);
    }
  }

  return {
    name: 'usps',
    local: false,
    async verify(input, signal) {
      try {
        return await verify(input, signal);
      } catch {
        return signal.aborted ? answers.timeout() : answers.error();
      }
    },
  };
}
