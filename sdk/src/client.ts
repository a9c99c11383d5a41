// The merchant client: one object per resource, each method typed with the API's own request and
// response types (types.ts), resolving with the success body or throwing a typed error (errors.ts).
// Requests follow the route table generated from the contract (routes.ts) through the retrying
// transport (transport.ts).
import { Webhooks } from './events.js';
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
  type DownloadedFile,
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
  ClaimRuleSet,
  ClaimRulesDryRun,
  ClaimRulesDryRunRequest,
  ClaimRulesRequest,
  ClaimStatusRequest,
  CustomerDataExport,
  CustomerRedaction,
  CustomerRequest,
  DeletedWebhookEndpoint,
  DeliveryListQuery,
  EventList,
  EventListQuery,
  EventResendRequest,
  EventResendResponse,
  MerchantEvent,
  Order,
  OrderRequest,
  OrderUpdateRequest,
  Quote,
  QuoteRequest,
  Shipment,
  ShipmentRequest,
  ShipmentUpdateRequest,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointRequest,
  WebhookEndpointRotation,
  WebhookEndpointUpdateRequest,
  WebhookEndpointWithSecret,
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
  /** The store's claim rules. Live keys only. */
  readonly claimRules: ClaimRules;
  /** A shopper's personal data across the store's orders, by email. Live keys only. */
  readonly customers: Customers;
  readonly billing: Billing;
  /** The store's webhook endpoints, where events are POSTed. Live keys only. */
  readonly webhookEndpoints: WebhookEndpoints;
  /** The store's events of the last 30 days. Live keys only. */
  readonly events: Events;
  /** Receiving events: `client.webhooks.constructEvent(rawBody, headers, secret)`. */
  readonly webhooks: Webhooks;
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
    this.claimRules = new ClaimRules(transport);
    this.customers = new Customers(transport);
    this.billing = new Billing(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.events = new Events(transport);
    this.webhooks = new Webhooks();
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

  /**
   * Erases the shopper's personal data from the order and every copy the service holds
   * (POST /v2/orders/{source_order_id}/redact); money and the order's facts are kept, has_pii turns
   * false. Repeating it succeeds. ConflictError while a claim on the order is open.
   */
  async redact(sourceOrderId: string, options?: RequestOptions): Promise<WithLastResponse<Order>> {
    return this.transport.request({ route: routes.orders.redact, params: { source_order_id: pathSegment('sourceOrderId', sourceOrderId) } }, options);
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

  /** Every claim of an order, oldest first (GET /v1/claims?source_order_id=...), or the one with a reference (?reference=CLM-...). */
  async list(query: ClaimListQuery, options?: RequestOptions): Promise<WithLastResponse<ClaimList>> {
    return this.transport.request({ route: routes.claims.list, query: { ...query } }, options);
  }

  /**
   * Downloads a photo the shopper attached (GET /v1/claims/{id}/photos/{photo_id}): a JPEG without
   * its metadata, as `data` bytes. The ids are in the claim's `photos`.
   */
  async downloadPhoto(id: string, photoId: string, options?: RequestOptions): Promise<WithLastResponse<DownloadedFile>> {
    return this.transport.request({ route: routes.claims.photo, params: { id: pathSegment('id', id), photo_id: pathSegment('photo_id', photoId) }, binary: true }, options);
  }

  /**
   * Decides a claim (POST /v1/claims/{id}/status) exactly as the console does: approved needs a
   * resolution, paid a payout. A move the claim's status does not allow throws ConflictError; a
   * refund over amount_claimed, or a payout over the resolution, UnprocessableError. Live keys only.
   */
  async setStatus(id: string, body: ClaimStatusRequest, options?: RequestOptions): Promise<WithLastResponse<Claim>> {
    return this.transport.request({ route: routes.claims.setStatus, params: { id: pathSegment('id', id) }, body }, options);
  }
}

/** The store's claim rules: an ordered list that decides claims on its own, with its reasons. Live keys only. */
export class ClaimRules extends Resource {
  /** The current version and its rules (GET /v1/claim_rules); version 0 and no rules for a new store. */
  async retrieve(options?: RequestOptions): Promise<WithLastResponse<ClaimRuleSet>> {
    return this.transport.request({ route: routes.claimRules.get }, options);
  }

  /** Replaces the whole list as a new version (PUT /v1/claim_rules). */
  async update(body: ClaimRulesRequest, options?: RequestOptions): Promise<WithLastResponse<ClaimRuleSet>> {
    return this.transport.request({ route: routes.claimRules.put, body }, options);
  }

  /** What a proposed list would have done to the store's claims since a date (POST /v1/claim_rules/dry_run); changes nothing. */
  async dryRun(body: ClaimRulesDryRunRequest, options?: RequestOptions): Promise<WithLastResponse<ClaimRulesDryRun>> {
    return this.transport.request({ route: routes.claimRules.dryRun, body }, options);
  }
}

export class Customers extends Resource {
  /**
   * Erases the shopper's personal data from every order of the store with that email (POST
   * /v2/customers/redact), as orders.redact does for one. Orders with an open claim come back in
   * withheld_orders and are erased once their claims are resolved, without asking again.
   */
  async redact(body: CustomerRequest, options?: RequestOptions): Promise<WithLastResponse<CustomerRedaction>> {
    return this.transport.request({ route: routes.customers.redact, body }, options);
  }

  /**
   * Every piece of personal data the store holds for the email (POST /v2/customers/data_request),
   * to answer a shopper's access request. It only reads, so it takes no Idempotency-Key: the answer
   * is personal data and is never kept.
   */
  async dataRequest(body: CustomerRequest, options?: RequestOptions): Promise<WithLastResponse<CustomerDataExport>> {
    return this.transport.request({ route: routes.customers.dataRequest, body }, options);
  }
}

export class Billing extends Resource {
  /** The store's premium statement for one calendar month in UTC (GET /v1/billing/statements?month=YYYY-MM). */
  async statement(query: BillingStatementQuery, options?: RequestOptions): Promise<WithLastResponse<BillingStatement>> {
    return this.transport.request({ route: routes.billing.statements, query: { ...query } }, options);
  }
}

/**
 * The store's webhook endpoints: URLs the service POSTs events to, signed with the endpoint's
 * secret (check them with `client.webhooks.constructEvent`). Live keys only: with a test key every
 * method throws NotFoundError.
 */
export class WebhookEndpoints extends Resource {
  /**
   * Subscribes an https URL to event types, or ['*'] for all (POST /v1/webhook_endpoints). The
   * answer holds the signing secret, whsec_..., and is the only one that does: store it.
   */
  async create(body: WebhookEndpointRequest, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpointWithSecret>> {
    return this.transport.request({ route: routes.webhookEndpoints.create, body }, options);
  }

  /** Every endpoint of the store, oldest first, without secrets (GET /v1/webhook_endpoints). */
  async list(options?: RequestOptions): Promise<WithLastResponse<WebhookEndpointList>> {
    return this.transport.request({ route: routes.webhookEndpoints.list }, options);
  }

  /** Reads an endpoint (GET /v1/webhook_endpoints/{id}): `status` and `disabled_reason` tell whether it was disabled for failing. */
  async retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpoint>> {
    return this.transport.request({ route: routes.webhookEndpoints.get, params: { id: pathSegment('id', id) } }, options);
  }

  /**
   * Changes url, events, description or enabled (PATCH /v1/webhook_endpoints/{id}): send only what
   * changed. `{ enabled: true }` re-enables an endpoint disabled for failing.
   */
  async update(id: string, patch: WebhookEndpointUpdateRequest, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpoint>> {
    return this.transport.request({ route: routes.webhookEndpoints.update, params: { id: pathSegment('id', id) }, body: patch }, options);
  }

  /** Deletes an endpoint and its delivery log (DELETE /v1/webhook_endpoints/{id}); nothing more is sent to it. */
  async del(id: string, options?: RequestOptions): Promise<WithLastResponse<DeletedWebhookEndpoint>> {
    return this.transport.request({ route: routes.webhookEndpoints.delete, params: { id: pathSegment('id', id) } }, options);
  }

  /**
   * Answers a new secret, once (POST /v1/webhook_endpoints/{id}/rotate_secret). Until
   * `previous_secret_expires_on` (24 hours) every delivery is signed with both, so the receiver can
   * switch secrets without refusing an event.
   */
  async rotateSecret(id: string, options?: RequestOptions): Promise<WithLastResponse<WebhookEndpointRotation>> {
    return this.transport.request({ route: routes.webhookEndpoints.rotateSecret, params: { id: pathSegment('id', id) } }, options);
  }

  /**
   * A page of the endpoint's deliveries, newest first, each with every attempt
   * (GET /v1/webhook_endpoints/{id}/deliveries). For the next page, pass the last id as starting_after.
   */
  async listDeliveries(id: string, query: DeliveryListQuery = {}, options?: RequestOptions): Promise<WithLastResponse<WebhookDeliveryList>> {
    return this.transport.request({ route: routes.webhookEndpoints.deliveries, params: { id: pathSegment('id', id) }, query: { ...query } }, options);
  }
}

/** The store's events, whether or not an endpoint received them. Live keys only: with a test key every method throws NotFoundError. */
export class Events extends Resource {
  /** A page of events, newest first, optionally of one type (GET /v1/events). For the next page, pass the last id as starting_after. */
  async list(query: EventListQuery = {}, options?: RequestOptions): Promise<WithLastResponse<EventList>> {
    return this.transport.request({ route: routes.events.list, query: { ...query } }, options);
  }

  /** Reads an event, as it was delivered (GET /v1/events/{id}). */
  async retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<MerchantEvent>> {
    return this.transport.request({ route: routes.events.get, params: { id: pathSegment('id', id) } }, options);
  }

  /**
   * Queues a new delivery of the event, with the same webhook-id (POST /v1/events/{id}/resend): to
   * `endpoint_id` only, or to every enabled endpoint subscribed to its type. ConflictError when that
   * endpoint is disabled or not subscribed.
   */
  async resend(id: string, body: EventResendRequest = {}, options?: RequestOptions): Promise<WithLastResponse<EventResendResponse>> {
    return this.transport.request({ route: routes.events.resend, params: { id: pathSegment('id', id) }, body }, options);
  }
}
