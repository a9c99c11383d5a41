// The sandbox: what test mode does, decided in this one place for every door.
// - A test key's creates: test mode is the key's prefix. Each create validates exactly as the live
//   one does, with the same functions, and answers a realistic object whose id starts with test_,
//   but stores nothing and reads no live data: no quote resolves (orders price from the configured
//   rate), and shipments and claims are checked against their body only, as test orders are never
//   stored. Reads, updates and cancels never reach the domain with a test key: their routes declare
//   `testKeys: 'not_found'` (contract/policy.ts).
// - A platform's messages: an order declares its mode; a fulfilment or refund takes the mode of the
//   order it names (platformMessageMode). A test-mode order is kept in test_mode_orders only so
//   that its redeliveries and follow-ups are recognised; nothing of it is booked.
// - A WooCommerce delivery signed with a test key's derived secret validates and books nothing.
import { randomInt, randomUUID } from 'node:crypto';
import { hotQuery, isUniqueViolation, type Database, type HotStatement } from '../../db/client.js';
import { actorColumns, type Mode, type PlatformActor, type Scope } from '../access/index.js';
import type { RefundAcknowledgement, RefundCreated } from '../billing/index.js';
import { reverseRefund } from '../billing/index.js';
import type { Clock } from '../kernel/index.js';
import { applyWooCommerceEvent, fulfilledParcels, type FulfillmentAcknowledgement, type FulfillmentCreated, ingestFulfillment, ingestPushedOrder, orderNotYetIngested, type OrderPlaced, type PushAcknowledgement, pushedOrderMode, readableWholeOrder, readPushedOrder, type WooCommerceOrderEvent, type WooCommerceOutcome } from '../platforms/index.js';


import { type AddressInput, OUTSIDE_US, settleVerification, standardizeUsAddress, testModeVerification, type Verification, type VerificationSettings, verifyAddress } from '../addresses/index.js';

import { assertUniqueItems, claimChannelOf, claimItems, fileClaim, newClaimReference, type ClaimInput, type ClaimRecord } from '../claims/index.js';
import {
  assertUniqueLineItemIds,
  createOrder,
  lineItemRows,
  orderColumns,
  priceWithoutQuote,
  pricingRequestOf,
  type OrderCreateInput,
  type OrderRecord,
} from '../orders/index.js';
import { assertMerchantIdFits, createQuote, priceQuote, type QuoteInput, type QuoteRecord } from '../quotes/index.js';
import { createShipment, newShipmentRecord, resolveCourier, type ShipmentInput, type ShipmentRecord, type ShipmentTracking } from '../shipments/index.js';

const testId = () => `test_${randomUUID()}`;

/** The creates a key may make, live or in the sandbox. */
export interface StoreCommands {
  createQuote(db: Database, scope: Scope, input: QuoteInput, now: Date): Promise<QuoteRecord>;
  createOrder(db: Database, scope: Scope, input: OrderCreateInput, now: Date): Promise<OrderRecord>;
  createShipment(db: Database, tracking: ShipmentTracking, scope: Scope, input: ShipmentInput, now: Date): Promise<ShipmentRecord>;
  fileClaim(db: Database, scope: Scope, input: ClaimInput, now: Date): Promise<ClaimRecord>;
  verifyAddress(db: Database, settings: VerificationSettings, input: AddressInput, now: Date): Promise<Verification>;
}

const liveCommands: StoreCommands = { createQuote, createOrder, createShipment, fileClaim, verifyAddress };

const sandboxCommands: StoreCommands = {
  async createQuote(db, scope, input, now) {
    await assertMerchantIdFits(db, scope.store, input.merchant_id);
    return { id: testId(), ...priceQuote(scope.store, input, now) };
  },
  async createOrder(_db, scope, input, now) {
    assertUniqueLineItemIds(input.line_items);
    const pricing = priceWithoutQuote(scope.store, pricingRequestOf(input));
    const columns = orderColumns(scope, input, pricing, now);
    return {
      ...columns,
      id: testId(),
      orderNumber: `TEST-${randomInt(100_000, 1_000_000)}`,
      status: 'created',
      paidToInsureCents: pricing.premiumCents,
      firstName: columns.customerFirstName,
      lastName: columns.customerLastName,
      hasPii: true,
      lineItems: lineItemRows(input.line_items),
      cancelledOn: null,
    };
  },
  async createShipment(_db, _tracking, scope, input, now) {
    return newShipmentRecord(testId(), scope.store.id, input.tracking_number, resolveCourier(input, now), now);
  },
  async fileClaim(_db, scope, input, now) {
    assertUniqueItems(input.items);
    return {
      id: testId(),
      storeId: scope.store.id,
      sourceOrderId: input.source_order_id,
      trackingNumber: input.tracking_number ?? null,
      reason: input.reason,
      description: input.description ?? null,
      items: claimItems(input),
      status: 'open',
      channel: claimChannelOf(scope.actor),
      photos: [],
      createdOn: now,
      updatedOn: now,
      resolvedOn: null,
      // Test orders are not stored: the claim has no prices or parcels to read, so no value or evidence.
      reference: newClaimReference(),
      amountClaimedCents: 0,
      resolution: null,
      payout: null,
      evidence: { delivery_status: null, last_scan_at: null, days_without_scan: null, delivered_at: null, within_window: null, photos: 0, prior_claims: 0, address_verdict: null },
      history: [{ fromStatus: null, toStatus: 'open', changedOn: now, note: null, by: { kind: actorColumns(scope.actor).actorKind, id: actorColumns(scope.actor).actorId, rule: null } }],
    };
  },
  // Computed locally, no lookup spent: any well-formed US address is deliverable, ZIP 00000 is not.
  async verifyAddress(_db, _settings, input) {
    const standard = standardizeUsAddress(input);
    if (standard === null) return OUTSIDE_US;
    return settleVerification(testModeVerification(standard));
  },
};

/** The commands for a mode: the only place a key's mode chooses what runs. */
export function commandsFor(mode: Mode): StoreCommands {
  return mode === 'test' ? sandboxCommands : liveCommands;
}

/** The messages a connected platform sends for a store, live or in the sandbox. */
export interface PlatformCommands {
  ingestPushedOrder(db: Database, scope: Scope<PlatformActor>, message: OrderPlaced, now: Date): Promise<PushAcknowledgement>;
  ingestFulfillment(db: Database, scope: Scope<PlatformActor>, tracking: ShipmentTracking, message: FulfillmentCreated, now: Date): Promise<FulfillmentAcknowledgement>;
  reverseRefund(db: Database, scope: Scope<PlatformActor>, message: RefundCreated, clock: Clock): Promise<RefundAcknowledgement>;
}

const livePlatformCommands: PlatformCommands = { ingestPushedOrder, ingestFulfillment, reverseRefund };

const sandboxPlatformCommands: PlatformCommands = {
  async ingestPushedOrder(db, { store }, { order }, now) {
    const pricing = priceWithoutQuote(store, readPushedOrder(store, order).request);
    try {
      await db.testModeOrder.create({ data: { storeId: store.id, sourceOrderId: order.id, premiumCents: pricing.premiumCents, receivedAt: now } });
      return { mode: 'test', orderId: order.id, premiumCents: pricing.premiumCents, duplicate: false };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const first = await db.testModeOrder.findUniqueOrThrow({ where: { storeId_sourceOrderId: { storeId: store.id, sourceOrderId: order.id } } });
      return { mode: 'test', orderId: order.id, premiumCents: Number(first.premiumCents), duplicate: true };
    }
  },
  async ingestFulfillment(_db, _scope, _tracking, message, now) {
    fulfilledParcels(message, now);
    return { mode: 'test', shipmentsRegistered: 0, duplicate: false };
  },
  async reverseRefund() {
    return { mode: 'test', reversedCents: 0, premiumCents: 0, duplicate: false };
  },
};

/** The platform messages for a mode. */
export function platformCommandsFor(mode: Mode): PlatformCommands {
  return mode === 'test' ? sandboxPlatformCommands : livePlatformCommands;
}

/**
 * A platform message's mode. An order declares it (pushedOrderMode). A fulfilment or refund takes
 * the mode of the order it names: live when the store has it as a live order, test when only as a
 * test-mode one, and neither is 500 order_not_yet_ingested, so the sender retries later (messages
 * can overtake each other). Orders are never deleted, so a mode once found stays true.
 */
export async function platformMessageMode(
  db: Database,
  storeId: string,
  message: { event: 'order.placed'; order: OrderPlaced['order'] } | { event: 'fulfillment.created' | 'refund.created'; order: { id: string } },
): Promise<Mode> {
  if (message.event === 'order.placed') return pushedOrderMode(message.order);
  const [found] = await hotQuery<{ mode: Mode | null }>(db, ORDER_MODE, [storeId, message.order.id]);
  if (found?.mode == null) throw orderNotYetIngested(message.order.id);
  return found.mode;
}

const ORDER_MODE: HotStatement = {
  name: 'op_platform_message_mode',
  text: `SELECT CASE WHEN EXISTS (SELECT 1 FROM orders WHERE store_id = $1::uuid AND source_order_id = $2) THEN 'live'
                     WHEN EXISTS (SELECT 1 FROM test_mode_orders WHERE store_id = $1::uuid AND source_order_id = $2) THEN 'test'
                END AS mode`,
};

/** A WooCommerce delivery, live or in the sandbox (which validates the order and books nothing). */
export async function applyWooCommerceDelivery(db: Database, scope: Scope, event: WooCommerceOrderEvent, clock: Clock): Promise<WooCommerceOutcome> {
  if (scope.mode === 'live' || event.kind === 'ignore') return applyWooCommerceEvent(db, scope, event, clock);
  if (event.kind === 'upsert') await sandboxCommands.createOrder(db, scope, readableWholeOrder(event).input, clock.now());
  return { action: 'validated', orderId: event.sourceOrderId };
}
