import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { fieldErrorsFromIssues, ShipmentRequest, shipmentsContract, type ShipmentResponse } from '../../contract/index.js';
import { cancelShipment, getShipment, updateShipment, upsertShipment, type ShipmentRecord, type ShipmentUpdate } from '../domain/shipments.js';
import type { StoreScope } from '../domain/actor.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox.js';

const s = initServer();

export function toShipmentResponse(shipment: ShipmentRecord): z.input<typeof ShipmentResponse> {
  return {
    id: shipment.id,
    merchant_id: shipment.storeId,
    tracking_number: shipment.trackingNumber,
    courier: shipment.courier,
    delivery_status: shipment.deliveryStatus,
    tracking_registration_status: 'registered',
    tracking_url: shipment.trackingUrl,
    expected_delivery_date: shipment.expectedDeliveryDate,
    checkpoints: shipment.checkpoints.map((checkpoint) => ({
      status: checkpoint.status,
      subtag: checkpoint.subtag,
      message: checkpoint.message,
      location: checkpoint.location,
      occurred_at: checkpoint.occurredAt.toISOString(),
      source: checkpoint.source,
    })),
    merchant_messages: shipment.merchantMessages,
    created_on: shipment.createdOn.toISOString(),
    updated_on: shipment.updatedOn.toISOString(),
    cancelled_on: shipment.cancelledOn?.toISOString() ?? null,
  };
}

export const shipmentsRouter = ({ db, clock, tracking }: AppDeps) => {
  /** An update; for a route-profile store, the whole shipment the body may be creates a missing one. */
  const update = async (scope: StoreScope, trackingNumber: string, body: ShipmentUpdate, raw: unknown) => {
    if (scope.store.clientProfile !== 'route') {
      return { status: 200 as const, body: toShipmentResponse(await updateShipment(db, tracking, scope, trackingNumber, body, clock.now())) };
    }
    const parsed = ShipmentRequest.safeParse({ ...(typeof raw === 'object' ? raw : {}), tracking_number: trackingNumber });
    const whole = parsed.success ? { input: parsed.data } : { problems: fieldErrorsFromIssues(parsed.error.issues) };
    const { shipment, created } = await upsertShipment(db, tracking, scope, trackingNumber, body, whole, clock.now());
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
      const shipment = await cancelShipment(db, scopeOf(req), params.tracking_number, clock.now());
      return { status: 200, body: toShipmentResponse(shipment) };
    },
  });
};
