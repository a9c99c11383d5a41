// Shipments (README, Concepts, "Shipments"): register, read, correct the carrier, cancel; and what a
// tracking report does to a shipment. Carrier scans arrive through polls (server/jobs) and provider
// webhooks; both end in applyTrackingReport. One operation a file; this is the context's surface.
export { applyTrackingReport } from './apply-tracking-report.js';
export { cancelShipment } from './cancel-shipment.js';
export { CARRIER_FORMATS, S10_OPERATOR_SLUGS } from './carrier-formats.js';
export {
  CARRIER_ALIASES,
  CARRIER_SLUGS,
  type CarrierSlug,
  checkDigitValid,
  type ChecksumSpec,
  computeCheckDigit,
  detectCarrier,
  detectCarrierFormat,
  isCarrierSlug,
  matchCarrierFormats,
  normalizeCourierId,
} from './carriers.js';
export { createShipment, insertShipments, type NewParcel, newShipmentRecord, type ShipmentsInsert } from './create-shipment.js';
export { getShipment, listOrderShipments, shipmentOrder } from './get-shipment.js';
export { listShipments, type ShipmentCounts, type ShipmentListQuery, type ShipmentSummary } from './list-shipments.js';
export { applyProviderEvent, type PollOutcome, pollShipment } from './poll-shipment.js';
export { nextPollAt, POLL_BACKOFF, pollsOverWindow } from './poll-schedule.js';
export { isSandboxTrackingNumber, resolveCourier, type ResolvedCourier } from './resolve-courier.js';
export { toCheckpointResponse, toShipmentResponse } from './shipment-payload.js';
export {
  CHECKPOINTS_PER_READ,
  type MerchantMessage,
  NOT_TRACKED_MESSAGE_CODES,
  POLLING_GIVES_UP_AFTER_MS,
  SANDBOX_COURIER,
  SANDBOX_TRACKING_NUMBERS,
  type SandboxTrackingNumber,
  type ShipmentInput,
  type ShipmentRecord,
  type ShipmentTracking,
  UNKNOWN_COURIER,
} from './shipment-record.js';
export {
  type CarrierDeliveryStatus,
  type CheckpointLocation,
  type PollScheduler,
  type PollTarget,
  type ShipmentKey,
  type ShipmentToTrack,
  type TrackingCheckpoint,
  type TrackingProvider,
  type TrackingReport,
  TrackingUnavailableError,
} from './tracking.js';
export { type ShipmentUpdate, updateShipment, updateShipmentAsProfileAllows } from './update-shipment.js';
