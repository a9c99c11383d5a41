// Updates an order: fields merged, line_items replaced whole, and only subtotal and
// insurance_selected re-price, with the order's own terms (README, Concepts, "Updates").
import type { FieldError } from '../../../contract/errors.js';
import { fieldErrorsFromIssues } from '../../../contract/errors.js';
import { Address } from '../../../contract/common.js';
import { storeRowKey, type Database, type Prisma, type Transaction } from '../../db/client.js';
import { toOrderResponse } from './order-payload.js';
import type { Scope } from '../access/index.js';
import { AppError, appliedAt, type Clock } from '../kernel/index.js';
import { emitEvent, newEvent } from '../events/index.js';

import { ledgerTotals, repricingAmountCents } from '../billing/index.js';
import { lockExistingOrderRow } from './order-lock.js';
import { priceCoverage, type PricingTerms } from '../quotes/index.js';
import { assertUniqueLineItemIds } from './create-order.js';
import { getOrder } from './get-order.js';
import { lineItemRows, optionalCents, orderInclude, toOrderRecord, type AddressValue, type OrderRecord, type OrderUpdateInput, type StoredOrder } from './order-record.js';

/** Locks the order row for the rest of the transaction, so concurrent changes to one order queue up. */
export async function lockOrder(tx: Transaction, storeId: string, sourceOrderId: string): Promise<StoredOrder> {
  const id = await lockExistingOrderRow(tx, storeId, sourceOrderId);
  return tx.order.findUniqueOrThrow({ where: storeRowKey(storeId, id), include: orderInclude });
}

/** Merges a partial address into the stored one; the result must be a complete address. */
function mergeAddress(field: string, stored: unknown, patch: Partial<AddressValue>): AddressValue {
  const merged = { ...(typeof stored === 'object' && stored !== null ? stored : {}), ...patch };
  const parsed = Address.safeParse(merged);
  if (!parsed.success) {
    throw new AppError('invalid_request', `The merged ${field} is not a complete address.`, fieldErrorsFromIssues(parsed.error.issues, [field]));
  }
  return parsed.data;
}

/**
 * What an update may not change (409, every such field listed; the same value again is fine):
 * - source_created_on: it dated the premium booking, and billing counted the booking in that
 *   month. Moving it would make the order read one month while billing counts another.
 * - subtotal and insurance_selected of a cancelled order: a cancelled order no longer re-prices;
 *   its booked premium stays as it was when it was cancelled (reversals only come from refunds).
 */
function assertUpdatable(current: StoredOrder, patch: OrderUpdateInput): void {
  const refused: FieldError[] = [];
  if (patch.source_created_on !== undefined && new Date(patch.source_created_on).getTime() !== current.sourceCreatedOn.getTime()) {
    refused.push({ field: 'source_created_on', message: 'cannot change: it dates the premium booking, already counted in its billing month' });
  }
  if (current.status === 'cancelled') {
    if (patch.subtotal !== undefined && patch.subtotal !== Number(current.subtotalCents)) {
      refused.push({ field: 'subtotal', message: 'cannot change on a cancelled order: it no longer re-prices' });
    }
    if (patch.insurance_selected !== undefined && patch.insurance_selected !== current.insuranceSelected) {
      refused.push({ field: 'insurance_selected', message: 'cannot change on a cancelled order: it no longer re-prices' });
    }
  }
  if (refused.length > 0) throw new AppError('conflict', 'The update changes what this order can no longer change.', refused);
}

export async function updateOrder(
  db: Database,
  scope: Scope,
  sourceOrderId: string,
  patch: OrderUpdateInput,
  clock: Clock,
): Promise<OrderRecord> {
  if (patch.line_items) assertUniqueLineItemIds(patch.line_items);
  if (Object.values(patch).every((value) => value === undefined)) return getOrder(db, scope, sourceOrderId);

  return db.$transaction(async (tx) => {
    const current = await lockOrder(tx, scope.store.id, sourceOrderId);
    const now = appliedAt(clock, current.updatedOn);
    assertUpdatable(current, patch);
    const data: Prisma.OrderUncheckedUpdateInput = { updatedOn: now };
    if (patch.source_order_number !== undefined) data.sourceOrderNumber = patch.source_order_number;
    if (patch.order_total !== undefined) data.orderTotalCents = patch.order_total;
    if (patch.shipping_total !== undefined) data.shippingTotalCents = patch.shipping_total;
    if (patch.discounts_total !== undefined) data.discountsTotalCents = patch.discounts_total;
    if (patch.taxes !== undefined) data.taxesCents = patch.taxes;
    if (patch.customer_details) {
      const customer = patch.customer_details;
      if (customer.first_name !== undefined) data.customerFirstName = customer.first_name;
      if (customer.last_name !== undefined) data.customerLastName = customer.last_name;
      if (customer.email !== undefined) data.customerEmail = customer.email;
      if (customer.phone !== undefined) data.customerPhone = customer.phone;
    }
    if (patch.shipping_details) data.shippingAddress = mergeAddress('shipping_details', current.shippingAddress, patch.shipping_details);
    if (patch.billing_address) data.billingAddress = mergeAddress('billing_address', current.billingAddress, patch.billing_address);

    // Only subtotal and insurance_selected re-price, with the order's own pricing terms.
    let repriced = false;
    const subtotalCents = patch.subtotal ?? Number(current.subtotalCents);
    const insuranceSelected = patch.insurance_selected ?? current.insuranceSelected;
    if (subtotalCents !== Number(current.subtotalCents) || insuranceSelected !== current.insuranceSelected) {
      const terms: PricingTerms = {
        rateBps: current.rateBps,
        minPremiumCents: Number(current.minPremiumCents),
        maxCoveredCents: optionalCents(current.maxCoveredCents),
      };
      const target = insuranceSelected ? priceCoverage(subtotalCents, terms) : { coveredCents: 0, premiumCents: 0 };
      data.subtotalCents = subtotalCents;
      data.insuranceSelected = insuranceSelected;
      data.amountCoveredCents = target.coveredCents;
      data.pricingSource = insuranceSelected ? 'rate' : 'none';
      repriced = true;
      const totals = ledgerTotals(current.ledgerEntries);
      const amountCents = repricingAmountCents(totals, target.premiumCents);
      if (amountCents !== 0) {
        await tx.premiumLedgerEntry.create({
          data: { storeId: scope.store.id, orderId: current.id, amountCents, reason: 'repricing', effectiveAt: now },
        });
      }
    }
    if (patch.line_items) {
      await tx.orderLineItem.deleteMany({ where: { storeId: current.storeId, orderId: current.id } });
      await tx.orderLineItem.createMany({ data: lineItemRows(patch.line_items).map((row) => ({ ...row, orderId: current.id, storeId: current.storeId })) });
    }
    const order = toOrderRecord(await tx.order.update({ where: storeRowKey(current.storeId, current.id), data, include: orderInclude }));
    if (repriced) await emitEvent(tx, scope.actor, scope.store.id, newEvent('order.repriced', toOrderResponse(order)), now);
    return order;
  });
}
