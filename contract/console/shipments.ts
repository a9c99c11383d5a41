// The console's shipments: the store's list (newest first, by delivery status, carrier, days without a
// scan, or an unknown carrier, with the count of each filter), the shipment page (its order, its
// tracking timeline of checkpoints and merchant messages), and setting the carrier of a shipment
// whose carrier is not known.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { DateTime, string, text, oneOf } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';
import { DELIVERY_STATUSES, DeliveryStatusSchema, ShipmentResponse } from '../shipments.js';
import { CONSOLE_PAGE_LIMIT } from './orders.js';

const c = initContract();
const params = z.object({ tracking_number: text(100) });

/** The shipment as the API answers it, and the order it belongs to, which the API's shape leaves out. */
export const ConsoleShipmentDetail = z.object({
  shipment: ShipmentResponse,
  order: z.object({ source_order_id: z.string(), source_order_number: z.string(), order_number: z.string() }),
});

/** "No scan for N days" when the list names no number of days. */
export const DEFAULT_SILENT_DAYS = 7;
export const MAX_SILENT_DAYS = 365;

export const ConsoleShipmentsQuery = z.object({
  status: oneOf(DELIVERY_STATUSES).optional(),
  carrier: string(40, z.string().regex(/^[a-z0-9_]+$/, 'must be a carrier slug, e.g. ups')).optional().describe('Only shipments with this carrier slug.'),
  silent_days: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, `must be a whole number of days from 1 to ${MAX_SILENT_DAYS}`)
    .refine((days) => Number(days) <= MAX_SILENT_DAYS, `must be a whole number of days from 1 to ${MAX_SILENT_DAYS}`)
    .optional()
    .describe('Only shipments on their way (Active or Exception) with no scan for at least this many days (since registration when none yet).'),
  carrier_unknown: z.enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) }).optional().describe('true: only shipments whose carrier is not known; false: only those whose carrier is.'),
  cursor: string(200).optional(),
});

export const ConsoleShipmentSummary = z.object({
  tracking_number: z.string(),
  courier: z.string().describe('The carrier slug, "unknown", or "sandbox".'),
  courier_name: z.string().describe('The carrier by name, or "Unknown carrier".'),
  delivery_status: DeliveryStatusSchema,
  source_order_id: z.string(),
  order_number: z.string(),
  created_on: DateTime,
  last_scan_at: DateTime.nullable().describe('The latest carrier scan; null before the first.'),
  days_without_scan: z
    .number()
    .int()
    .nullable()
    .describe('Whole days since the latest scan (since registration when none yet); null once delivered or cancelled, as no scan is expected.'),
});

const count = z.number().int();

export const ConsoleShipmentCounts = z
  .object({
    all: count,
    by_status: z.object(Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, count])) as Record<(typeof DELIVERY_STATUSES)[number], typeof count>),
    by_carrier: z.array(z.object({ courier: z.string(), courier_name: z.string(), count })).describe('Most shipments first.'),
    carrier_unknown: count,
    silent: count.describe('On their way with no scan for silent_days days.'),
    silent_days: count.describe(`The silent_days asked for, or ${DEFAULT_SILENT_DAYS}.`),
  })
  .describe("Each filter's count over every shipment of the store, whatever the other filters.");

export const ConsoleShipmentPage = z.object({
  data: z.array(ConsoleShipmentSummary),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.'),
  counts: ConsoleShipmentCounts,
});

export const consoleShipmentsContract = c.router({
  list: {
    method: 'GET',
    path: '/console/api/shipments',
    query: ConsoleShipmentsQuery,
    responses: { 200: ConsoleShipmentPage, ...pickErrors(400, 401, 500) },
    metadata: sessionRoute('viewer'),
    summary: `The store's shipments, newest first, by status, carrier, days without a scan or unknown carrier, ${CONSOLE_PAGE_LIMIT} a page`,
  },
  get: {
    method: 'GET',
    path: '/console/api/shipments/:tracking_number',
    pathParams: params,
    responses: { 200: ConsoleShipmentDetail, ...pickErrors(400, 401, 404, 500) },
    metadata: sessionRoute('viewer'),
    summary: 'A shipment and its tracking timeline',
  },
  setCarrier: {
    method: 'POST',
    path: '/console/api/shipments/:tracking_number/carrier',
    pathParams: params,
    body: z.object({ courier_id: text(100, 'A carrier slug, e.g. ups.') }),
    responses: { 200: ConsoleShipmentDetail, ...pickErrors(400, 401, 403, 404, 409, 500) },
    metadata: sessionRoute('admin'),
    summary: 'Set the carrier (as PATCH /v1/shipments does)',
  },
});
