// The one contract: every route and wire shape. The server, openapi.json and the SDK derive from it.
import { initContract } from '@ts-rest/core';
import { addressesContract } from './addresses.js';
import { billingContract } from './billing.js';
import { claimRulesContract } from './claim-rules.js';
import { claimsContract } from './claims.js';
import { customersContract } from './customers.js';
import { eventsContract } from './merchant-events.js';
import { ordersContract } from './orders.js';
import { quotesContract } from './quotes.js';
import { routeCompatibilityContract, wooCommerceContract } from './route-compatibility.js';
import { shipmentsContract } from './shipments.js';
import { trackingContract } from './tracking.js';
import { webhookEndpointsContract } from './webhook-endpoints.js';
import { webhooksContract } from './webhooks.js';

const c = initContract();

/** The merchant API: every route a store's key calls. */
export const merchantApiContract = c.router(
  {
    quotes: quotesContract,
    orders: ordersContract,
    shipments: shipmentsContract,
    claims: claimsContract,
    claimRules: claimRulesContract,
    customers: customersContract,
    addresses: addressesContract,
    billing: billingContract,
    webhookEndpoints: webhookEndpointsContract,
    events: eventsContract,
    routeCompatibility: routeCompatibilityContract,
  },
  { strictStatusCodes: true },
);

/** Signed callbacks from outside: platform backends and the tracking provider. No key. */
export const callbackContract = c.router(
  {
    tracking: trackingContract,
    webhooks: webhooksContract,
    woocommerce: wooCommerceContract,
  },
  { strictStatusCodes: true },
);

/** Both surfaces, as the OpenAPI document and the SDK publish them. */
export const contract = c.router({ ...merchantApiContract, ...callbackContract }, { strictStatusCodes: true });

export type Contract = typeof contract;
export * from './addresses.js';
export * from './billing.js';
export * from './claim-rules.js';
export * from './claims.js';
export * from './common.js';
export * from './customers.js';
export * from './errors.js';
export * from './merchant-events.js';
export * from './money.js';
export * from './orders.js';
export * from './policy.js';
export * from './quotes.js';
export * from './route-compatibility.js';
export * from './shipments.js';
export * from './tracking.js';
export * from './webhook-endpoints.js';
export * from './webhooks.js';
