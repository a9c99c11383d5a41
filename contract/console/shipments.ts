// The console's shipment page: its order, its tracking timeline (checkpoints and merchant messages), and
// setting the carrier of a shipment whose carrier is not known.
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { text } from '../common.js';
import { pickErrors } from '../errors.js';
import { sessionRoute } from '../policy.js';
import { ShipmentResponse } from '../shipments.js';

const c = initContract();
const params = z.object({ tracking_number: text(100) });

/** The shipment as the API answers it, and the order it belongs to, which the API's shape leaves out. */
export const ConsoleShipmentDetail = z.object({
  shipment: ShipmentResponse,
  order: z.object({ source_order_id: z.string(), source_order_number: z.string(), order_number: z.string() }),
});

export const consoleShipmentsContract = c.router({
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
