// The sandbox: what a test key's creates answer. Test mode is decided once, at the edge (the key's
// prefix), and this is the one place it leads to. Each create validates exactly as the live one
// does, with the same functions, and answers a realistic object whose id starts with test_, but
// stores nothing and reads no live data: no quote resolves (orders price from the configured
// rate), and shipments and claims are checked against their body only, as test orders are never
// stored. Reads, updates and cancels never reach the domain with a test key: their routes declare
// `testKeys: 'not_found'` (contract/policy.ts).
import { randomInt, randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { Mode, StoreScope } from '../access/actor.js';
import { settleVerification, type AddressInput, type Verification } from '../addresses/addresses.js';
import { OUTSIDE_US, standardizeUsAddress, testModeVerification, verifyAddress, type VerificationSettings } from '../addresses/address-verification.js';
import { assertUniqueItems, claimChannelOf, claimItems, createClaim, type ClaimInput, type ClaimRecord } from '../claims/claims.js';
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
import { assertMerchantIdFits, createQuote, priceQuote, type QuoteInput, type QuoteRecord } from '../quotes/quotes.js';
import { createShipment, newShipmentRecord, resolveCourier, type ShipmentInput, type ShipmentRecord, type ShipmentTracking } from '../shipments/index.js';

const testId = () => `test_${randomUUID()}`;

/** The creates a key may make, live or in the sandbox. */
export interface StoreCommands {
  createQuote(db: Database, scope: StoreScope, input: QuoteInput, now: Date): Promise<QuoteRecord>;
  createOrder(db: Database, scope: StoreScope, input: OrderCreateInput, now: Date): Promise<OrderRecord>;
  createShipment(db: Database, tracking: ShipmentTracking, scope: StoreScope, input: ShipmentInput, now: Date): Promise<ShipmentRecord>;
  createClaim(db: Database, scope: StoreScope, input: ClaimInput, now: Date): Promise<ClaimRecord>;
  verifyAddress(db: Database, settings: VerificationSettings, input: AddressInput, now: Date): Promise<Verification>;
}

const liveCommands: StoreCommands = { createQuote, createOrder, createShipment, createClaim, verifyAddress };

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
  async createClaim(_db, scope, input, now) {
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
