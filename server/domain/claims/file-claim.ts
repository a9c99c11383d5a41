// Filing a claim: the one function behind the API, the claim page and the operator's CLI. A claim
// gets its reference, the value of what it claims and whether it came inside the store's window;
// then the store's rules may decide it at once (apply-claim-rules.ts).
import type { FieldError } from '../../../contract/errors.js';
import { isUniqueViolation, storeRowKey, type Database, type Transaction } from '../../db/client.js';
import { actorColumns, recordAudit, type Scope } from '../access/index.js';

import { emitEvent, newEvent } from '../events/index.js';
import { AppError, clockAt } from '../kernel/index.js';
import { lockExistingOrderRow } from '../orders/index.js';
import { toClaimResponse } from './claim-payload.js';
import {
  assertUniqueItems,
  claimChannelOf,
  claimInclude,
  claimItems,
  OPEN_CLAIM_STATUSES,
  withDetailsOne,
  type ClaimChannel,
  type ClaimInput,
  type ClaimReason,
  type ClaimRecord,
} from './claim-record.js';
import { amountClaimedCents } from './claim-amount.js';
import { newClaimReference } from './claim-reference.js';
import { claimWindow, type ClaimWindowSettings, type ParcelProgress } from './claim-windows.js';
import { applyClaimRulesIn } from './apply-claim-rules.js';

/** A filing raced by another (the same parcel, or a reference drawn twice) is tried again this often. */
const FILING_ATTEMPTS = 3;

/** The store is told which claim; a shopper sees theirs on the order page. */
const openClaimOnShipment = (claimId: string, channel: ClaimChannel) =>
  new AppError(
    'conflict',
    channel === 'shopper_page'
      ? 'This parcel already has an open claim: follow it from your order, or file again once it is resolved.'
      : `This parcel already has an open claim (${claimId}); follow that one, or wait until it is resolved.`,
  );

/** What only a shopper's filing carries: the photos uploaded for it. */
export interface ClaimAttachments {
  photoIds?: readonly string[];
}

/**
 * Files a claim: the one function behind the API, the claim page and the CLI. A shopper is also
 * held to the store's claim windows, must name a parcel, and must show a damaged one.
 */
export async function fileClaim(db: Database, scope: Scope, input: ClaimInput, now: Date, attachments: ClaimAttachments = {}): Promise<ClaimRecord> {
  assertUniqueItems(input.items);
  const items = claimItems(input);
  const channel = claimChannelOf(scope.actor);
  const photoIds = [...new Set(attachments.photoIds ?? [])];

  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fileOnce(db, scope, input, now, channel, items, photoIds);
    } catch (error) {
      // A unique index refused the row: the open claim per parcel (a filing that raced past the
      // check, which the next attempt sees and names) or the store's references (drawn again).
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= FILING_ATTEMPTS) throw new AppError('conflict', 'This parcel already has an open claim; follow that one, or wait until it is resolved.');
    }
  }
}

async function fileOnce(
  db: Database,
  scope: Scope,
  input: ClaimInput,
  now: Date,
  channel: ClaimChannel,
  items: ReturnType<typeof claimItems>,
  photoIds: readonly string[],
): Promise<ClaimRecord> {
  {
    return await db.$transaction(async (tx) => {
      // The order row lock serialises this with order and shipment cancellation, and with a second
      // filing on the same parcel.
      const orderId = await lockExistingOrderRow(tx, scope.store.id, input.source_order_id);
      const order = await tx.order.findUniqueOrThrow({ where: storeRowKey(scope.store.id, orderId), include: { lineItems: true } });
      if (order.status === 'cancelled') throw new AppError('conflict', 'The order is cancelled; no claim can be filed on it.');
      if (!order.insuranceSelected) throw new AppError('conflict', 'The order was not protected; no claim can be filed on it.');

      const errors: FieldError[] = [];
      let shipmentId: string | null = null;
      const windows = await windowSettings(tx, scope.store.id);
      const parcels = await tx.shipment.findMany({
        where: { storeId: scope.store.id, orderId, cancelledOn: null, ...(input.tracking_number === undefined ? {} : { trackingNumber: input.tracking_number }) },
        include: { checkpoints: { select: { status: true, occurredAt: true } } },
      });
      if (input.tracking_number !== undefined) {
        const shipment = parcels[0];
        if (shipment) {
          shipmentId = shipment.id;
          const open = await tx.claim.findFirst({ where: { storeId: scope.store.id, shipmentId, status: { in: [...OPEN_CLAIM_STATUSES] } }, select: { id: true } });
          if (open) throw openClaimOnShipment(open.id, channel);
          if (channel === 'shopper_page') {
            const window = claimWindow(input.reason, shipment, windows, now);
            if (!window.open) throw new AppError('conflict', window.explanation);
          }
        } else errors.push({ field: 'tracking_number', message: 'is not an active shipment of this order' });
      } else if (channel === 'shopper_page') errors.push({ field: 'tracking_number', message: 'is required: choose the parcel' });
      const ordered = new Map(order.lineItems.map((line) => [line.sourceId, line.quantity]));
      items.forEach((item, index) => {
        const quantity = ordered.get(item.source_id);
        if (quantity === undefined) errors.push({ field: `items[${index}].source_id`, message: 'is not a line item of this order' });
        else if (item.quantity > quantity) errors.push({ field: `items[${index}].quantity`, message: `is more than the ${quantity} ordered` });
      });
      if (channel === 'shopper_page' && input.reason === 'damaged' && photoIds.length === 0) {
        errors.push({ field: 'photo_ids', message: 'must have at least one photo of the damage' });
      }
      if (errors.length > 0) throw new AppError('invalid_request', 'The claim does not match the order.', errors);

      const created = await tx.claim.create({
        data: {
          storeId: scope.store.id,
          orderId,
          shipmentId,
          reason: input.reason,
          description: input.description ?? null,
          items,
          status: 'open',
          channel,
          createdOn: now,
          updatedOn: now,
          reference: newClaimReference(),
          amountClaimedCents: amountClaimedCents(order.lineItems, items),
          filedWithinWindow: withinWindow(input.reason, parcels, windows, now),
          history: { create: { fromStatus: null, toStatus: 'open', createdAt: now, ...actorColumns(scope.actor) } },
        },
        select: { id: true },
      });
      if (photoIds.length > 0) {
        // Only photos uploaded for this order and not yet in a claim: anything else is refused.
        const taken = await tx.claimPhoto.updateMany({ where: { id: { in: [...photoIds] }, orderId, claimId: null }, data: { claimId: created.id } });
        if (taken.count !== photoIds.length) {
          throw new AppError('invalid_request', 'The claim names photos it cannot use.', [
            { field: 'photo_ids', message: 'must name photos uploaded for this order and not already in a claim' },
          ]);
        }
      }
      const claim = await withDetailsOne(tx, await tx.claim.findUniqueOrThrow({ where: storeRowKey(scope.store.id, created.id), include: claimInclude }), now);
      await recordAudit(tx, scope.actor, { storeId: scope.store.id, action: 'claim.filed', subject: { type: 'claim', id: claim.id }, at: now });
      await emitEvent(tx, scope.actor, scope.store.id, newEvent('claim.created', toClaimResponse(claim)), now);
      // The store's rules may decide it at once, a millisecond after its filing (decideClaim).
      return (await applyClaimRulesIn(tx, scope, claim, clockAt(now))) ?? claim;
    });
  }
}

async function windowSettings(tx: Transaction, storeId: string): Promise<ClaimWindowSettings> {
  const settings = await tx.store.findUniqueOrThrow({ where: { id: storeId }, select: { claimLostAfterDays: true, claimAfterDeliveryDays: true } });
  return { lostAfterDays: settings.claimLostAfterDays, afterDeliveryDays: settings.claimAfterDeliveryDays };
}

/**
 * Whether the claim comes inside the store's window for its reason (claim-windows.ts): on its
 * parcel, or for a whole-order claim on any of the order's parcels; null without a parcel.
 */
function withinWindow(reason: ClaimReason, parcels: readonly ParcelProgress[], settings: ClaimWindowSettings, now: Date): boolean | null {
  if (parcels.length === 0) return null;
  return parcels.some((parcel) => claimWindow(reason, parcel, settings, now).open);
}

