// The merchant client: one object per resource, each method typed with the API's own request and
// response types (types.ts), resolving with the success body or throwing a typed error (errors.ts).
// Requests follow the route table generated from the contract (routes.ts) through the retrying
// transport (transport.ts).
import { routes } from './routes.js';
import {
  Emitter,
  pathSegment,
  refuseBrowser,
  Transport,
  type ClientEvents,
  type RequestOptions,
  type TransportOptions,
  type WithLastResponse,
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
  /** Secret key: ak_live_... or ak_test_.... For servers and edge functions only: the constructor refuses to run in a browser. */
  apiKey: string;
  /** Where the API is served, e.g. https://api.example.com or http://localhost:3000. */
  baseUrl: string;
}

const KEY_PATTERN = /^ak_(live|test)_\S+$/;

export class Client {
  /** live or test, from the key prefix. Test keys store nothing, and their reads answer 404. */
  readonly mode: KeyMode;
  readonly quotes: Quotes;
  readonly orders: Orders;
  readonly shipments: Shipments;
  readonly addresses: Addresses;
  readonly claims: Claims;
  readonly billing: Billing;
  private readonly emitter = new Emitter();

  constructor(options: ClientOptions) {
    refuseBrowser('a secret API key');
    const match = typeof options.apiKey === 'string' ? KEY_PATTERN.exec(options.apiKey) : null;
    if (!match) throw new TypeError('apiKey must be an Order Protection secret key: ak_live_... or ak_test_....');
    this.mode = match[1] === 'test' ? 'test' : 'live';
    const transport = new Transport({ baseUrl: options.baseUrl, headers: { token: options.apiKey }, emitter: this.emitter }, options);
    this.quotes = new Quotes(transport);
    this.orders = new Orders(transport);
    this.shipments = new Shipments(transport);
    this.addresses = new Addresses(transport);
    this.claims = new Claims(transport);
    this.billing = new Billing(transport);
  }

  /**
   * Calls `listener` before each attempt ('request') and for each answer ('response'), e.g. to log
   * or time them. Listeners run synchronously; an exception thrown by one is ignored.
   */
  on<Name extends keyof ClientEvents>(name: Name, listener: (event: ClientEvents[Name]) => void): this {
    this.emitter.on(name, listener);
    return this;
  }

  /** Removes a listener added with on(). */
  off<Name extends keyof ClientEvents>(name: Name, listener: (event: ClientEvents[Name]) => void): this {
    this.emitter.off(name, listener);
    return this;
  }
}

/** Methods are async so that a bad argument rejects, like any failure, rather than throwing. */
abstract class Resource {
  constructor(protected readonly transport: Transport) {}
}

export class Quotes extends Resource {
  /** Prices protection for a cart (POST /v2/quotes). Pass the id as quote_id when creating the order. */
  async create(body: QuoteRequest, options?: RequestOptions): Promise<WithLastResponse<Quote>> {
    return this.transport.request({ route: routes.quotes.create, body }, options);
  }
}

export class Orders extends Resource {
  /**
   * Registers an order and books its premium (POST /v2/orders). Safe to retry: the call's
   * Idempotency-Key makes a retry after a lost answer get the first attempt's answer. An order
   * that already exists under this source_order_id (another call) is ConflictError.
   */
  async create(body: OrderRequest, options?: RequestOptions): Promise<WithLastResponse<Order>> {
    return this.transport.request({ route: routes.orders.create, body }, options);
  }

  /** Reads an order of the key's store (GET /v2/orders/{source_order_id}). */
  async retrieve(sourceOrderId: string, options?: RequestOptions): Promise<WithLastResponse<Order>> {
    return this.transport.request({ route: routes.orders.get, params: { source_order_id: pathSegment('sourceOrderId', sourceOrderId) } }, options);
  }

  /**
   * Changes an order (PATCH /v2/orders/{source_order_id}): send only what changed. Nested objects
   * merge field by field, line_items replaces the whole array; subtotal and insurance_selected re-price.
   */
  async update(sourceOrderId: string, patch: OrderUpdateRequest, options?: RequestOptions): Promise<WithLastResponse<Order>> {
    const params = { source_order_id: pathSegment('sourceOrderId', sourceOrderId) };
    return this.transport.request({ route: routes.orders.updatePatch, params, body: patch }, options);
  }

  /** Cancels an order (POST /v1/orders/{source_order_id}/cancel); repeating it succeeds. ConflictError while a claim is open. */
  async cancel(sourceOrderId: string, options?: RequestOptions): Promise<WithLastResponse<Order>> {
    return this.transport.request({ route: routes.orders.cancel, params: { source_order_id: pathSegment('sourceOrderId', sourceOrderId) } }, options);
  }
}

export class Shipments extends Resource {
  /** Registers a tracking number of an existing order (POST /v1/shipments). The same active number twice is ConflictError. */
  async create(body: ShipmentRequest, options?: RequestOptions): Promise<WithLastResponse<Shipment>> {
    return this.transport.request({ route: routes.shipments.create, body }, options);
  }

  /** Reads a shipment with its latest 100 scans (GET /v1/shipments/{tracking_number}). */
  async retrieve(trackingNumber: string, options?: RequestOptions): Promise<WithLastResponse<Shipment>> {
    return this.transport.request({ route: routes.shipments.get, params: { tracking_number: pathSegment('trackingNumber', trackingNumber) } }, options);
  }

  /** Sets the carrier (PATCH /v1/shipments/{tracking_number}); courier_id is the only field that can change. */
  async update(trackingNumber: string, patch: ShipmentUpdateRequest, options?: RequestOptions): Promise<WithLastResponse<Shipment>> {
    const params = { tracking_number: pathSegment('trackingNumber', trackingNumber) };
    return this.transport.request({ route: routes.shipments.updatePatch, params, body: patch }, options);
  }

  /** Cancels a shipment (POST /v1/shipments/{tracking_number}/cancel); repeating it succeeds. */
  async cancel(trackingNumber: string, options?: RequestOptions): Promise<WithLastResponse<Shipment>> {
    return this.transport.request({ route: routes.shipments.cancel, params: { tracking_number: pathSegment('trackingNumber', trackingNumber) } }, options);
  }
}

export class Addresses extends Resource {
  /**
   * Tells whether a US address can be delivered to (POST /v2/addresses/verify). Test `deliverable`
   * with === false: null means unknown, and unknown is shipped.
   */
  async verify(body: AddressVerificationRequest, options?: RequestOptions): Promise<WithLastResponse<AddressVerification>> {
    return this.transport.request({ route: routes.addresses.verify, body }, options);
  }
}

export class Claims extends Resource {
  /** Files a claim (POST /v1/claims). Safe to retry with the same Idempotency-Key, as every write. */
  async create(body: ClaimRequest, options?: RequestOptions): Promise<WithLastResponse<Claim>> {
    return this.transport.request({ route: routes.claims.create, body }, options);
  }

  /** Reads a claim (GET /v1/claims/{id}). */
  async retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Claim>> {
    return this.transport.request({ route: routes.claims.get, params: { id: pathSegment('id', id) } }, options);
  }

  /** Every claim of an order, oldest first (GET /v1/claims?source_order_id=...). */
  async list(query: ClaimListQuery, options?: RequestOptions): Promise<WithLastResponse<ClaimList>> {
    return this.transport.request({ route: routes.claims.list, query: { ...query } }, options);
  }
}

export class Billing extends Resource {
  /** The store's premium statement for one calendar month in UTC (GET /v1/billing/statements?month=YYYY-MM). */
  async statement(query: BillingStatementQuery, options?: RequestOptions): Promise<WithLastResponse<BillingStatement>> {
    return this.transport.request({ route: routes.billing.statements, query: { ...query } }, options);
  }
}
