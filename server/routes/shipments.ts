import { initServer } from '@ts-rest/express';
import { fieldErrorsFromIssues, ShipmentRequest, shipmentsContract } from '../../contract/index.js';
import { cancelShipment, getShipment, type ShipmentInput, type ShipmentUpdate, toShipmentResponse, updateShipmentAsProfileAllows } from '../domain/shipments/index.js';

import type { WholeBody } from '../domain/orders/index.js';
import type { Scope } from '../domain/access/index.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox/index.js';

const s = initServer();

/** An update's body read as a whole shipment for `trackingNumber` (the path names it), or why it is not one. */
function wholeShipmentFrom(body: unknown, trackingNumber: string): WholeBody<ShipmentInput> {
  const parsed = ShipmentRequest.safeParse({ ...(typeof body === 'object' ? body : {}), tracking_number: trackingNumber });
  return parsed.success ? { input: parsed.data } : { problems: fieldErrorsFromIssues(parsed.error.issues) };
}

export const shipmentsRouter = ({ db, clock, tracking }: AppDeps) => {
  const update = async (scope: Scope, trackingNumber: string, body: ShipmentUpdate, raw: unknown) => {
    const { shipment, created } = await updateShipmentAsProfileAllows(db, tracking, scope, trackingNumber, body, () => wholeShipmentFrom(raw, trackingNumber), clock.now());
    return { status: created ? (201 as const) : (200 as const), body: toShipmentResponse(shipment) };
  };
  return s.router(shipmentsContract, {
    create: async ({ body, req }) => {
      const scope = scopeOf(req);
      const shipment = await commandsFor(scope.mode).createShipment(db, tracking, scope, body, clock.now());
      return { status: 201, body: toShipmentResponse(shipment) };
    },
    get: async ({ params, req }) => {
      const shipment = await getShipment(db, scopeOf(req), params.tracking_number);
      return { status: 200, body: toShipmentResponse(shipment) };
    },
    update: async ({ params, body, req }) => update(scopeOf(req), params.tracking_number, body, req.body),
    updatePatch: async ({ params, body, req }) => update(scopeOf(req), params.tracking_number, body, req.body),
    cancel: async ({ params, req }) => {
      const shipment = await cancelShipment(db, scopeOf(req), params.tracking_number, clock);
      return { status: 200, body: toShipmentResponse(shipment) };
    },
  });
};
