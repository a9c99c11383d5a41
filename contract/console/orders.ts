// The console's orders: a list by the date each was placed, filtered (status, protection, placed
// between two days) and searched (order number, email, name, claim reference) with cursor
// pagination; the order page with everything that happened to it, the shopper's contact for the
// roles that decide claims, and the owner's erasure of its personal data.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ClaimResponse } from '../claims.js';
import { DateTime, oneOf, string } from '../common.js';
import { pickErrors } from '../errors.js';
import { OrderResponse } from '../orders.js';
import { sessionRoute } from '../policy.js';
import { ShipmentResponse } from '../shipments.js';

const c = initContract();

export const CONSOLE_PAGE_LIMIT = 25;

export const ConsoleOrderSummary = z.object({
  id: z.string(),
  source_order_id: z.string(),
  source_order_number: z.string(),
  order_number: z.string(),
  customer_name: z.string().nullable().describe("The shopper's first and last name; null once erased or when none was given."),
  status: z.enum(['created', 'cancelled']),
  insurance_selected: z.boolean(),
  premium_cents: z.number().int().describe('Net of re-pricings and reversals.'),
  order_total_cents: z.number().int().nullable().describe('What the shopper paid, when the store sent it.'),
  has_pii: z.boolean(),
  placed_on: DateTime.describe("The order's own date (source_created_on): the list's order."),
  created_on: DateTime.describe('When the service registered it.'),
  cancelled_on: DateTime.nullable(),
});

/** A day, YYYY-MM-DD, in UTC as billing counts them. */
const Day = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a date, YYYY-MM-DD');

export const ORDER_PROTECTION_FILTERS = ['selected', 'not_selected'] as const;
export const ORDER_STATUS_FILTERS = ['created', 'cancelled'] as const;

export const ConsoleOrderSearchQuery = z.object({
  q: string(254)
    .optional()
    .describe(
      'The start of an order number (with or without #), an email, a name ("ada", "ada lov", "lovelace"), a source order id or ' +
        'an OP- number, or a claim reference (CLM-...); any case. Empty lists every order.',
    ),
  status: oneOf(ORDER_STATUS_FILTERS).optional(),
  protection: oneOf(ORDER_PROTECTION_FILTERS).optional().describe('Whether the shopper took protection.'),
  placed_from: Day.optional().describe('Placed on this day or later (UTC).'),
  placed_to: Day.optional().describe('Placed on this day or earlier (UTC).'),
  cursor: string(200).optional(),
});

/** The shopper's contact, for the roles that decide claims. */
export const ConsoleOrderContact = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  shipping_address: z
    .object({
      street_address1: z.string(),
      street_address2: z.string().nullable(),
      city: z.string(),
      province: z.string().nullable(),
      zip: z.string().nullable(),
      country_code: z.string(),
    })
    .nullable(),
});

export const ConsoleOrderPage = z.object({
  data: z.array(ConsoleOrderSummary),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.'),
});

export const ConsoleLedgerEntry = z.object({
  id: z.string(),
  reason: z.enum(['booking', 'repricing', 'reversal']),
  amount_cents: z.number().int().describe('Signed.'),
  effective_at: DateTime.describe('The date it counts for in billing.'),
  created_at: DateTime,
  refund_id: z.string().nullable().describe("The platform's refund id, for a reversal."),
});

export const ConsoleRefund = z.object({
  refund_id: z.string(),
  amount_cents: z.number().int().nullable(),
  protection_refunded_cents: z.number().int(),
  reversed_cents: z.number().int(),
  note: z.string().nullable(),
  refunded_at: DateTime.nullable(),
  received_at: DateTime,
});

export const ConsoleOrderDetail = z.object({
  order: OrderResponse,
  order_number: z.string(),
  ledger: z.array(ConsoleLedgerEntry).describe('Oldest first.'),
  shipments: z.array(ShipmentResponse),
  claims: z.array(ClaimResponse),
  refunds: z.array(ConsoleRefund),
  personal_data: z
    .enum(['kept', 'erased'])
    .describe("erased: the shopper's name, email, phone and addresses were erased (by request, by the store, or past the retention)."),
  contact: ConsoleOrderContact.nullable().describe('The shopper\'s contact, for owners and admins (the roles that decide claims); null once erased, and for viewers.'),
});

export const consoleOrdersContract = c.router({
  search: {
    method: 'GET',
    path: '/console/api/orders',
    query: ConsoleOrderSearchQuery,
    responses: { 200: ConsoleOrderPage, ...pickErrors(400, 401, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'Find orders, newest placed first',
  },
  get: {
    method: 'GET',
    path: '/console/api/orders/:source_order_id',
    pathParams: z.object({ source_order_id: string(255) }),
    responses: { 200: ConsoleOrderDetail, ...pickErrors(400, 401, 404, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'The order page',
  },
  redact: {
    method: 'POST',
    path: '/console/api/orders/:source_order_id/redact',
    pathParams: z.object({ source_order_id: string(255) }),
    body: c.noBody(),
    responses: { 200: ConsoleOrderDetail, ...pickErrors(400, 401, 403, 404, 409, 500) },
    metadata: sessionRoute('owner'),
    summary: "Erase the shopper's personal data from the order, as POST /v2/orders/{id}/redact does; 409 while a claim is open",
  },
});
