// The console's orders: search (by source order id, order number or the shopper's email) with
// cursor pagination, and the order page with everything that happened to it.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ClaimResponse } from '../claims.js';
import { DateTime, string } from '../common.js';
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
  status: z.string(),
  insurance_selected: z.boolean(),
  premium_cents: z.number().int().describe('Net of re-pricings and reversals.'),
  has_pii: z.boolean(),
  created_on: DateTime,
  cancelled_on: DateTime.nullable(),
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
});

export const consoleOrdersContract = c.router({
  search: {
    method: 'GET',
    path: '/console/api/orders',
    query: z.object({
      q: string(254).optional().describe('A source order id, an order number, or an email (with @); empty lists every order.'),
      cursor: string(200).optional(),
    }),
    responses: { 200: ConsoleOrderPage, ...pickErrors(400, 401, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'Search orders, newest first',
  },
  get: {
    method: 'GET',
    path: '/console/api/orders/:source_order_id',
    pathParams: z.object({ source_order_id: string(255) }),
    responses: { 200: ConsoleOrderDetail, ...pickErrors(400, 401, 404, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'The order page',
  },
});
