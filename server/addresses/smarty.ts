// The Smarty US Street verifier (docs/addresses.md), through the official SDK
// smartystreets-javascript-sdk v11: one lookup per verify(), its best candidate mapped to a
// Verification by the candidate's DPV match code, DPV footnotes, footnotes and metadata.
//
// What the SDK needs, read in its source (dist/esm):
// - Base URL: ClientBuilder.withBaseUrl(url) replaces the whole endpoint URL, path included (its
//   BaseUrlSender writes it into every request), so it takes the US Street endpoint
//   https://us-street.api.smarty.com/street-address; a bare origin gets /street-address appended
//   here. Tests point it at a local fake (test/support/smarty-fake.ts).
// - Credentials: StaticCredentials signs every request with the auth-id and auth-token query
//   parameters. A single lookup is a GET whose query string carries the input fields as well.
// - Abort: the SDK takes no AbortSignal. Its fetch sender is given only AbortSignal.timeout(maxTimeout),
//   and the sender that accepts another fetch function is not exported (withSender() would mean
//   rewriting the transport and gives up withMaxTimeout). So verify() races the SDK call against the
//   caller's signal and answers verifier_timeout as soon as it fires; the abandoned request ends at
//   the SDK's own timeout.
// - Retries: off. The SDK's RetrySender sleeps through a 429's Retry-After (10 s when absent) and
//   logs to the console; the caller's deadline is a few seconds and an unknown answer is not cached,
//   so the next request simply asks again.
// - Failures: client.send() rejects with the SDK's Response object ({ statusCode, error }), not an
//   Error; statusCode is 0 when no HTTP answer came (network failure, or the SDK timeout, whose error
//   is a DOMException named TimeoutError). The SDK's typed error classes (BadCredentialsError, ...)
//   are not what it throws for 401 or 429, so failures are classified on statusCode.
//
// Nothing here logs: neither the address nor the credentials (which travel in the query string).
import {
  ClientBuilder,
  StaticCredentials,
  usStreet,
  type CandidateUSStreet,
  type MatchStrategy,
} from 'smartystreets-javascript-sdk';
import { type AddressChange, type AddressFlag, type AddressInput, type AddressVerifier, type DeliveryAddress, settleVerification, stateCode, unknownVerification, type Verification } from '../domain/addresses/index.js';


export const SMARTY_DEFAULT_BASE_URL = 'https://us-street.api.smarty.com/street-address';
/** How long the SDK waits for one answer; the caller's own deadline (a few seconds) normally ends the wait first. */
export const SMARTY_DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Enhanced, not strict. Strict answers an empty array for every address that does not DPV-confirm,
 * which would leave "no such address", "house number missing", "house number invalid" and "box
 * number invalid" indistinguishable. Enhanced (like invalid) returns the best candidate even when it
 * fails, with dpv_match_code N and the DPV footnotes (A1, M1, M3, P3) that give undeliverable its
 * precise reason, and it also matches messier input and non-USPS addresses. Validity is still decided
 * on dpv_match_code, exactly as with strict. The SDK sends lookup.match as the `match` query
 * parameter and would default to enhanced (with candidates=5) if it were left unset; it is set here
 * so the choice is visible.
 */
const MATCH_STRATEGY: MatchStrategy = 'enhanced';
/** Only the best candidate is mapped, so only one is asked for (the API's own default). */
const MAX_CANDIDATES = 1;

export interface SmartyVerifierOptions {
  authId: string;
  authToken: string;
  /** The US Street endpoint, e.g. https://us-street.api.smarty.com/street-address (the default). */
  baseUrl?: string;
  /** How long the SDK waits for an answer, in milliseconds; default 10 000. */
  timeoutMs?: number;
}

export function createSmartyVerifier(options: SmartyVerifierOptions): AddressVerifier {
  const authId = options.authId.trim();
  const authToken = options.authToken.trim();
  if (authId === '' || authToken === '') throw new Error('Smarty: the auth id and auth token must both be set');
  const timeoutMs = options.timeoutMs ?? SMARTY_DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`Smarty: timeoutMs must be a positive integer, got ${timeoutMs}`);

  const client = new ClientBuilder(new StaticCredentials(authId, authToken))
    .withBaseUrl(streetEndpoint(options.baseUrl ?? SMARTY_DEFAULT_BASE_URL))
    .withMaxRetries(0)
    .withMaxTimeout(timeoutMs)
    .buildUsStreetApiClient();

  return {
    name: 'smarty',
    local: false,
    async verify(address: AddressInput, signal: AbortSignal): Promise<Verification> {
      if (signal.aborted) return failureVerification(ABORTED);
      const lookup = new usStreet.Lookup();
      lookup.street = address.streetAddress1;
      if (address.streetAddress2) lookup.secondary = address.streetAddress2;
      if (address.city) lookup.city = address.city;
      if (address.province) lookup.state = address.province;
      if (address.zip) lookup.zipCode = address.zip;
      lookup.match = MATCH_STRATEGY;
      lookup.maxCandidates = MAX_CANDIDATES;
      try {
        await untilAborted(client.send(lookup), signal);
      } catch (failure) {
        return failureVerification(failure);
      }
      try {
        const candidate = lookup.result[0];
        if (!candidate) return settleVerification(undeliverable('address_not_found', [], 'Smarty found no address matching this one.'));
        return settleVerification(mapCandidate(address, candidate));
      } catch {
        // A candidate this mapping cannot read: say nothing about the address rather than throw.
        return unknownVerification('verifier_unavailable', 'Smarty answered with something that could not be read; nothing is known about the address.');
      }
    },
  };
}

/** The endpoint URL the SDK wants: a bare origin means the standard /street-address path. */
function streetEndpoint(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Smarty: the base URL must be http(s), got ${url.protocol}`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/street-address';
  return url.toString().replace(/\/+$/, '');
}

// ---------------------------------------------------------------------------------------------
// Failures

const ABORTED = Symbol('aborted');

/** The SDK's promise, or a rejection with ABORTED as soon as `signal` fires, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function failureVerification(failure: unknown): Verification {
  if (failure === ABORTED) return timedOut();
  const status = isRecord(failure) && typeof failure.statusCode === 'number' ? failure.statusCode : null;
  if (status === 401 || status === 402 || status === 403) {
    return unknownVerification(
      'verifier_misconfigured',
      'Smarty refused the credentials, or the account has no active subscription; nothing is known about the address.',
    );
  }
  if (status === 429) return unknownVerification('verifier_rate_limited', 'Smarty is limiting the rate of lookups; nothing is known about the address.');
  if (status !== null && status >= 500) return unavailable();
  if (status !== null && status >= 400) {
    return unknownVerification('verifier_rejected', `Smarty refused the lookup (HTTP ${status}); nothing is known about the address.`);
  }
  // No HTTP answer: the SDK's own timeout, or a network failure.
  const cause = isRecord(failure) && failure.error instanceof Error ? failure.error : failure instanceof Error ? failure : null;
  if (cause && (cause.name === 'TimeoutError' || cause.name === 'AbortError')) return timedOut();
  return unavailable();
}

const timedOut = () => unknownVerification('verifier_timeout', 'Smarty did not answer in time; nothing is known about the address.');
const unavailable = () => unknownVerification('verifier_unavailable', 'Smarty could not be reached; nothing is known about the address.');

// ---------------------------------------------------------------------------------------------
// The mapping (docs/addresses.md, "Smarty US Street")

/** DPV footnotes that make an address undeliverable, most specific first, with their reasons. */
const UNDELIVERABLE_DPV_FOOTNOTES: ReadonlyArray<readonly [code: string, reason: string, message: string]> = [
  ['M1', 'primary_number_missing', 'The street number is missing.'],
  ['M3', 'primary_number_invalid', 'The street number does not exist on this street.'],
  ['P1', 'box_number_missing', 'The PO Box, rural route or highway contract box number is missing.'],
  ['P3', 'box_number_invalid', 'The PO Box, rural route or highway contract box number does not exist.'],
  ['A1', 'address_not_found', 'The address is not in USPS data.'],
];

/** Footnotes (Smarty's A# ... Z#) that say a part of the address was changed to find the match. */
const CHANGE_FOOTNOTES: Readonly<Record<string, AddressChange>> = {
  A: 'zip', // Corrected ZIP Code
  U: 'city', // Unofficial post office name: the preferred city name replaced it
  M: 'street', // Fixed street spelling
  K: 'street', // Cardinal rule match: the directional was changed
  L: 'street', // Changed address component: a directional or suffix added, changed or deleted
  S: 'secondary', // Bad secondary address: the secondary sent is not valid for the building
};

function mapCandidate(input: AddressInput, candidate: CandidateUSStreet): Verification {
  const analysis = candidate.analysis;
  const matchCode = (analysis.dpvMatchCode ?? '').trim().toUpperCase();
  const dpv = dpvFootnotes(analysis.dpvFootnotes);
  const notes = footnotes(analysis.footnotes);
  const flags = flagsOf(candidate, dpv, notes);

  // Undeliverable: not confirmed by DPV, or a footnote that says why it cannot be.
  const failed = UNDELIVERABLE_DPV_FOOTNOTES.find(([code]) => dpv.has(code));
  if (failed) return undeliverable(failed[1], flags, failed[2]);
  if (matchCode === 'N') return undeliverable('address_not_confirmed', flags, 'USPS data does not confirm this address as a delivery point.');

  // Unit required: the building is confirmed, the unit is missing (D, N1, H#) or unknown (C1).
  if (dpv.has('C1')) {
    return unitRequired('secondary_unrecognized', flags, 'The building is confirmed, but the apartment, suite or unit number sent is not recognised there.');
  }
  if (matchCode === 'D' || dpv.has('N1') || notes.has('H')) {
    return unitRequired('secondary_missing', flags, 'The building is confirmed, but an apartment, suite or unit number is needed.');
  }

  const changes = changesOf(input, candidate, notes);
  // S: confirmed by dropping the secondary, which the building does not need (CC). The answer's
  // address carries no secondary; the client writes it back.
  if (matchCode === 'S') return corrected(candidate, unique(['secondary', ...changes]), flags);
  if (matchCode === 'Y') {
    if (changes.length > 0) return corrected(candidate, changes, flags);
    return {
      verdict: 'deliverable',
      reason: 'confirmed',
      message: 'USPS data confirms the address as sent.',
      address: deliveryAddress(candidate),
      changes: [],
      flags,
    };
  }
  // Blank (or unknown) match code: not checked against USPS delivery points, e.g. a non-postal match.
  return undeliverable('address_not_confirmed', flags, 'USPS data does not confirm this address as a delivery point.');
}

function undeliverable(reason: string, flags: AddressFlag[], message: string): Verification {
  return { verdict: 'undeliverable', reason, message, address: null, changes: [], flags };
}

function unitRequired(reason: string, flags: AddressFlag[], message: string): Verification {
  return { verdict: 'unit_required', reason, message, address: null, changes: [], flags };
}

const CHANGE_WORDS: Readonly<Record<AddressChange, string>> = {
  street: 'street',
  city: 'city',
  state: 'state',
  zip: 'ZIP code',
  secondary: 'apartment, suite or unit',
};

function corrected(candidate: CandidateUSStreet, changes: AddressChange[], flags: AddressFlag[]): Verification {
  const words = changes.map((change) => CHANGE_WORDS[change]).join(', ');
  return {
    verdict: 'corrected',
    reason: changes.length === 1 ? `${changes[0]}_corrected` : 'address_corrected',
    message: `Deliverable once corrected (${words}); use the address returned.`,
    address: deliveryAddress(candidate),
    changes,
    flags,
  };
}

function deliveryAddress(candidate: CandidateUSStreet): DeliveryAddress {
  const { components } = candidate;
  return {
    streetAddress1: candidate.deliveryLine1,
    streetAddress2: candidate.deliveryLine2.trim() === '' ? null : candidate.deliveryLine2,
    city: components.cityName ?? '',
    province: components.state ?? '',
    zip: components.zipCode ?? '',
    zip4: components.plus4Code ? components.plus4Code : null,
  };
}

/** What the footnotes say moved. B# (city and/or state spelling) is resolved by comparing with the input. */
function changesOf(input: AddressInput, candidate: CandidateUSStreet, notes: ReadonlySet<string>): AddressChange[] {
  const changes: AddressChange[] = [];
  for (const note of notes) {
    const change = CHANGE_FOOTNOTES[note];
    if (change) changes.push(change);
  }
  if (notes.has('B')) {
    const cityChanged = input.city !== null && comparable(input.city) !== comparable(candidate.components.cityName ?? '');
    const stateChanged = input.province !== null && stateAsSent(input.province) !== (candidate.components.state ?? '').toUpperCase();
    if (cityChanged) changes.push('city');
    if (stateChanged) changes.push('state');
    // Smarty fixed a spelling the comparison cannot see (punctuation, say): report both, as the footnote does.
    if (!cityChanged && !stateChanged) changes.push('city', 'state');
  }
  return unique(changes);
}

function flagsOf(candidate: CandidateUSStreet, dpv: ReadonlySet<string>, notes: ReadonlySet<string>): AddressFlag[] {
  const { analysis, metadata } = candidate;
  const recordType = (metadata.recordType ?? '').toUpperCase();
  const flags: AddressFlag[] = [];
  if (analysis.vacant === 'Y') flags.push('vacant');
  if (analysis.cmra === 'Y') flags.push('mail_receiving_agency');
  if (analysis.noStat === 'Y') flags.push('no_mail_service');
  // R7: carrier route R777/R779, no street delivery. W#: small-town default, PO Box or General Delivery only.
  if (dpv.has('R7') || notes.has('W')) flags.push('no_street_delivery');
  if (recordType === 'P') flags.push('po_box');
  // F1: military address (DPV); Y#: military or diplomatic ZIP Code.
  if (dpv.has('F1') || notes.has('Y')) flags.push('military');
  if (recordType === 'G' || dpv.has('G1')) flags.push('general_delivery');
  return flags;
}

/** dpv_footnotes is a run of two-character codes, e.g. "AABBR7". */
function dpvFootnotes(value: string | undefined): Set<string> {
  return new Set((value ?? '').toUpperCase().match(/[A-Z0-9]{2}/g) ?? []);
}

/** footnotes is a run of codes each ending in #, e.g. "A#B#LI#"; the set holds them without the #. */
function footnotes(value: string | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .toUpperCase()
      .split('#')
      .map((code) => code.trim())
      .filter((code) => code !== ''),
  );
}

function comparable(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/**
 * Two-letter code for a state name or code as sent, read as the standardiser reads it (stateCode,
 * over the one table in ../domain/addresses/us-states.ts); a name not recognised comes back as sent (upper case).
 */
function stateAsSent(province: string): string {
  return stateCode(province) ?? comparable(province);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
