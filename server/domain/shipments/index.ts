// Shipments (README, Concepts, "Shipments"): register, read, correct the carrier, cancel; and what a
// tracking report does to a shipment. Carrier scans arrive through polls (server/jobs) and provider
// webhooks; both end in applyTrackingReport. One operation a file; this is the context's surface.
export { applyTrackingReport } from './apply-tracking-report.js';
export { cancelShipment } from './cancel-shipment.js';
export { createShipment, insertShipments, newShipmentRecord, type NewParcel, type ShipmentsInsert } from './create-shipment.js';
export { getShipment, listOrderShipments, shipmentOrder } from './get-shipment.js';
export { applyProviderEvent, pollShipment, type PollOutcome } from './poll-shipment.js';
export { resolveCourier, type ResolvedCourier } from './resolve-courier.js';
export {
  CHECKPOINTS_PER_READ,
  POLLING_GIVES_UP_AFTER_MS,
  UNKNOWN_COURIER,
  type MerchantMessage,
  type ShipmentInput,
  type ShipmentRecord,
  type ShipmentTracking,
} from './shipment-record.js';
export { toCheckpointResponse, toShipmentResponse } from './shipment-payload.js';
export { updateShipment, updateShipmentAsProfileAllows, type ShipmentUpdate } from './update-shipment.js';
