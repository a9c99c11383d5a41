// The merchant client: one object per resource, each method typed from the contract, resolving with
// the success body or throwing a typed error (errors.ts). Requests are built by ts-rest's client from
// the same contract the server serves, and sent through the retrying transport (transport.ts).
import { initClient } from '@ts-rest/core';
import { contract } from '../../contract/index.js';
import {
  createFetcher,
  normaliseBaseUrl,
  pathSegment,
  refuseBrowser,
  resolveFetch,
  Transport,
  type RequestOptions,
  type TransportOptions,
} from './transport.js';
import type {
  AddressVerification,
  AddressVerificationRequest,
  BillingStatement,
  BillingStatementQuery,
  Claim,
  ClaimList,
  ClaimListQuery,
  ClaimRequest,
  Order,
  OrderRequest,
  OrderUpdateRequest,
  Quote,
  QuoteRequest,
  Shipment,
  ShipmentRequest,
  ShipmentUpdateRequest,
} from './types.js';

export type KeyMode = 'live' | 'test';

export interface ClientOptions extends TransportOptions {
  /** Secret key: ak_live_... or ak_test_.... For servers only: the constructor refuses to run in a browser. */
  apiKey: string;
  /** Where the API is served, e.g. https://api.example.com or http://localhost:3000. */
  baseUrl: string;
  /** Retries after the first attempt of a call, for network errors, timeouts, 429 and 5xx. Default 2; 0 for none. */
  maxRetries?: number;
  /** Deadline of each attempt, in milliseconds. Default 30000. */
  timeoutMs?: number;
}

const KEY_PATTERN = /^ak_(live|test)_\S+$/;

function createRawClient(baseUrl: string, apiKey: string, fetchImpl: typeof fetch) {
  return initClient(contract, {
    baseUrl,
    baseHeaders: { token: apiKey },
    api: createFetcher(fetchImpl),
    validateResponse: false,
  });
}
type RawClient = ReturnType<typeof createRawClient>;

export class Client {
  /** live or test, from the key prefix. Test keys store nothing, and their reads answer 404. */
  readonly mode: KeyMode;
  readonly quotes: Quotes;
  readonly orders: Orders;
  readonly shipments: Shipments;
  readonly addresses: Addresses;
  readonly claims: Claims;
  readonly billing: Billing;

  constructor(options: ClientOptions) {
    refuseBrowser('a secret API key');
    const match = typeof options.apiKey === 'string' ? KEY_PATTERN.exec(options.apiKey) : null;
    if (!match) throw new TypeError('apiKey must be an Order Protection secret key: ak_live_... or ak_test_....');
    this.mode = match[1] === 'test' ? 'test' : 'live';
    const raw = createRawClient(normaliseBaseUrl(options.baseUrl), options.apiKey, resolveFetch(options.fetch));
    const transport = new Transport(options);
    this.quotes = new Quotes(raw, transport);
    this.orders = new Orders(raw, transport);
    this.shipments = new Shipments(raw, transport);
    this.addresses = new Addresses(raw, transport);
    this.claims = new Claims(raw, transport);
    this.billing = new Billing(raw, transport);
  }
}

abstract class Resource {
  constructor(
    protected readonly raw: RawClient,
    protected readonly transport: Transport,
  ) {}
}

export class Quotes extends Resource {
  /** Prices protection for a cart (POST /v2/quotes). Pass the id as quote_id when creating the order. */
  async create(body: QuoteRequest, options?: RequestOptions): Promise<Quote> {
    return this.transport.request((signal) => this.raw.quotes.create({ body, fetchOptions: { signal } }), options);
  }
}

export class Orders extends Resource {
  /**
   * Registers an order and books its premium (POST /v2/orders). Safe to retry: when an earlier
   * attempt ended without telling whether it landed (network error, timeout, 5xx) and a retry
   * answers 409, the first attempt landed (the API keeps source_order_id unique per store), and
   * the order is read back and returned. A 409 without such an earlier attempt is a real
   * duplicate: ConflictError.
   */
  async create(body: OrderRequest, options?: RequestOptions): Promise<Order> {
    const exchange = await this.transport.exchange((signal) => this.raw.orders.create({ body, fetchOptions: { signal } }), options);
    if (exchange.response.status === 409 && exchange.earlierOutcomeUnknown) {
      return this.retrieve(body.source_order_id, options);
    }
    return this.transport.result<Order>(exchange);
  }

  /** Reads an order of the key's store (GET /v2/orders/{source_order_id}). */
  async retrieve(sourceOrderId: string, options?: RequestOptions): Promise<Order> {
    const params = { source_order_id: pathSegment('sourceOrderId', sourceOrderId) };
    return this.transport.request((signal) => this.raw.orders.get({ params, fetchOptions: { signal } }), options);
  }

  /**
   * Changes an order (PATCH /v2/orders/{source_order_id}): send only what changed. Nested objects
   * merge field by field, line_items replaces the whole array; subtotal and insurance_selected re-price.
   */
  async update(sourceOrderId: string, patch: OrderUpdateRequest, options?: RequestOptions): Promise<Order> {
    const params = { source_order_id: pathSegment('sourceOrderId', sourceOrderId) };
    return this.transport.request((signal) => this.raw.orders.updatePatch({ params, body: patch, fetchOptions: { signal } }), options);
  }

  /** Cancels an order (POST /v1/orders/{source_order_id}/cancel); repeating it succeeds. ConflictError while a claim is open. */
  async cancel(sourceOrderId: string, options?: RequestOptions): Promise<Order> {
    const params = { source_order_id: pathSegment('sourceOrderId', sourceOrderId) };
    return this.transport.request((signal) => this.raw.orders.cancel({ params, fetchOptions: { signal } }), options);
  }
}

export class Shipments extends Resource {
  /** Registers a tracking number of an existing order (POST /v1/shipments). The same active number twice is ConflictError. */
  async create(body: ShipmentRequest, options?: RequestOptions): Promise<Shipment> {
    return this.transport.request((signal) => this.raw.shipments.create({ body, fetchOptions: { signal } }), options);
  }

  /** Reads a shipment with its latest 100 scans (GET /v1/shipments/{tracking_number}). */
  async retrieve(trackingNumber: string, options?: RequestOptions): Promise<Shipment> {
    const params = { tracking_number: pathSegment('trackingNumber', trackingNumber) };
    return this.transport.request((signal) => this.raw.shipments.get({ params, fetchOptions: { signal } }), options);
  }

  /** Sets the carrier (PATCH /v1/shipments/{tracking_number}); courier_id is the only field that can change. */
  async update(trackingNumber: string, patch: ShipmentUpdateRequest, options?: RequestOptions): Promise<Shipment> {
    const params = { tracking_number: pathSegment('trackingNumber', trackingNumber) };
    return this.transport.request((signal) => this.raw.shipments.updatePatch({ params, body: patch, fetchOptions: { signal } }), options);
  }

  /** Cancels a shipment (POST /v1/shipments/{tracking_number}/cancel); repeating it succeeds. */
  async cancel(trackingNumber: string, options?: RequestOptions): Promise<Shipment> {
    const params = { tracking_number: pathSegment('trackingNumber', trackingNumber) };
    return this.transport.request((signal) => this.raw.shipments.cancel({ params, fetchOptions: { signal } }), options);
  }
}

export class Addresses extends Resource {
  /**
   * Tells whether a US address can be delivered to (POST /v2/addresses/verify). Test `deliverable`
   * with === false: null means unknown, and unknown is shipped.
   */
  async verify(body: AddressVerificationRequest, options?: RequestOptions): Promise<AddressVerification> {
    return this.transport.request((signal) => this.raw.addresses.verify({ body, fetchOptions: { signal } }), options);
  }
}

export class Claims extends Resource {
  /**
   * Files a claim (POST /v1/claims). The API cannot tell a retried claim from a second one, so this
   * call is retried only when the API certainly did not act (429, a refused connection). After a
   * ConnectionError, TimeoutError or APIError, list the order's claims before filing again.
   */
  async create(body: ClaimRequest, options?: RequestOptions): Promise<Claim> {
    return this.transport.request((signal) => this.raw.claims.create({ body, fetchOptions: { signal } }), options, {
      retryUnknownOutcome: false,
    });
  }

  /** Reads a claim (GET /v1/claims/{id}). */
  async retrieve(id: string, options?: RequestOptions): Promise<Claim> {
    const params = { id: pathSegment('id', id) };
    return this.transport.request((signal) => this.raw.claims.get({ params, fetchOptions: { signal } }), options);
  }

  /** Every claim of an order, oldest first (GET /v1/claims?source_order_id=...). */
  async list(query: ClaimListQuery, options?: RequestOptions): Promise<ClaimList> {
    return this.transport.request((signal) => this.raw.claims.list({ query, fetchOptions: { signal } }), options);
  }
}

export class Billing extends Resource {
  /** The store's premium statement for one calendar month in UTC (GET /v1/billing/statements?month=YYYY-MM). */
  async statement(query: BillingStatementQuery, options?: RequestOptions): Promise<BillingStatement> {
    return this.transport.request((signal) => this.raw.billing.statements({ query, fetchOptions: { signal } }), options);
  }
}
