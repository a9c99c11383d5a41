// Correcting a shipment: only its carrier can change; the update route's update-or-create for
// route-profile stores.
import type { FieldError } from '../../../contract/errors.js';
import { storeRowKey, type Database, type Prisma } from '../../db/client.js';
import type { Scope } from '../access/index.js';
import { AppError } from '../kernel/index.js';
import type { WholeBody } from '../orders/index.js';
import { createShipment } from './create-shipment.js';
import { namedCourier, unknownCourierIdMessage } from './resolve-courier.js';
import { findShipment, type MerchantMessage, NOT_TRACKED_MESSAGE_CODES, shipmentInclude, type ShipmentInput, shipmentNotFound, type ShipmentRecord, type ShipmentTracking, toShipmentRecord } from './shipment-record.js';

/**
 * A shipment update: only the carrier can change. Clients that send the whole shipment again may
 * echo its other fields, which must then be what is stored (a changed one is 400: a tracking number
 * is corrected by cancelling and creating a new shipment).
 */
export interface ShipmentUpdate {
  courier_id: string | null;
  tracking_number?: string | undefined;
  source_order_id?: string | undefined;
  source_product_ids?: string[] | undefined;
  line_items?: ShipmentInput['line_items'];
}

const sameMultiset = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

const lineKey = (line: { source_id: string; source_product_id?: string | undefined; quantity: number }) =>
  `${line.source_id}\u0000${line.source_product_id ?? ''}\u0000${line.quantity}`;

/** The echoed fields that differ from what is stored, one error each. */
function changedEchoes(
  update: ShipmentUpdate,
  stored: { trackingNumber: string; sourceOrderId: string; sourceProductIds: string[]; lineItems: ShipmentInput['line_items'] | null },
): FieldError[] {
  const changed = (field: string): FieldError => ({
    field,
    message: 'differs from the stored shipment; only courier_id can change (cancel and create a new shipment to change the rest)',
  });
  const errors: FieldError[] = [];
  if (update.tracking_number !== undefined && update.tracking_number !== stored.trackingNumber) errors.push(changed('tracking_number'));
  if (update.source_order_id !== undefined && update.source_order_id !== stored.sourceOrderId) errors.push(changed('source_order_id'));
  if (update.source_product_ids !== undefined && !sameMultiset(update.source_product_ids, stored.sourceProductIds)) errors.push(changed('source_product_ids'));
  if (update.line_items !== undefined && !sameMultiset(update.line_items.map(lineKey), (stored.lineItems ?? []).map(lineKey))) errors.push(changed('line_items'));
  return errors;
}

/**
 * Changes the carrier; the next poll registers the number with it afresh. The notes that the
 * shipment was not tracked for want of a carrier (carrier_unknown) go: it is tracked now.
 */
export async function updateShipment(
  db: Database,
  tracking: ShipmentTracking,
  scope: Scope,
  trackingNumber: string,
  update: ShipmentUpdate,
  now: Date,
): Promise<ShipmentRecord> {
  return db.$transaction(async (tx) => {
    const current = await findShipment(tx, scope.store.id, trackingNumber);
    if (!current) throw shipmentNotFound(trackingNumber);
    const order = await tx.order.findUniqueOrThrow({ where: storeRowKey(current.storeId, current.orderId), select: { sourceOrderId: true } });
    const errors = changedEchoes(update, {
      trackingNumber: current.trackingNumber,
      sourceOrderId: order.sourceOrderId,
      sourceProductIds: current.sourceProductIds,
      lineItems: current.lineItems as ShipmentInput['line_items'] | null,
    });
    if (errors.length > 0) throw new AppError('invalid_request', 'Only courier_id can change on a shipment.', errors);
    const sent = update.courier_id ?? '';
    const courier = namedCourier(sent);
    if (courier === null) {
      // Treated as omitted: the carrier stays; a name we do not know is noted for the merchant.
      if (sent.trim() === '') return toShipmentRecord(current);
      const message = unknownCourierIdMessage(sent, current.courier, now);
      const messages = current.merchantMessages as unknown as MerchantMessage[];
      if (messages.some((m) => m.code === message.code && m.message === message.message)) return toShipmentRecord(current);
      const row = await tx.shipment.update({
        where: storeRowKey(current.storeId, current.id),
        data: { merchantMessages: [...messages, message] as unknown as Prisma.InputJsonValue, updatedOn: now },
        include: shipmentInclude,
      });
      return toShipmentRecord(row);
    }
    if (current.courier === courier) return toShipmentRecord(current);
    const messages = (current.merchantMessages as unknown as MerchantMessage[]).filter((m) => !NOT_TRACKED_MESSAGE_CODES.includes(m.code));
    const row = await tx.shipment.update({
      where: storeRowKey(current.storeId, current.id),
      data: { courier, providerRef: null, merchantMessages: messages as unknown as Prisma.InputJsonValue, updatedOn: now },
      include: shipmentInclude,
    });
    // A shipment that was not being polled (unknown carrier, or finished) is followed again.
    if (row.cancelledOn === null) await tracking.scheduler.schedulePoll(row, { tx });
    return toShipmentRecord(row);
  });
}

/**
 * The update route's command (as for orders, server/domain/orders/upsert-order.ts): the documented
 * update, or, for a route-profile store (Route's PrestaShop module), update-or-create: the whole
 * body registers the shipment when the store has none with that number.
 */
export async function updateShipmentAsProfileAllows(
  db: Database,
  tracking: ShipmentTracking,
  scope: Scope,
  trackingNumber: string,
  update: ShipmentUpdate,
  readWhole: () => WholeBody<ShipmentInput>,
  now: Date,
): Promise<{ shipment: ShipmentRecord; created: boolean }> {
  let whole: WholeBody<ShipmentInput>;
  try {
    return { shipment: await updateShipment(db, tracking, scope, trackingNumber, update, now), created: false };
  } catch (error) {
    // Only route-profile stores create here; for every other store this is the documented update (404).
    if (!(error instanceof AppError) || error.code !== 'not_found' || scope.store.clientProfile !== 'route') throw error;
    whole = readWhole();
    if ('problems' in whole) {
      throw new AppError('not_found', `No shipment with tracking number "${trackingNumber}" in this store, and the body is not a whole shipment that could create it.`, whole.problems);
    }
  }
  return { shipment: await createShipment(db, tracking, scope, whole.input, now), created: true };
}
