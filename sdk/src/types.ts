// The request and response shapes under merchant-friendly names. None is written by hand: requests
// are the contract's zod input types and responses its output types, through ts-rest's inference.
import type { ClientInferRequest, ClientInferResponseBody } from '@ts-rest/core';
import type { z } from 'zod';
import type { Contract, WebhookMessage } from '../../contract/index.js';

type Body<R extends { body: unknown }> = R['body'];

/** POST /v2/quotes. */
export type QuoteRequest = Body<ClientInferRequest<Contract['quotes']['create']>>;
export type Quote = ClientInferResponseBody<Contract['quotes']['create'], 201>;

/** POST /v2/orders. */
export type OrderRequest = Body<ClientInferRequest<Contract['orders']['create']>>;
/** POST or PATCH /v2/orders/{source_order_id}: only what changed. */
export type OrderUpdateRequest = Body<ClientInferRequest<Contract['orders']['update']>>;
export type Order = ClientInferResponseBody<Contract['orders']['create'], 201>;
export type OrderLineItem = OrderRequest['line_items'][number];

/** POST /v1/shipments. */
export type ShipmentRequest = Body<ClientInferRequest<Contract['shipments']['create']>>;
/** POST or PATCH /v1/shipments/{tracking_number}: courier_id only. */
export type ShipmentUpdateRequest = Body<ClientInferRequest<Contract['shipments']['update']>>;
export type Shipment = ClientInferResponseBody<Contract['shipments']['create'], 201>;
export type Checkpoint = Shipment['checkpoints'][number];

/** POST /v2/addresses/verify. */
export type AddressVerificationRequest = Body<ClientInferRequest<Contract['addresses']['verify']>>;
export type AddressVerification = ClientInferResponseBody<Contract['addresses']['verify'], 200>;

/** POST /v1/claims. */
export type ClaimRequest = Body<ClientInferRequest<Contract['claims']['create']>>;
export type Claim = ClientInferResponseBody<Contract['claims']['create'], 201>;
export type ClaimListQuery = ClientInferRequest<Contract['claims']['list']>['query'];
export type ClaimList = ClientInferResponseBody<Contract['claims']['list'], 200>;

/** GET /v1/billing/statements. */
export type BillingStatementQuery = ClientInferRequest<Contract['billing']['statements']>['query'];
export type BillingStatement = ClientInferResponseBody<Contract['billing']['statements'], 200>;

/** POST /api/webhooks/{platform_slug}: any of the three platform messages. */
export type PlatformMessage = z.input<typeof WebhookMessage>;
export type OrderPlacedMessage = Extract<PlatformMessage, { event: 'order.placed' }>;
export type FulfillmentCreatedMessage = Extract<PlatformMessage, { event: 'fulfillment.created' }>;
export type RefundCreatedMessage = Extract<PlatformMessage, { event: 'refund.created' }>;
export type WebhookAcknowledgement = ClientInferResponseBody<Contract['webhooks']['receive'], 200>;

/** The API's error body, as carried in OrderProtectionError.raw. */
export type ErrorResponse = ClientInferResponseBody<Contract['orders']['create'], 400>;
