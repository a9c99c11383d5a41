// Route's v1 routes and WooCommerce's native order webhooks: what Route's own store plugins call
// (WooCommerce "Route App", the PrestaShop module, the Magento 1 extension), served on the same
// domain code as the documented routes, so a store on those plugins switches by repointing the
// plugin's hosts (docs/route-compatibility.md). Response shapes are the fields the plugins read.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { string, text } from './common.js';
import { pickErrors } from './errors.js';
import { MAX_AMOUNT_CENTS, majorTextToCents } from './money.js';
import { OrderConflictResponse, OrderRequest, OrderResponse, OrderUpdateRequest } from './orders.js';
import { keyRoute, type RoutePolicy } from './policy.js';

const c = initContract();

export const ROUTE_COMPATIBILITY_TAG = 'route-compatibility';
const routeTag = { tag: ROUTE_COMPATIBILITY_TAG } as const;

const SourceOrderIdParams = z.object({ source_order_id: extendApi(text(255), { example: '1001' }) });

/** An amount in a query string, as PHP's http_build_query writes it ("25.88", "25.0000"): exact, at most two decimals once trailing zeros go. */
const QueryAmount = z
  .string({ required_error: 'is required' })
  // Two decimals at most once trailing zeros are dropped: "25.0000" is 25, "1.005" is refused.
  .regex(/^\d{1,10}(\.\d{0,2}0*)?$/, 'must be an amount in major units with at most two decimals, e.g. 25.88')
  .transform((value) => {
    const [whole = '0', fraction = ''] = value.split('.');
    return majorTextToCents(`${whole}.${fraction.slice(0, 2) || '0'}`);
  });

export const RouteQuoteQuery = z.object({
  subtotal: QueryAmount.describe('Insurable cart value in major units.'),
  currency: z.literal('USD', { errorMap: () => ({ message: 'only USD is supported' }) }).optional(),
  taxes: z.string().optional().describe('Sent by the Magento 1 extension; not used.'),
  selected_insurance: z.string().optional().describe('Sent by the Magento 1 extension; not used.'),
});

export const RouteQuoteResponse = extendApi(
  z.object({
    insurance_price: z.number().describe('The premium for this subtotal, in major units.'),
    subtotal_usd: z.number(),
    currency: z.literal('USD'),
    coverage_lower_limit: z.number().describe('The plugins show protection only for subtotals above it.'),
    coverage_upper_limit: z.number().describe("The store's cap on the covered amount (the largest amount when it has none)."),
    payment_responsible: z.object({ type: z.literal('paid_by_customer'), ToggleState: z.boolean() }),
  }),
  {
    title: 'RouteQuote',
    example: {
      insurance_price: 0.98,
      subtotal_usd: 25.88,
      currency: 'USD',
      coverage_lower_limit: 0,
      coverage_upper_limit: 5000,
      payment_responsible: { type: 'paid_by_customer', ToggleState: true },
    },
  },
);

export const RouteMerchant = extendApi(
  z.object({
    id: z.string().describe('The store id: WooCommerce derives its webhook secret from it.'),
    name: z.string(),
    store_name: z.string(),
    status: z.literal('Active'),
    currency: z.literal('USD'),
    has_route_plus: z.literal(true).describe('The PrestaShop module shows its widget only when this is true.'),
    merchant_preferences: z.object({
      opt_in: z.boolean(),
      opt_out: z.boolean(),
      merchant_supplied_insurance: z.boolean(),
    }),
  }),
  {
    title: 'RouteMerchant',
    example: {
      id: '5a3c1e9e-2b7f-4d8e-9f0a-1c2d3e4f5a6b',
      name: 'Acme Shop',
      store_name: 'Acme Shop',
      status: 'Active',
      currency: 'USD',
      has_route_plus: true,
      merchant_preferences: { opt_in: false, opt_out: true, merchant_supplied_insurance: false },
    },
  },
);

/** The parts of WooCommerce's REST v3 order the service reads; everything else is passed over. */
const WooLine = z
  .object({
    id: z.number().int(),
    name: string(500),
    product_id: z.number().int().optional(),
    variation_id: z.number().int().optional(),
    quantity: z.number().int(),
    subtotal: string(40),
    sku: string(255).nullable().optional(),
    meta_data: z.array(z.object({ key: string(255), value: z.unknown() }).passthrough()).max(1000).optional(),
  })
  .passthrough();

const WooAddress = z
  .object({
    first_name: string(100).optional(),
    last_name: string(100).optional(),
    address_1: string(200).optional(),
    address_2: string(200).optional(),
    city: string(100).optional(),
    state: string(100).optional(),
    postcode: string(20).optional(),
    country: string(2).optional(),
    email: string(254).optional(),
    phone: string(40).optional(),
  })
  .passthrough();

export const WooCommerceOrder = extendApi(
  z
    .object({
      id: z.number().int().min(1),
      number: string(255).optional(),
      status: string(50),
      currency: string(3).optional(),
      date_created_gmt: string(40),
      total: string(40).optional(),
      total_tax: string(40).optional(),
      shipping_total: string(40).optional(),
      discount_total: string(40).optional(),
      billing: WooAddress.optional(),
      shipping: WooAddress.optional(),
      line_items: z.array(WooLine).max(1000),
      fee_lines: z.array(z.object({ name: string(500), total: string(40) }).passthrough()).max(100).optional(),
      meta_data: z.array(z.object({ key: string(255), value: z.unknown() }).passthrough()).max(1000).optional(),
    })
    .passthrough(),
  { title: 'WooCommerceOrder', description: "WooCommerce's REST v3 order, as its order.updated webhook delivers it." },
);

export const WooCommerceDeletedOrder = z.object({ id: z.number().int().min(1) }).strict();

export const WooCommercePing = z.object({ webhook_id: string(40) }).strict();

export const WooCommerceDelivery = extendApi(z.union([WooCommerceDeletedOrder, WooCommercePing, WooCommerceOrder]), {
  title: 'WooCommerceDelivery',
  description: 'An order (order.updated), {"id": N} (order.deleted), or the form-encoded ping webhook_id=N.',
  example: {
    id: 1234,
    number: '1234',
    status: 'processing',
    currency: 'USD',
    date_created_gmt: '2026-11-20T10:00:00',
    total: '45.98',
    shipping_total: '5.00',
    shipping: { first_name: 'Jane', last_name: 'Doe', address_1: '969 Market St', city: 'San Francisco', state: 'CA', postcode: '94103', country: 'US' },
    billing: { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com' },
    line_items: [{ id: 315, name: 'Logo Tee - Black, M', product_id: 22, quantity: 2, subtotal: '40.00', sku: 'TEE-BLK-M' }],
    fee_lines: [{ name: 'Route Shipping Protection', total: '0.98' }],
  },
});

/** The delivery's topic, which WooCommerce names in a header. */
export const WooCommerceHeaders = z.object({
  'x-wc-webhook-topic': extendApi(string(100, z.string()).optional(), {
    description: 'order.updated (also order.created, order.restored) or order.deleted. Without it, a body without line_items is read as order.deleted.',
    example: 'order.updated',
  }),
});

export const WooCommerceAcknowledgement = extendApi(
  z.object({
    received: z.literal(true),
    topic: z.string(),
    mode: z.enum(['live', 'test']),
    action: z.enum(['created', 'updated', 'cancelled', 'ignored', 'validated', 'pong']),
    order_id: z.string().optional(),
    reason: z.string().optional().describe('Why nothing was done, for action ignored.'),
  }),
  { title: 'WooCommerceAcknowledgement', example: { received: true, topic: 'order.updated', mode: 'live', action: 'created', order_id: '1234' } },
);

/** WooCommerce's native webhooks, signed with X-WC-Webhook-Signature. No API key. */
export const wooCommerceSignedRoute: RoutePolicy = { auth: 'woocommerce_signature', rateLimit: 'none', body: 'json_or_form_ping' };

export const routeCompatibilityContract = c.router({
  getOrder: {
    method: 'GET',
    path: '/v1/orders/:source_order_id',
    pathParams: SourceOrderIdParams,
    responses: { 200: OrderResponse, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: { ...keyRoute('orders', 'not_found'), ...routeTag },
    summary: 'Read an order (v1)',
    description: 'The same as GET /v2/orders/{source_order_id}, at the path Route\'s plugins read. Test keys answer 404.',
  },
  createOrder: {
    method: 'POST',
    path: '/v1/orders',
    body: OrderRequest,
    responses: { 201: OrderResponse, 409: OrderConflictResponse, ...pickErrors(400, 401, 403, 413, 422, 429, 500) },
    metadata: { ...keyRoute('orders', 'simulate'), ...routeTag },
    summary: 'Create an order (v1)',
    description: 'The same as POST /v2/orders, at the path the PrestaShop module and the Magento 1 extension call.',
  },
  updateOrder: {
    method: 'POST',
    path: '/v1/orders/:source_order_id',
    pathParams: SourceOrderIdParams,
    body: OrderUpdateRequest,
    responses: { 200: OrderResponse, 201: OrderResponse, ...pickErrors(400, 401, 403, 404, 409, 413, 422, 429, 500) },
    metadata: { ...keyRoute('orders', 'not_found'), ...routeTag },
    summary: 'Update an order (v1)',
    description:
      'The same as POST /v2/orders/{source_order_id}. For a store with client_profile route, a whole order sent here ' +
      'for a source_order_id the store does not have creates it (201): the PrestaShop module takes any answer with a ' +
      'body, a 404 included, as "the order exists" and sends the whole order to this route. Test keys answer 404.',
  },
  quote: {
    method: 'GET',
    path: '/v1/quote',
    query: RouteQuoteQuery,
    responses: { 200: RouteQuoteResponse, ...pickErrors(400, 401, 403, 429, 500) },
    metadata: { ...keyRoute('quotes', 'simulate'), ...routeTag },
    summary: 'Price a subtotal (v1)',
    description:
      "The premium for a subtotal at the store's configured rate, as the PrestaShop module and the Magento 1 " +
      'extension read it to show their widget. Nothing is stored: an order is priced when it is registered.',
  },
  merchants: {
    method: 'GET',
    path: '/v1/merchants',
    responses: { 200: z.array(RouteMerchant), ...pickErrors(400, 401, 403, 429, 500) },
    metadata: { ...keyRoute('other', 'simulate'), ...routeTag },
    summary: "The key's store, as Route's merchant list",
    description: 'A list holding one merchant: the store the key belongs to. The plugins check their token with it.',
  },
  merchant: {
    method: 'GET',
    path: '/v1/merchants/:merchant_id',
    pathParams: z.object({ merchant_id: extendApi(text(255), { example: 'acme-shop' }) }),
    responses: { 200: RouteMerchant, ...pickErrors(400, 401, 403, 404, 429, 500) },
    metadata: { ...keyRoute('other', 'simulate'), ...routeTag },
    summary: "The key's store, as a Route merchant",
    description: "The store the key belongs to, by its id or slug; any other merchant id is 404.",
  },
});

export const wooCommerceContract = c.router({
  receive: {
    method: 'POST',
    path: '/webhooks/:merchant_id',
    pathParams: z.object({ merchant_id: extendApi(text(255), { example: '0b6d4e8a-3f1c-4c52-9a7e-5d2f8c1e6b90' }) }),
    headers: WooCommerceHeaders,
    body: WooCommerceDelivery,
    responses: { 200: WooCommerceAcknowledgement, ...pickErrors(400, 401, 404, 409, 413, 500) },
    metadata: { ...wooCommerceSignedRoute, ...routeTag },
    summary: 'Receive a WooCommerce order webhook',
    description:
      'The order.updated and order.deleted webhooks Route\'s WooCommerce plugin registers, delivered to ' +
      '/webhooks/{merchant_id}, where merchant_id is the store id. Signed by WooCommerce in X-WC-Webhook-Signature: ' +
      'the base64 HMAC-SHA256 of the raw body, keyed with the hex SHA-256 of "<store id>-<API key>" (what the plugin ' +
      'derives from the key it holds), or with a secret the store declared. An order in a protected status (processing ' +
      'or completed, or the statuses the plugin stamped on it) is created or updated; cancelled or refunded, or ' +
      'deleted, cancels it. The fee line the plugin adds (Route Shipping Protection) marks the order protected. The ' +
      `ping (form body webhook_id=N) answers 200. Amounts over ${MAX_AMOUNT_CENTS / 100} are refused.`,
  },
});
