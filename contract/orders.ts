// Step 2 of the integration: register protected orders (README, Quickstart and Concepts).
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { adaptForRoute, routeOrder } from './client-profile.js';
import { Address, AddressPatch, DateTime, string, text } from './common.js';
import { keyRoute } from './policy.js';
import { ErrorResponse, pickErrors } from './errors.js';
import { Currency, RestAmount, RestAmountOut, restAmount } from './money.js';

const c = initContract();

export const CustomerDetails = extendApi(
  z.object({
    first_name: text(100, "Shopper's first name."),
    last_name: text(100, "Shopper's last name."),
    email: string(254, z.string().email('must be an email address'), { description: "Shopper's email address." }),
    phone: string(40, z.string(), { description: "Shopper's phone number, in any format." }).optional(),
  }),
  { title: 'CustomerDetails', description: 'Needed so the shopper can file a claim.' },
);

export const OrderLineItem = extendApi(
  z.object({
    source_id: text(255, 'Unique within the order.'),
    name: text(500, 'Product name as the shopper saw it.'),
    price: restAmount('Pre-discount unit price.'),
    quantity: z
      .number({ invalid_type_error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .describe('Units ordered, a whole number from 1.'),
    source_product_id: string(255, z.string(), { description: "Merchant's product id." }).optional(),
    sku: string(255, z.string(), { description: 'Stock-keeping unit.' }).optional(),
    is_insured: z.boolean().optional().describe('Whether the item is covered, as the merchant sees it; recorded, not used in pricing.'),
    image_url: string(2048, z.string(), { description: 'Product image URL, shown on claims.' }).optional(),
  }),
  { title: 'OrderLineItem' },
);

const lineItems = z
  .array(OrderLineItem, { invalid_type_error: 'must be an array' })
  .min(1, 'must have at least one line item')
  .max(1000, 'must have at most 1000 line items');

/** The order the document shows, which the sandbox also sends as a test event's data. */
export const ORDER_REQUEST_EXAMPLE = {
  source_order_id: '1001',
  source_order_number: '#1001',
  subtotal: 125,
  insurance_selected: true,
  quote_id: '7d0f9b8e-4a53-4f0e-9b2e-2f1c5f3b8a11',
  order_total: 141.23,
  shipping_total: 9.95,
  taxes: 6.28,
  currency: 'USD',
  customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  shipping_details: {
    street_address1: '1600 Amphitheatre Pkwy',
    city: 'Mountain View',
    province: 'CA',
    zip: '94043',
    country_code: 'US',
  },
  line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2, sku: 'DESK-ORG-W' }],
  source_created_on: '2026-11-22T10:00:00Z',
};

export const OrderRequest = adaptForRoute(extendApi(
  z.object({
    source_order_id: text(255, "Merchant's order id. Unique per store; a repeat returns 409."),
    source_order_number: text(255).optional().describe('Number the customer sees. Default: source_order_id.'),
    subtotal: restAmount('Aggregate value of insurable items excluding the premium itself.'),
    insurance_selected: z
      .boolean({ invalid_type_error: 'must be true or false' })
      .describe('Whether the shopper took protection; only then is a premium booked.'),
    quote_id: string(255)
      .optional()
      .describe('From the quote response. Any string is accepted; one that does not resolve prices from the configured rate.'),
    order_total: RestAmount.optional().describe('Grand total the shopper paid; recorded.'),
    shipping_total: RestAmount.optional().describe('Shipping charged; recorded.'),
    discounts_total: RestAmount.optional().describe('Discounts applied, as a positive number; recorded.'),
    taxes: RestAmount.optional().describe('Taxes charged; recorded.'),
    currency: Currency.optional().describe('ISO 4217; USD only. Default USD.'),
    customer_details: CustomerDetails,
    shipping_details: Address,
    billing_address: Address.optional(),
    line_items: lineItems.describe('The items ordered, 1 to 1000.'),
    source_created_on: DateTime.describe('Placement time; decides which month the order lands in.'),
  }),
  { title: 'OrderRequest', example: ORDER_REQUEST_EXAMPLE },
), routeOrder);

export const OrderUpdateRequest = adaptForRoute(extendApi(
  z.object({
    source_order_number: text(255).optional().describe('Number the customer sees.'),
    subtotal: RestAmount.optional().describe('Re-prices the premium.'),
    insurance_selected: z.boolean({ invalid_type_error: 'must be true or false' }).optional().describe('Re-prices the premium.'),
    order_total: RestAmount.optional().describe('Grand total the shopper paid; recorded.'),
    shipping_total: RestAmount.optional().describe('Shipping charged; recorded.'),
    discounts_total: RestAmount.optional().describe('Discounts applied, as a positive number; recorded.'),
    taxes: RestAmount.optional().describe('Taxes charged; recorded.'),
    currency: Currency.optional().describe('ISO 4217; USD only.'),
    customer_details: extendApi(CustomerDetails.partial(), { title: 'CustomerDetailsPatch' }).optional(),
    shipping_details: AddressPatch.optional(),
    billing_address: AddressPatch.optional(),
    line_items: lineItems.optional().describe('When present, replaces the whole array.'),
    source_created_on: DateTime.optional().describe('Placement time; 409 if it differs from the stored one (it dated the booking).'),
  }),
  {
    title: 'OrderUpdateRequest',
    description:
      'Any subset of the order fields. Fields are merged (nested objects field by field), except line_items, which ' +
      'replaces the whole array. Only subtotal and insurance_selected re-price the premium. source_order_id and ' +
      'quote_id cannot be changed.',
    example: { subtotal: 150, line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 75, quantity: 2 }] },
  },
), routeOrder);

export const OrderLineItemOut = extendApi(
  z.object({
    source_id: z.string().describe("The line item's id, unique within the order."),
    name: z.string().describe('Product name.'),
    price: RestAmountOut.describe('Pre-discount unit price, in major units.'),
    quantity: z.number().int().describe('Units ordered.'),
    source_product_id: z.string().nullable().describe("Merchant's product id, or null."),
    sku: z.string().nullable().describe('Stock-keeping unit, or null.'),
    is_insured: z.boolean().nullable().describe('As sent, or null.'),
    image_url: z.string().nullable().describe('Product image URL, or null.'),
  }),
  { title: 'OrderLineItemOut' },
);

export const OrderResponse = extendApi(
  z.object({
    id: z.string().describe('Service order id (test-key orders start with test_). Support asks for it.'),
    merchant_id: z.string().describe('Store id.'),
    order_number: z.string().describe('Service-generated order number.'),
    source_order_id: z.string().describe("Merchant's order id, as sent."),
    source_order_number: z.string().describe('Number the customer sees.'),
    status: z.enum(['created', 'cancelled']).describe('cancelled once the order was cancelled; it is kept.'),
    insured_status: z
      .enum(['insured_selected', 'not_selected'])
      .describe('insured_selected when insurance_selected is true, else not_selected.'),
    insurance_selected: z.boolean().describe('Whether the shopper took protection.'),
    currency: z.literal('USD').describe('Always USD.'),
    exchange_rate: z.literal(1).describe('Always 1: amounts are USD.'),
    subtotal: RestAmountOut.describe('Value of the insurable items, in major units.'),
    subtotal_usd: RestAmountOut.describe('The same as subtotal (USD only).'),
    amount_covered: RestAmountOut.describe('Subtotal capped at the store maximum; 0 when protection was not selected.'),
    amount_covered_usd: RestAmountOut.describe('The same as amount_covered (USD only).'),
    paid_to_insure: RestAmountOut.describe('Premium booked, net of reversals (the sum of the order\'s ledger entries).'),
    paid_to_insure_usd: RestAmountOut.describe('The same as paid_to_insure (USD only).'),
    order_total: RestAmountOut.nullable().describe('As sent, or null.'),
    order_total_usd: RestAmountOut.nullable().describe('The same as order_total (USD only).'),
    shipping_total: RestAmountOut.nullable().describe('As sent, or null.'),
    shipping_total_usd: RestAmountOut.nullable().describe('The same as shipping_total (USD only).'),
    discounts_total: RestAmountOut.nullable().describe('As sent, or null.'),
    discounts_total_usd: RestAmountOut.nullable().describe('The same as discounts_total (USD only).'),
    taxes: RestAmountOut.nullable().describe('As sent, or null.'),
    taxes_usd: RestAmountOut.nullable().describe('The same as taxes (USD only).'),
    first_name: z.string().nullable().describe("Shopper's first name, or null when not held (see has_pii)."),
    last_name: z.string().nullable().describe("Shopper's last name, or null when not held (see has_pii)."),
    has_pii: z.boolean().describe('Whether personal data is held.'),
    platform_id: z.string().describe('Origin of the order: api for REST, else the platform slug.'),
    line_items: z.array(OrderLineItemOut).describe('The items ordered.'),
    source_created_on: DateTime.describe('Placement time, as sent; the month the premium is booked in.'),
    created_on: DateTime.describe('When the service registered the order.'),
    updated_on: DateTime.describe('When the order last changed.'),
    cancelled_on: DateTime.nullable().describe('When it was cancelled, or null.'),
  }),
  {
    title: 'OrderResponse',
    example: {
      id: '0b6f6f55-1f0d-4a55-a7a4-6c2f8f2d9c10',
      merchant_id: '5a3c1e9e-2b7f-4d8e-9f0a-1c2d3e4f5a6b',
      order_number: 'OP-100001',
      source_order_id: '1001',
      source_order_number: '#1001',
      status: 'created',
      insured_status: 'insured_selected',
      insurance_selected: true,
      currency: 'USD',
      exchange_rate: 1,
      subtotal: 125,
      subtotal_usd: 125,
      amount_covered: 125,
      amount_covered_usd: 125,
      paid_to_insure: 1.88,
      paid_to_insure_usd: 1.88,
      order_total: 141.23,
      order_total_usd: 141.23,
      shipping_total: 9.95,
      shipping_total_usd: 9.95,
      discounts_total: null,
      discounts_total_usd: null,
      taxes: 6.28,
      taxes_usd: 6.28,
      first_name: 'Ada',
      last_name: 'Lovelace',
      has_pii: true,
      platform_id: 'api',
      line_items: [
        { source_id: 'li_1', name: 'Walnut desk organiser', price: 62.5, quantity: 2, source_product_id: null, sku: 'DESK-ORG-W', is_insured: null, image_url: null },
      ],
      source_created_on: '2026-11-22T10:00:00.000Z',
      created_on: '2026-11-22T10:00:01.000Z',
      updated_on: '2026-11-22T10:00:01.000Z',
      cancelled_on: null,
    },
  },
);

/** The 409 of order create: the error, and what a retrying client needs of the order that landed. */
export const OrderConflictResponse = extendApi(
  ErrorResponse.extend({
    id: z.string().describe('The existing order\'s service id.'),
    order_number: z.string().describe("The existing order's service order number."),
    insured_status: z.enum(['insured_selected', 'not_selected']).describe("The existing order's insured_status."),
    paid_to_insure: z.number().describe('Premium booked on the existing order, net of reversals.'),
  }),
  {
    title: 'OrderConflict',
    description: 'The store already has an order with this source_order_id: the first attempt landed. The order that exists is described beside the error.',
  },
);

const SourceOrderIdParams = z.object({ source_order_id: extendApi(text(255), { example: '1001' }) });

const updateRoute = {
  path: '/v2/orders/:source_order_id',
  pathParams: SourceOrderIdParams,
  body: OrderUpdateRequest,
  responses: { 200: OrderResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
  metadata: keyRoute('orders', 'not_found'),
  description:
    'Send only what changed. Fields are merged; line_items, when present, replaces the whole array. Changing subtotal ' +
    'or insurance_selected re-prices the premium (a re-pricing ledger entry); no other field does. An empty body is ' +
    'a valid no-op. 409, naming the fields, for a change of source_created_on (it dated the booking, already counted ' +
    'in its billing month) and for a change of subtotal or insurance_selected on a cancelled order (it no longer ' +
    're-prices); sending the stored value again is fine. Test keys answer 404.',
} as const;

export const ordersContract = c.router({
  create: {
    method: 'POST',
    path: '/v2/orders',
    body: OrderRequest,
    responses: { 201: OrderResponse, 409: OrderConflictResponse, ...pickErrors(400, 401, 403, 413, 422, 429, 500) },
    metadata: keyRoute('orders', 'simulate'),
    summary: 'Create an order',
    description:
      'Registers a protected order once it reached a final pre-fulfilment state, and books the premium when ' +
      'insurance_selected is true: from the quote when quote_id resolves (issued by this store, unexpired, and the ' +
      'subtotal within max(1 USD, 1 %) of the quoted amount), otherwise from the configured rate. A bad quote id ' +
      'never fails the order. A retry either succeeds once or answers 409: 409 means the first attempt landed, and ' +
      "its body carries that order's id, order_number, insured_status and paid_to_insure beside the error.",
  },
  get: {
    method: 'GET',
    path: '/v2/orders/:source_order_id',
    pathParams: SourceOrderIdParams,
    responses: { 200: OrderResponse, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: keyRoute('orders', 'not_found'),
    summary: 'Read an order',
    description: 'Reads an order of the key\'s store by its source_order_id. Test keys answer 404.',
  },
  update: { ...updateRoute, method: 'POST', summary: 'Update an order' },
  updatePatch: { ...updateRoute, method: 'PATCH', summary: 'Update an order (PATCH)' },
  cancel: {
    method: 'POST',
    path: '/v1/orders/:source_order_id/cancel',
    pathParams: SourceOrderIdParams,
    body: c.noBody(),
    responses: { 200: OrderResponse, ...pickErrors(400, 401, 403, 404, 409, 422, 429, 500) },
    metadata: keyRoute('orders', 'not_found'),
    summary: 'Cancel an order',
    description:
      'Cancels the order (cancelled_on is set once). The order, its history and any booked premium are kept; no new ' +
      'claim can be filed. Cancelling an already-cancelled order succeeds. 409 while a claim on the order is open. ' +
      'No body. Test keys answer 404.',
  },
  redact: {
    method: 'POST',
    path: '/v2/orders/:source_order_id/redact',
    pathParams: SourceOrderIdParams,
    body: c.noBody(),
    responses: { 200: OrderResponse, ...pickErrors(400, 401, 403, 404, 409, 422, 429, 500) },
    metadata: keyRoute('orders', 'not_found'),
    summary: "Erase an order's personal data",
    description:
      "Erases the shopper's personal data from the order and every copy the service holds (GDPR art. 17, CCPA): names, " +
      'email, phone, shipping and billing addresses, line-item image URLs, claim texts and notes, refund notes, the ' +
      'cart text of its quote, and the order and claim objects inside stored events. Kept: ids, amounts, line items, ' +
      'shipments and tracking history, claims (without their texts) and the whole premium ledger. Afterwards has_pii ' +
      'is false and first_name and last_name read null. Erasing again succeeds and changes nothing. 409 while a claim ' +
      'on the order is open: the claim needs the contact until it is resolved (GDPR art. 17(3)(e)). No body. Test keys ' +
      'answer 404.',
  },
});
