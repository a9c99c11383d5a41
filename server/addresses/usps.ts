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
//     ERROR_MESSAGES, ./usps-answers.ts).
//
// What v3 does NOT give: the DPV footnotes (AA, BB, C1, M1, N1, ...) and the record type (S, H, P, R,
// G, F) that Web Tools and CASS vendors return. So nothing here can say "primary number missing" versus
// "primary number out of range", or tell a firm record from a street record; the verdicts
// (./usps-answers.ts) use only DPVConfirmation, the correction codes, the carrier route, the CMRA and
// vacant indicators, the state, and the 404 messages.
//
// This file holds the lookup; the token client is ./usps-token.ts, and the mapping of answers to
// verdicts ./usps-answers.ts. None of the three logs: not the address, not the credentials, not the
// token.
import zipcodes from 'zipcodes';
import { standardizeAddress, type StandardizedAddress } from '../domain/addresses/index.js';
import type { AddressInput, AddressVerifier, Verification } from '../domain/addresses/index.js';
import { answers, mapUspsAnswer, mapUspsError, transportFailure } from './usps-answers.js';
import { createUspsTokenClient, send } from './usps-token.js';

export { ERROR_MESSAGES, mapUspsAnswer, mapUspsError } from './usps-answers.js';

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

export function createUspsVerifier(options: UspsVerifierOptions): AddressVerifier {
  const base = (options.baseUrl ?? DEFAULT_USPS_BASE_URL).replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const { token, forget } = createUspsTokenClient({ base, clientId: options.clientId, clientSecret: options.clientSecret, now });

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
