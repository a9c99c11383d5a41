// A shipment as the API answers it and as its events carry it, built from the domain record with the
// contract's types.
import type { z } from 'zod';
import type { Checkpoint, ShipmentResponse } from '../../../contract/index.js';
import type { ShipmentRecord } from './shipment-record.js';
import type { TrackingCheckpoint } from './tracking.js';

export function toCheckpointResponse(checkpoint: TrackingCheckpoint): z.input<typeof Checkpoint> {
  return {
    status: checkpoint.status,
    subtag: checkpoint.subtag,
    message: checkpoint.message,
    location: checkpoint.location,
    occurred_at: checkpoint.occurredAt.toISOString(),
    source: checkpoint.source,
  };
}

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
    checkpoints: shipment.checkpoints.map(toCheckpointResponse),
    merchant_messages: shipment.merchantMessages,
    created_on: shipment.createdOn.toISOString(),
    updated_on: shipment.updatedOn.toISOString(),
    cancelled_on: shipment.cancelledOn?.toISOString() ?? null,
  };
}
