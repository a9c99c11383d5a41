// A local stand-in for the Smarty US Street API endpoint the SDK calls, /street-address, on 127.0.0.1
// and a free port. It answers as the API documents: a JSON array of candidates (each tied to its
// lookup by input_index), an empty array when nothing matches, and errors as
// {"errors": [{"id", "message"}]}. A single lookup arrives as a GET with the input fields in the query
// string; a batch as a POST with a JSON array of inputs; both carry auth-id and auth-token in the query
// string, as StaticCredentials sends them. The fake checks those, records every request, and can be
// told to answer the next request with a failure status, to drop the connection, or not to answer.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './fake-body.js';

export interface SmartyComponents {
  urbanization?: string;
  primary_number?: string;
  street_name?: string;
  street_predirection?: string;
  street_postdirection?: string;
  street_suffix?: string;
  secondary_number?: string;
  secondary_designator?: string;
  extra_secondary_number?: string;
  extra_secondary_designator?: string;
  pmb_designator?: string;
  pmb_number?: string;
  city_name?: string;
  default_city_name?: string;
  state_abbreviation?: string;
  zipcode?: string;
  plus4_code?: string;
  delivery_point?: string;
  delivery_point_check_digit?: string;
}

export interface SmartyMetadata {
  /** F firm, G general delivery, H high-rise, P PO Box, R rural route, S street; blank when unmatched. */
  record_type?: string;
  zip_type?: string;
  county_fips?: string;
  county_name?: string;
  carrier_route?: string;
  congressional_district?: string;
  building_default_indicator?: string;
  rdi?: string;
  elot_sequence?: string;
  elot_sort?: string;
  latitude?: number;
  longitude?: number;
  precision?: string;
  time_zone?: string;
  utc_offset?: number;
  dst?: boolean;
}

export interface SmartyAnalysis {
  /** Y confirmed, N not confirmed, S confirmed by dropping the secondary, D confirmed but missing the secondary, blank not checked. */
  dpv_match_code?: string;
  /** Two-character codes run together, e.g. "AABB". */
  dpv_footnotes?: string;
  dpv_cmra?: string;
  dpv_vacant?: string;
  dpv_no_stat?: string;
  active?: string;
  /** Codes each followed by #, e.g. "A#N#". */
  footnotes?: string;
  lacslink_code?: string;
  lacslink_indicator?: string;
  suitelink_match?: boolean;
  enhanced_match?: string;
}

export interface SmartyCandidate {
  input_id?: string;
  input_index: number;
  candidate_index: number;
  addressee?: string;
  delivery_line_1: string;
  delivery_line_2?: string;
  last_line: string;
  delivery_point_barcode?: string;
  smarty_key?: string;
  components: SmartyComponents;
  metadata: SmartyMetadata;
  analysis: SmartyAnalysis;
}

export type SmartyCandidateFields = Partial<Omit<SmartyCandidate, 'components' | 'metadata' | 'analysis'>> & {
  components?: SmartyComponents;
  metadata?: SmartyMetadata;
  analysis?: SmartyAnalysis;
};

/**
 * A candidate for 1600 Amphitheatre Pkwy, Mountain View CA 94043-1351, confirmed by DPV with no
 * footnotes; `fields` replaces top-level fields and is merged into components, metadata and analysis.
 */
export function smartyCandidate(fields: SmartyCandidateFields = {}): SmartyCandidate {
  const { components, metadata, analysis, ...rest } = fields;
  return {
    input_index: 0,
    candidate_index: 0,
    delivery_line_1: '1600 Amphitheatre Pkwy',
    last_line: 'Mountain View CA 94043-1351',
    delivery_point_barcode: '940431351000',
    smarty_key: '1234567890',
    ...rest,
    components: {
      primary_number: '1600',
      street_name: 'Amphitheatre',
      street_suffix: 'Pkwy',
      city_name: 'Mountain View',
      default_city_name: 'Mountain View',
      state_abbreviation: 'CA',
      zipcode: '94043',
      plus4_code: '1351',
      delivery_point: '00',
      delivery_point_check_digit: '0',
      ...components,
    },
    metadata: {
      record_type: 'S',
      zip_type: 'Standard',
      county_fips: '06085',
      county_name: 'Santa Clara',
      carrier_route: 'C909',
      congressional_district: '16',
      rdi: 'Commercial',
      elot_sequence: '0108',
      elot_sort: 'A',
      latitude: 37.42357,
      longitude: -122.08661,
      precision: 'Zip9',
      time_zone: 'Pacific',
      utc_offset: -8,
      dst: true,
      ...metadata,
    },
    analysis: {
      dpv_match_code: 'Y',
      dpv_footnotes: 'AABB',
      dpv_cmra: 'N',
      dpv_vacant: 'N',
      dpv_no_stat: 'N',
      active: 'Y',
      enhanced_match: 'postal-match',
      ...analysis,
    },
  };
}

export interface SmartyRequest {
  method: string;
  /** The path without the query string, e.g. "/street-address". */
  path: string;
  /** The query string, decoded; auth-id and auth-token included. */
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body of a batch, or undefined for a GET. */
  body: unknown;
}

export type SmartyFailure =
  /** Answer with this status; the body defaults to Smarty's JSON error. */
  | { status: number; headers?: Record<string, string>; body?: string; contentType?: string }
  /** Accept the request and never answer it. */
  | { hang: true }
  /** Drop the connection without answering. */
  | { reset: true };

export interface SmartyFake {
  /** The US Street endpoint to give the SDK, e.g. "http://127.0.0.1:43117/street-address". */
  readonly baseUrl: string;
  readonly authId: string;
  readonly authToken: string;
  /** Every request received, oldest first. */
  readonly requests: SmartyRequest[];
  /** Answers lookups whose street is `street` (case and spacing ignored) with these candidates. */
  register(street: string, candidates: SmartyCandidate[]): void;
  /** Answers the next request with `failure` instead of normally; several calls queue in order. */
  failNext(failure: SmartyFailure): void;
  close(): Promise<void>;
}

const ENDPOINT = '/street-address';

export async function startSmartyFake(options: { authId?: string; authToken?: string } = {}): Promise<SmartyFake> {
  const authId = options.authId ?? 'fake-auth-id';
  const authToken = options.authToken ?? 'fake-auth-token';
  const requests: SmartyRequest[] = [];
  const failures: SmartyFailure[] = [];
  const addresses = new Map<string, SmartyCandidate[]>();

  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const method = request.method ?? 'GET';
      const query = Object.fromEntries(url.searchParams.entries());
      requests.push({ method, path: url.pathname, query, headers: request.headers, body });

      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(value));
      };

      const failure = failures.shift();
      if (failure && 'hang' in failure) return; // the socket stays open until the client gives up or close()
      if (failure && 'reset' in failure) {
        request.socket.destroy();
        return;
      }
      if (failure) {
        response.writeHead(failure.status, { 'content-type': failure.contentType ?? 'application/json; charset=utf-8', ...failure.headers });
        response.end(failure.body ?? JSON.stringify(smartyError(failure.status)));
        return;
      }

      if (url.pathname !== ENDPOINT) return send(404, { errors: [{ id: 404, message: 'Not Found' }] });
      if (query['auth-id'] !== authId || query['auth-token'] !== authToken) return send(401, smartyError(401));

      let inputs: Record<string, unknown>[];
      if (method === 'GET') inputs = [query];
      else if (method === 'POST' && Array.isArray(body) && body.every(isRecord)) inputs = body;
      else return send(400, smartyError(400));
      if (inputs.some((input) => typeof input.street !== 'string' || input.street === '')) return send(400, smartyError(400));

      const answer = inputs.flatMap((input, inputIndex) =>
        (addresses.get(streetKey(String(input.street))) ?? []).map((candidate, candidateIndex) => ({
          ...candidate,
          ...(typeof input.input_id === 'string' ? { input_id: input.input_id } : {}),
          input_index: inputIndex,
          candidate_index: candidateIndex,
        })),
      );
      return send(200, answer);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}${ENDPOINT}`,
    authId,
    authToken,
    requests,
    register(street, candidates) {
      addresses.set(streetKey(street), candidates);
    },
    failNext(failure) {
      failures.push(failure);
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function streetKey(street: string): string {
  return street.trim().replace(/\s+/g, ' ').toUpperCase();
}

/** Smarty's error body; messages as the SDK's error classes (src/Errors.ts) word the status codes. */
function smartyError(status: number): { errors: { id: number; message: string }[] } {
  const messages: Record<number, string> = {
    400: 'Bad Request (Malformed Payload): A GET request lacked a street field or the request body of a POST request contained malformed JSON.',
    401: 'Unauthorized: The credentials were provided incorrectly or did not match any existing active credentials.',
    402: 'Payment Required: There is no active subscription for the account associated with the credentials submitted with the request.',
    429: "When using the public 'embedded key' authentication, we restrict the number of requests coming from a given source over too short of a time.",
    500: 'Internal Server Error.',
    503: 'Service Unavailable. Try again later.',
  };
  return { errors: [{ id: Date.now(), message: messages[status] ?? `Request failed with status ${status}.` }] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
