// The inbound webhook from a commerce-platform backend (README, Platform webhooks). Every amount is
// an integer number of cents, checked on the raw request text (120.00 is refused).
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { Address, DateTime, string, text } from './common.js';
import { CustomerDataExport, CustomerEmail, WithheldOrder } from './customers.js';
import { platformSignedRoute } from './policy.js';
import { pickErrors } from './errors.js';
import { Currency, MAX_AMOUNT_CENTS } from './money.js';
import { TrackingNumber } from './shipments.js';

const c = initContract();

const Cents = z
  .number({ invalid_type_error: 'must be an integer number of cents' })
  .int('must be an integer number of cents')
  .min(0, 'must not be negative')
  .max(MAX_AMOUNT_CENTS, `must be at most ${MAX_AMOUNT_CENTS}`);

const PositiveCents = z
  .number({ invalid_type_error: 'must be an integer number of cents' })
  .int('must be an integer number of cents')
  .min(1, 'must be a positive number of cents')
  .max(MAX_AMOUNT_CENTS, `must be at most ${MAX_AMOUNT_CENTS}`);

const merchant = text(100, 'Slug of the store the message is for.');

export const PushedLineItem = z.object({
  id: text(255, "The line item's id on the platform."),
  sku: string(255).optional().describe('The protection line is recognised by SKU first (see the README).'),
  title: text(500, 'Product name as the shopper saw it.'),
  unit_price_cents: Cents.describe('Unit price in integer cents.'),
  quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000).describe('Units ordered.'),
  product_id: string(255, z.string(), { description: "The platform's product id." }).optional(),
});

export const OrderPlacedMessage = extendApi(
  z.object({
    merchant,
    event: z.literal('order.placed').describe('The message type.'),
    order: z.object({
      id: text(255, 'The order id; fulfilment and refund messages refer to it. It becomes source_order_id.'),
      number: string(255, z.string(), { description: 'Order number the customer sees.' }).optional(),
      created_at: DateTime.describe('Placement time: the month the premium is booked in.'),
      currency: Currency.optional().describe('ISO 4217; USD only. Default USD.'),
      quote_id: string(255).optional().describe('Strongly recommended: the premium is then the quoted one (cart-swap checked).'),
      protection_cents: Cents.optional().describe('Fallback premium, used only when no quote resolves.'),
      price_basis: z
        .enum(['pre_tax', 'tax_inclusive'], { errorMap: () => ({ message: 'must be pre_tax or tax_inclusive' }) })
        .optional()
        .describe('Whether unit_price_cents include sales tax; absent reads pre_tax. Tax-inclusive senders also send tax_cents.'),
      tax_cents: Cents.optional().describe('Sales tax in cents; needed with price_basis tax_inclusive.'),
      mode: string(20).optional().describe('test marks a sandbox order (any casing); live or absent is live.'),
      test: z.boolean().optional().describe('true marks a sandbox order, like mode test.'),
      total_cents: Cents.optional().describe('Grand total in cents; recorded.'),
      shipping_cents: Cents.optional().describe('Shipping charged in cents; recorded.'),
      discount_cents: Cents.optional().describe('Discounts in cents, as a positive number; recorded.'),
      customer: z
        .object({
          first_name: string(100).optional(),
          last_name: string(100).optional(),
          email: string(254, z.string().email('must be an email address')).optional(),
          phone: string(40).optional(),
        })
        .optional()
        .describe('The shopper, so they can file a claim.'),
      shipping_address: Address.optional(),
      line_items: z
        .array(PushedLineItem)
        .min(1, 'must have at least one line item')
        .max(1000)
        .describe('Every line of the order, the protection line included.'),
    }).describe('The order placed.'),
  }),
  {
    title: 'OrderPlacedMessage',
    description: 'Posted once the order is placed; books the premium.',
    example: {
      merchant: 'acme-shop',
      event: 'order.placed',
      order: {
        id: 'wc-5001',
        number: '#5001',
        created_at: '2026-11-20T10:00:00Z',
        currency: 'USD',
        quote_id: '7d0f9b8e-4a53-4f0e-9b2e-2f1c5f3b8a11',
        protection_cents: 188,
        customer: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
        shipping_address: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
        line_items: [
          { id: 'l1', sku: 'DESK-ORG', title: 'Desk organiser', unit_price_cents: 6250, quantity: 2 },
          { id: 'l2', sku: 'SHIPPING-PROTECTION', title: 'Shipping protection', unit_price_cents: 188, quantity: 1 },
        ],
      },
    },
  },
);

export const FulfillmentCreatedMessage = extendApi(
  z.object({
    merchant,
    event: z.literal('fulfillment.created').describe('The message type.'),
    order: z.object({ id: text(255, 'The order id of its order.placed message.') }).describe('The order fulfilled.'),
    fulfillment: z.object({
      id: text(255, 'Idempotency key: a redelivery is acknowledged as a duplicate.'),
      shipments: z
        .array(
          z.object({
            // A described copy of TrackingNumber, which loses the example TrackingNumberParams gives the original.
            tracking_number: extendApi(TrackingNumber.describe('As the carrier prints it; normalised like a shipment create.'), {
              example: '1Z999AA10123456784',
            }),
            courier_id: string(100, z.string(), { description: 'Carrier slug or alias; detected from the number when omitted.' }).optional(),
          }),
        )
        .min(1, 'must have at least one shipment')
        .max(100)
        .describe('The tracking numbers; each becomes a shipment of the order.'),
    }).describe('The fulfilment.'),
  }),
  {
    title: 'FulfillmentCreatedMessage',
    description: 'Delivers tracking numbers; each becomes a shipment of the order.',
    example: {
      merchant: 'acme-shop',
      event: 'fulfillment.created',
      order: { id: 'wc-5001' },
      fulfillment: { id: 'ful-9001', shipments: [{ tracking_number: '1Z999AA10123456784', courier_id: 'ups' }] },
    },
  },
);

export const RefundCreatedMessage = extendApi(
  z.object({
    merchant,
    event: z.literal('refund.created').describe('The message type.'),
    order: z.object({ id: text(255, 'The order id of its order.placed message.') }).describe('The order refunded.'),
    refund: z.object({
      id: text(255, 'Stable and unique per refund: the idempotency key. Required.'),
      amount_cents: Cents.optional().describe('Total returned to the shopper; kept for the record, not what is reversed.'),
      note: string(2000, z.string(), { description: 'Free text; recorded.' }).optional(),
      created_at: DateTime.optional().describe('Recommended: the credit is dated to it (otherwise to receipt).'),
      items: z
        .array(
          z.object({
            sku: text(255, 'Matched by SKU, never by title.'),
            refunded_cents: PositiveCents.optional().describe('Absent reads as zero.'),
          }),
        )
        .max(1000)
        .optional()
        .describe('What was refunded, by SKU: the refunded cents of the protection line are reversed.'),
    }).describe('The refund.'),
  }),
  {
    title: 'RefundCreatedMessage',
    description: 'Reverses exactly the refunded cents of the protection line, clamped to the premium remaining.',
    example: {
      merchant: 'acme-shop',
      event: 'refund.created',
      order: { id: 'wc-5001' },
      refund: { id: 'ref-7001', amount_cents: 6438, created_at: '2026-11-24T09:30:00Z', items: [{ sku: 'DESK-ORG', refunded_cents: 6250 }, { sku: 'SHIPPING-PROTECTION', refunded_cents: 188 }] },
    },
  },
);

const privacyRequest = (description: string) => z.object({ id: text(255, description) }).describe('The request.');
const requestId = "The platform's id for the request: a redelivery with the same id changes nothing.";
const namedOrders = (description: string) => z.array(text(255, 'An order id of its order.placed message.')).max(1000, 'must have at most 1000 order ids').optional().describe(description);

export const CustomerRedactMessage = extendApi(
  z.object({
    merchant,
    event: z.literal('customer.redact').describe('The message type.'),
    request: privacyRequest(requestId),
    customer: z.object({ email: CustomerEmail }).describe('The shopper whose personal data is erased.'),
    orders_to_redact: namedOrders("The shopper's orders as the platform knows them; erased too, whatever email they hold."),
  }),
  {
    title: 'CustomerRedactMessage',
    description: "Erases the shopper's personal data from every order of the store (Shopify's customers/redact).",
    example: { merchant: 'acme-shop', event: 'customer.redact', request: { id: 'gdpr-771' }, customer: { email: 'grace@example.com' }, orders_to_redact: ['wc-5001'] },
  },
);

export const CustomerDataRequestMessage = extendApi(
  z.object({
    merchant,
    event: z.literal('customer.data_request').describe('The message type.'),
    request: privacyRequest(requestId),
    customer: z.object({ email: CustomerEmail }).describe('The shopper asking for their data.'),
    orders_requested: namedOrders("The shopper's orders as the platform knows them; answered too."),
  }),
  {
    title: 'CustomerDataRequestMessage',
    description: "Answers the shopper's personal data in the acknowledgement's data (Shopify's customers/data_request).",
    example: { merchant: 'acme-shop', event: 'customer.data_request', request: { id: 'gdpr-772' }, customer: { email: 'grace@example.com' } },
  },
);

export const StoreRedactMessage = extendApi(
  z.object({
    merchant,
    event: z.literal('store.redact').describe('The message type.'),
    request: privacyRequest(requestId),
  }),
  {
    title: 'StoreRedactMessage',
    description: "The store uninstalled: all of its shoppers' personal data is erased 48 hours later unless cancelled (Shopify's shop/redact).",
    example: { merchant: 'acme-shop', event: 'store.redact', request: { id: 'uninstall-88' } },
  },
);

export const StoreRedactCancelledMessage = extendApi(
  z.object({
    merchant,
    event: z.literal('store.redact_cancelled').describe('The message type.'),
    request: privacyRequest('The id of the store.redact request it cancels.'),
  }),
  {
    title: 'StoreRedactCancelledMessage',
    description: 'The store was reinstalled before its erasure was due: the erasure is cancelled.',
    example: { merchant: 'acme-shop', event: 'store.redact_cancelled', request: { id: 'uninstall-88' } },
  },
);

export const PLATFORM_MESSAGE_EVENTS = [
  'order.placed',
  'fulfillment.created',
  'refund.created',
  'customer.redact',
  'customer.data_request',
  'store.redact',
  'store.redact_cancelled',
] as const;

export const WebhookMessage = z.discriminatedUnion(
  'event',
  [OrderPlacedMessage, FulfillmentCreatedMessage, RefundCreatedMessage, CustomerRedactMessage, CustomerDataRequestMessage, StoreRedactMessage, StoreRedactCancelledMessage],
  {
  errorMap: (issue, ctx) =>
    issue.code === 'invalid_union_discriminator'
      ? { message: `must be one of ${PLATFORM_MESSAGE_EVENTS.join(', ')}` }
      : { message: ctx.defaultError },
  },
);
export type WebhookMessage = z.infer<typeof WebhookMessage>;

export const WebhookAcknowledgement = extendApi(
  z.object({
    received: z.literal(true).describe('Always true.'),
    event: z.string().describe('The event of the message.'),
    mode: z.enum(['live', 'test']).describe('test for a sandbox order: nothing was booked.'),
    order_id: z.string().optional().describe('The order id of the message.'),
    premium_cents: z.number().int().optional().describe("The order's premium after this message (booked net of reversals)."),
    reversed_cents: z.number().int().optional().describe('refund.created: premium reversed by this refund.'),
    shipments_registered: z.number().int().optional().describe('fulfillment.created: tracking numbers newly registered.'),
    duplicate: z.boolean().describe('true for a redelivered message: nothing was changed.'),
    request_id: z.string().optional().describe('Privacy messages: the privacy request recorded for it.'),
    redacted_orders: z.array(z.string()).optional().describe('customer.redact: source_order_id of every order erased.'),
    withheld_orders: z.array(WithheldOrder).optional().describe('customer.redact: orders erased once their open claims are resolved.'),
    // customer.data_request: the shopper's personal data, to hand to the store (undescribed: the
    // titled schema is shared with the API's answer and must stay one component).
    data: CustomerDataExport.optional(),
    redaction_status: z.enum(['pending', 'completed', 'cancelled']).optional().describe('store.redact and store.redact_cancelled: where the erasure stands.'),
    redaction_due_at: DateTime.optional().describe('store.redact and store.redact_cancelled: when the erasure runs (ran, or would have run).'),
  }),
  {
    title: 'WebhookAcknowledgement',
    example: { received: true, event: 'order.placed', mode: 'live', order_id: 'wc-5001', premium_cents: 188, duplicate: false },
  },
);

export const webhooksContract = c.router({
  receive: {
    method: 'POST',
    path: '/api/webhooks/:platform_slug',
    pathParams: z.object({ platform_slug: extendApi(text(100), { example: 'shopify' }) }),
    body: WebhookMessage,
    responses: { 200: WebhookAcknowledgement, ...pickErrors(400, 401, 404, 409, 413, 500) },
    metadata: platformSignedRoute,
    summary: 'Receive a platform message',
    description:
      'order.placed, fulfillment.created, refund.created and the privacy messages (customer.redact, ' +
      'customer.data_request, store.redact, store.redact_cancelled) from a commerce-platform backend, for the store named by ' +
      '`merchant`, which must have the platform connected (404 otherwise). No API key: every message is signed with ' +
      'the platform\'s shared secret in `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, ' +
      'within 300 s of the server clock (401 otherwise). Amounts are integer cents, checked on the raw text: 120.00 ' +
      'is 400. A redelivered message (same order id, fulfillment id or refund id) answers 200 with duplicate true and ' +
      'changes nothing. A fulfilment or refund for an order not received yet answers 500 order_not_yet_ingested: ' +
      'retry later. A refund without refund.id is 400; a refund id already used for another order of the store is ' +
      '409 and reverses nothing. A credit is dated to refund.created_at, but never before the order\'s latest booking ' +
      'or re-pricing nor after receipt. A full refund of the protection line cancels the order even while a claim is ' +
      'open; the claim stays open. Test-mode orders (mode test, or test true) are validated ' +
      'and acknowledged with mode test, book nothing, and are never visible to live keys or in billing. Privacy messages ' +
      'carry request.id: a redelivery answers duplicate true and changes nothing. customer.redact erases every order of ' +
      'the email (and orders_to_redact) as the API does; customer.data_request answers the personal data in `data`; ' +
      'store.redact schedules the erasure of all of the store\'s personal data 48 hours later, and ' +
      'store.redact_cancelled with the same request id cancels it (409 once carried out, 404 when none is pending).',
  },
});
