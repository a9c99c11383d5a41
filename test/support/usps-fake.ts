// A local stand-in for the two USPS endpoints the USPS verifier uses, on 127.0.0.1 and a free port:
//   POST /oauth2/v3/token       OAuth 2.0 client credentials (form-encoded or JSON, as USPS accepts),
//                               answering USPS's token object (access_token, token_type, issued_at,
//                               expires_in, status, scope, issuer, client_id, ...);
//   GET  /addresses/v3/address  Bearer-protected, answering the Addresses 3.x AddressResponse
//                               ({ firm, address, additionalInfo, corrections, matches, warnings }) or
//                               the ErrorMessage body ({ apiVersion, error: { code, message, errors } }).
// Tests register a canned answer per street address; an address with none gets USPS's 404 "no match".
// The fake counts token requests, records every lookup with its query, and can answer the next
// request with a failure (429, 503, a 404 message, a 401) or not at all.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The documented 400/404 messages of GET /addresses/v3/address. */
export const USPS_MESSAGES = {
  noMatch: 'There is no match for the address requested.',
  invalidDeliveryAddress: 'The address requested is an invalid delivery address.',
  multipleAddresses: 'More than one address was found matching the requested address.',
  insufficient: 'The address information in the request is insufficient to match.',
  invalidState: 'The state code in the request is missing or invalid.',
  invalidCity: 'The city in the request is missing or invalid.',
  cityStateUnverifiable: 'The city and state are missing or together unverifiable.',
} as const;

export interface UspsDomesticAddress {
  streetAddress: string;
  streetAddressAbbreviation?: string | null;
  secondaryAddress: string | null;
  city: string;
  cityAbbreviation?: string | null;
  state: string;
  ZIPCode: string;
  ZIPPlus4: string | null;
  urbanization: string | null;
}

export interface UspsAdditionalInfo {
  deliveryPoint: string | null;
  carrierRoute: string | null;
  DPVConfirmation: 'Y' | 'D' | 'S' | 'N' | '' | null;
  DPVCMRA: 'Y' | 'N' | '' | null;
  business: 'Y' | 'N' | '' | null;
  centralDeliveryPoint: 'Y' | 'N' | '' | null;
  vacant: 'Y' | 'N' | '' | null;
}

export interface UspsCode {
  code: string;
  text: string;
}

export interface UspsAddressResponse {
  firm: string | null;
  address: UspsDomesticAddress;
  additionalInfo: UspsAdditionalInfo;
  corrections: UspsCode[];
  matches: UspsCode[];
  warnings: string[];
}

export interface UspsErrorMessage {
  apiVersion: string;
  error: { code: string; message: string; errors: { status?: string; code?: string; title?: string; detail?: string }[] };
}

/** The documented codes and texts of corrections[] and matches[]. */
export const USPS_CODES = {
  exactMatch: { code: '31', text: 'Single Response - exact match' },
  defaultAddress: {
    code: '32',
    text: 'Default address: The address you entered was found but more information is needed (such as an apartment, suite, or box number) to match to a specific address.',
  },
  multipleAddresses: { code: '22', text: 'Multiple addresses were found for the information you entered, and no default exists.' },
} as const;

/** An AddressResponse with USPS's defaults (a DPV-confirmed residential street address) for what `fields` leaves out. */
export function uspsAddressResponse(fields: {
  address?: Partial<UspsDomesticAddress>;
  additionalInfo?: Partial<UspsAdditionalInfo>;
  corrections?: UspsCode[];
  matches?: UspsCode[];
  warnings?: string[];
  firm?: string | null;
}): UspsAddressResponse {
  const address: UspsDomesticAddress = {
    streetAddress: '3120 M ST NW',
    streetAddressAbbreviation: null,
    secondaryAddress: null,
    city: 'WASHINGTON',
    cityAbbreviation: null,
    state: 'DC',
    ZIPCode: '20007',
    ZIPPlus4: '3704',
    urbanization: null,
    ...fields.address,
  };
  const additionalInfo: UspsAdditionalInfo = {
    deliveryPoint: '20',
    carrierRoute: 'C036',
    DPVConfirmation: 'Y',
    DPVCMRA: 'N',
    business: 'N',
    centralDeliveryPoint: 'N',
    vacant: 'N',
    ...fields.additionalInfo,
  };
  const confirmed = additionalInfo.DPVConfirmation === 'Y';
  return {
    firm: fields.firm ?? null,
    address,
    additionalInfo,
    // USPS sends one empty correction when there is none.
    corrections: fields.corrections ?? [{ code: '', text: '' }],
    matches: fields.matches ?? (confirmed ? [USPS_CODES.exactMatch] : []),
    warnings: fields.warnings ?? [],
  };
}

/** USPS's ErrorMessage body. */
export function uspsError(status: number, message: string): UspsErrorMessage {
  return { apiVersion: 'v3', error: { code: String(status), message, errors: [] } };
}

export type UspsCanned =
  /** 200 with this AddressResponse. */
  | { body: UspsAddressResponse }
  /** This status with this body (an ErrorMessage unless given). */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Accept the request and never answer it. */
  | { hang: true };

export interface RecordedLookup {
  /** The raw query string, without "?". */
  rawQuery: string;
  /** The decoded query parameters. */
  query: Record<string, string>;
  authorization: string | undefined;
}

export interface RecordedTokenRequest {
  contentType: string | undefined;
  /** The decoded fields, whichever the encoding. */
  fields: Record<string, string>;
}

export interface UspsFake {
  /** The API root to give the verifier, e.g. "http://127.0.0.1:43117". */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** How many token requests arrived (granted or not). */
  readonly tokenRequestCount: number;
  readonly tokenRequests: RecordedTokenRequest[];
  /** Every address lookup, oldest first. */
  readonly lookups: RecordedLookup[];
  /** Tokens the fake has issued, oldest first. */
  readonly issuedTokens: string[];
  /**
   * expires_in of the tokens issued from now on, in seconds (default 28800, USPS's eight hours). A string
   * is sent as a JSON string, as USPS's own examples show it.
   */
  setTokenLifetime(seconds: number | string): void;
  /** Answers lookups whose streetAddress equals `streetAddress` (case and spacing ignored) with `answer`. */
  respondTo(streetAddress: string, answer: UspsCanned): void;
  /** Answers the next lookup with `answer`, whatever the address; several calls queue in order. */
  failNextLookup(answer: UspsCanned): void;
  /** Answers the next token request with `answer`; several calls queue in order. */
  failNextToken(answer: UspsCanned): void;
  /** Makes every token issued so far invalid, as if revoked or expired early: lookups with it get 401. */
  revokeTokens(): void;
  close(): Promise<void>;
}

const key = (street: string) => street.trim().replace(/\s+/g, ' ').toUpperCase();

export async function startUspsFake(options: { clientId?: string; clientSecret?: string } = {}): Promise<UspsFake> {
  const clientId = options.clientId ?? 'usps-fake-consumer-key';
  const clientSecret = options.clientSecret ?? 'usps-fake-consumer-secret';
  const canned = new Map<string, UspsCanned>();
  const lookupFailures: UspsCanned[] = [];
  const tokenFailures: UspsCanned[] = [];
  const tokenRequests: RecordedTokenRequest[] = [];
  const lookups: RecordedLookup[] = [];
  const issuedTokens: string[] = [];
  const validTokens = new Set<string>();
  let tokenLifetime: number | string = 28_800;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', 'http://fake');
      const method = request.method ?? 'GET';
      if (method === 'POST' && url.pathname === '/oauth2/v3/token') return token(request.headers, raw, response);
      if (method === 'GET' && url.pathname === '/addresses/v3/address') return address(request.headers, url, response);
      return sendJson(response, 404, uspsError(404, 'Resource not found.'));
    });
  });

  function answerWith(answer: UspsCanned, response: ServerResponse): void {
    if ('hang' in answer) return; // the socket stays open until the client gives up or close()
    if ('status' in answer) {
      const body = answer.body ?? uspsError(answer.status, defaultMessage(answer.status));
      return sendJson(response, answer.status, body, answer.headers);
    }
    return sendJson(response, 200, answer.body);
  }

  function token(headers: IncomingHttpHeaders, raw: string, response: ServerResponse): void {
    const contentType = headers['content-type'];
    let fields: Record<string, string> = {};
    if (contentType?.startsWith('application/json')) {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed === 'object' && parsed !== null) {
          fields = Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
        }
      } catch {
        fields = {};
      }
    } else {
      fields = Object.fromEntries(new URLSearchParams(raw));
    }
    tokenRequests.push({ contentType, fields });

    const failure = tokenFailures.shift();
    if (failure) return answerWith(failure, response);

    if (fields.grant_type !== 'client_credentials') {
      return sendJson(response, 400, { error: 'unsupported_grant_type', error_description: 'The grant type is not supported.' });
    }
    if (fields.client_id !== clientId || fields.client_secret !== clientSecret) {
      return sendJson(response, 401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
    }
    const accessToken = `fake-${randomBytes(12).toString('hex')}`;
    issuedTokens.push(accessToken);
    validTokens.add(accessToken);
    return sendJson(response, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      issued_at: Date.now(),
      expires_in: tokenLifetime,
      status: 'approved',
      scope: 'addresses',
      issuer: 'api.usps.com',
      client_id: clientId,
      application_name: 'fake-app',
      api_products: '[Public Access]',
      public_key: 'LS0tLS1CRUdJTi...',
    });
  }

  function address(headers: IncomingHttpHeaders, url: URL, response: ServerResponse): void {
    const authorization = headers.authorization;
    lookups.push({ rawQuery: url.search.replace(/^\?/, ''), query: Object.fromEntries(url.searchParams), authorization });

    const bearer = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (bearer === undefined || !validTokens.has(bearer)) {
      return sendJson(response, 401, uspsError(401, 'Unauthorized request.'), { 'www-authenticate': 'Bearer realm="https://api.usps.com"' });
    }
    const failure = lookupFailures.shift();
    if (failure) return answerWith(failure, response);

    const street = url.searchParams.get('streetAddress');
    const state = url.searchParams.get('state');
    if (street === null || street.trim() === '') return sendJson(response, 400, uspsError(400, USPS_MESSAGES.insufficient));
    if (state === null || !/^[A-Z]{2}$/.test(state)) return sendJson(response, 400, uspsError(400, USPS_MESSAGES.invalidState));
    const answer = canned.get(key(street));
    if (answer) return answerWith(answer, response);
    return sendJson(response, 404, uspsError(404, USPS_MESSAGES.noMatch));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    get tokenRequestCount() {
      return tokenRequests.length;
    },
    tokenRequests,
    lookups,
    issuedTokens,
    setTokenLifetime(seconds) {
      tokenLifetime = seconds;
    },
    respondTo(streetAddress, answer) {
      canned.set(key(streetAddress), answer);
    },
    failNextLookup(answer) {
      lookupFailures.push(answer);
    },
    failNextToken(answer) {
      tokenFailures.push(answer);
    },
    revokeTokens() {
      validTokens.clear();
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function defaultMessage(status: number): string {
  if (status === 401) return 'Unauthorized request.';
  if (status === 403) return 'Access is denied.';
  if (status === 429) return 'Too Many Requests. Too many requests have been received from client in a short amount of time.';
  if (status === 503) return 'Service is unavailable.';
  return `Request failed with status ${status}.`;
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(value));
}
