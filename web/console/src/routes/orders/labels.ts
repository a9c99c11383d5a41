// The orders area's words: each state of an order, its ledger and its claims as a person reads it.
import type { z } from 'zod';
import type { ConsoleLedgerEntry, ConsoleOrderContact, ConsoleOrderDetail, ConsoleOrderSummary } from '../../../../../contract/console/index.js';
import type { OrderProtectionFilter, OrderStatusFilter } from './search-params';

export type OrderSummary = z.infer<typeof ConsoleOrderSummary>;
export type OrderDetail = z.infer<typeof ConsoleOrderDetail>;
export type LedgerEntry = z.infer<typeof ConsoleLedgerEntry>;
export type Claim = OrderDetail['claims'][number];
export type OrderContact = z.infer<typeof ConsoleOrderContact>;

/** The search's status is a plain string on the wire; the order's own is one of these. */
const ORDER_STATUS_LABEL: Record<OrderDetail['order']['status'], string> = { created: 'Active', cancelled: 'Cancelled' };

export function orderStatusLabel(status: string): string {
  return status === 'created' || status === 'cancelled' ? ORDER_STATUS_LABEL[status] : status;
}

export const protectionLabel = (selected: boolean) => (selected ? 'Protected' : 'Not protected');

export const LEDGER_REASON_LABEL: Record<LedgerEntry['reason'], string> = {
  booking: 'Booking',
  repricing: 'Re-pricing',
  reversal: 'Reversal',
};

/** The list's filters as their pills say them. */
export const STATUS_FILTER_LABEL: Record<OrderStatusFilter, string> = ORDER_STATUS_LABEL;
export const PROTECTION_FILTER_LABEL: Record<OrderProtectionFilter, string> = { selected: protectionLabel(true), not_selected: protectionLabel(false) };
