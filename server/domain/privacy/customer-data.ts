// A shopper's personal data across a store's orders, found by email (README, "Personal data"): the
// erasure and the export a store, its platform or the operator asks for. Orders are found through
// the keyed hash of the normalised email (customer_email_lookup, kept by the database itself: see
// the privacy_requests migration), so the lookup is an index probe that names no email.
import type { Database } from '../../db/client.js';
import type { ClaimReason, ClaimStatus } from '../../db/generated/client.js';
import type { Scope } from '../access/index.js';
import { redactOrders } from '../orders/index.js';
import { recordPrivacyRequest, settlePrivacyRequest, type PrivacyRequestRecord, type SourceRequest } from './privacy-requests.js';

export interface CustomerRequestInput {
  email: string;
  /** Orders the platform names as the shopper's, whatever email they hold now. */
  sourceOrderIds?: readonly string[];
  source?: SourceRequest | null;
}

/** The store's orders holding personal data for the email (or named), oldest first. */
export async function customerOrderIds(db: Database, storeId: string, email: string, named: readonly string[] = []): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ source_order_id: string }>>`
    SELECT source_order_id FROM (
      SELECT source_order_id, created_on FROM orders
       WHERE store_id = ${storeId}::uuid AND customer_email_lookup = email_lookup_hash(${email})
      UNION
      SELECT source_order_id, created_on FROM orders
       WHERE store_id = ${storeId}::uuid AND source_order_id = ANY (${[...named]}::text[])
    ) matched
    ORDER BY created_on, source_order_id`;
  return rows.map((row) => row.source_order_id);
}

export interface CustomerRedactionResult {
  request: PrivacyRequestRecord;
  /** A platform's redelivery of a request already carried out: nothing was done again. */
  duplicate: boolean;
  redacted: string[];
  withheld: string[];
}

/**
 * Erases every order of the email (and those named), each in its own short transaction. Orders
 * with an open claim stay owed by the request, which the erasure job finishes once the claims are
 * resolved. A redelivered platform request that completed answers duplicate; one still pending
 * (a crash part-way, or claims still open) carries on, as erasing again changes nothing.
 */
export async function redactCustomer(db: Database, scope: Scope, input: CustomerRequestInput, now: Date): Promise<CustomerRedactionResult> {
  const recorded = await recordPrivacyRequest(db, { storeId: scope.store.id, kind: 'customer_redact', actor: scope.actor, source: input.source ?? null, receivedAt: now, dueAt: null });
  if (recorded.existing && recorded.request.status !== 'pending') return { request: recorded.request, duplicate: true, redacted: [], withheld: [] };
  const matched = await customerOrderIds(db, scope.store.id, input.email, input.sourceOrderIds);
  const outcome = await redactOrders(db, scope, matched, now);
  await settlePrivacyRequest(db, recorded.request, { matched: recorded.existing ? 0 : matched.length, erased: outcome.redacted.length, withheld: outcome.withheld, at: now });
  return { request: recorded.request, duplicate: recorded.existing, ...outcome };
}

/** The request's orders still owed, retried by the erasure job; settles it once none is left. */
export async function retryWithheldOrders(db: Database, scope: Scope, request: PrivacyRequestRecord, now: Date): Promise<number> {
  const outcome = await redactOrders(db, scope, request.withheldSourceOrderIds, now);
  await settlePrivacyRequest(db, request, { matched: 0, erased: outcome.redacted.length, withheld: outcome.withheld, at: now });
  return outcome.redacted.length;
}

export interface CustomerOrderData {
  sourceOrderId: string;
  sourceOrderNumber: string;
  orderNumber: string;
  createdOn: Date;
  customer: { firstName: string | null; lastName: string | null; email: string | null; phone: string | null };
  shippingAddress: unknown;
  billingAddress: unknown;
  lineItems: Array<{ sourceId: string; name: string; quantity: number; imageUrl: string | null }>;
  claims: Array<{
    id: string;
    reason: ClaimReason;
    status: ClaimStatus;
    createdOn: Date;
    description: string | null;
    notes: Array<{ status: ClaimStatus; note: string; createdAt: Date }>;
    photoIds: string[];
  }>;
  refundNotes: Array<{ refundId: string; note: string }>;
  quoteCartItems: unknown;
}

export interface CustomerDataResult {
  request: PrivacyRequestRecord;
  duplicate: boolean;
  orders: CustomerOrderData[];
}

/**
 * Every piece of personal data held for the email (and the orders named): each column of the
 * personal-data registry (personal-data.ts) that belongs to the shopper's orders. Stored events
 * copy the same orders, so they add nothing to answer. The request is recorded; the answer is not.
 */
export async function exportCustomerData(db: Database, scope: Scope, input: CustomerRequestInput, now: Date): Promise<CustomerDataResult> {
  const recorded = await recordPrivacyRequest(db, { storeId: scope.store.id, kind: 'customer_data_request', actor: scope.actor, source: input.source ?? null, receivedAt: now, dueAt: null });
  const matched = await customerOrderIds(db, scope.store.id, input.email, input.sourceOrderIds);
  const orders = await db.order.findMany({
    where: { storeId: scope.store.id, sourceOrderId: { in: matched } },
    orderBy: [{ createdOn: 'asc' }, { sourceOrderId: 'asc' }],
    include: {
      lineItems: { orderBy: { position: 'asc' } },
      claims: { orderBy: { createdOn: 'asc' }, include: { history: { orderBy: { id: 'asc' } }, photos: { select: { id: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } },
      refunds: { orderBy: { receivedAt: 'asc' } },
      quote: { select: { cartItems: true } },
    },
  });
  if (!recorded.existing || recorded.request.status === 'pending') {
    await settlePrivacyRequest(db, recorded.request, { matched: orders.length, erased: 0, withheld: [], at: now });
  }
  return {
    request: recorded.request,
    duplicate: recorded.existing,
    orders: orders.map((order) => ({
      sourceOrderId: order.sourceOrderId,
      sourceOrderNumber: order.sourceOrderNumber,
      orderNumber: order.orderNumber,
      createdOn: order.createdOn,
      customer: { firstName: order.customerFirstName, lastName: order.customerLastName, email: order.customerEmail, phone: order.customerPhone },
      shippingAddress: order.shippingAddress,
      billingAddress: order.billingAddress,
      lineItems: order.lineItems.map((line) => ({ sourceId: line.sourceId, name: line.name, quantity: line.quantity, imageUrl: line.imageUrl })),
      claims: order.claims.map((claim) => ({
        id: claim.id,
        reason: claim.reason,
        status: claim.status,
        createdOn: claim.createdOn,
        description: claim.description,
        notes: claim.history.flatMap((change) => (change.note === null ? [] : [{ status: change.toStatus, note: change.note, createdAt: change.createdAt }])),
        photoIds: claim.photos.map((photo) => photo.id),
      })),
      refundNotes: order.refunds.flatMap((refund) => (refund.note === null ? [] : [{ refundId: refund.sourceRefundId, note: refund.note }])),
      quoteCartItems: order.quote?.cartItems ?? null,
    })),
  };
}
