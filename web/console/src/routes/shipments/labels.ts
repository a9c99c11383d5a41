// The shipments area's words: delivery statuses and carriers as a person reads them.
import type { z } from 'zod';
import type { ConsoleShipmentDetail, ConsoleShipmentPage, ConsoleShipmentSummary } from '../../../../../contract/console/index.js';
import type { ShipmentResponse } from '../../../../../contract/shipments.js';
import { carrierName } from '../../../../../contract/carriers.js';

export type Shipment = z.infer<typeof ShipmentResponse>;
/** The console's shipment answer: the shipment and its order. */
export type ShipmentDetail = z.infer<typeof ConsoleShipmentDetail>;
export type DeliveryStatus = Shipment['delivery_status'];
/** A row of the shipments list, and the list's page with the count of each filter. */
export type ShipmentSummary = z.infer<typeof ConsoleShipmentSummary>;
export type ShipmentListPage = z.infer<typeof ConsoleShipmentPage>;

/** The carrier of a shipment whose number named none, and that no one has set yet. */
export const UNKNOWN_COURIER = 'unknown';

export const DELIVERY_STATUS_LABEL: Record<DeliveryStatus, string> = {
  Active: 'Active',
  Delivered: 'Delivered',
  Exception: 'Exception',
  Cancelled: 'Cancelled',
};

/** A shipment's carrier by the name people read (the contract's one table), "Unknown" when it could not be told. */
export const courierLabel = (courier: string) => (courier === UNKNOWN_COURIER ? 'Unknown' : carrierName(courier));
