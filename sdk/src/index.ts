// The merchant SDK, built from the same contract as the server: every route, body and response is
// typed from contract/, so the SDK cannot drift from the API. (Resources, error classes and retries
// come with the SDK issue; this is the typed core they wrap.)
import { initClient } from '@ts-rest/core';
import { contract } from '../../contract/index.js';

export { contract };
export type { Contract } from '../../contract/index.js';

export type KeyMode = 'live' | 'test';

export interface ClientOptions {
  /** Secret key: ak_live_... or ak_test_.... Never use it in a browser. */
  apiKey: string;
  /** Where the API is served, e.g. https://api.example.com or http://localhost:3000. */
  baseUrl: string;
}

export function createApiClient(options: ClientOptions) {
  return initClient(contract, {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    baseHeaders: { token: options.apiKey },
    throwOnUnknownStatus: true,
  });
}

export class Client {
  /** live or test, from the key prefix. */
  readonly mode: KeyMode;
  /** Every endpoint of the contract, grouped by resource: api.quotes.create({ body }) and so on. */
  readonly api: ReturnType<typeof createApiClient>;

  constructor(options: ClientOptions) {
    this.mode = options.apiKey.startsWith('ak_test_') ? 'test' : 'live';
    this.api = createApiClient(options);
  }
}
