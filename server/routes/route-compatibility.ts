// Route's v1 routes (docs/route-compatibility.md), on the domain code of the documented routes.
import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { centsToMajorNumber, MAX_AMOUNT_CENTS, routeCompatibilityContract, type RouteMerchant } from '../../contract/index.js';
import { AppError } from '../domain/kernel/index.js';
import { getOrder, toOrderResponse, updateOrderAsProfileAllows } from '../domain/orders/index.js';
import { priceCoverage } from '../domain/quotes/index.js';
import type { StoreContext } from '../domain/stores/index.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { wholeOrderFrom } from '../wire/orders.js';

import { answerOrderCreate } from './orders.js';

const s = initServer();

/**
 * The store as the plugins read a Route merchant. The protection offer is opt-out (the checkbox
 * starts ticked), the same default the route-profile quote states with ToggleState.
 */
function toRouteMerchant(store: StoreContext): z.input<typeof RouteMerchant> {
  return {
    id: store.id,
    name: store.name,
    store_name: store.name,
    status: 'Active',
    currency: 'USD',
    has_route_plus: true,
    merchant_preferences: { opt_in: false, opt_out: true, merchant_supplied_insurance: false },
  };
}

export const routeCompatibilityRouter = (deps: AppDeps) => {
  const { db, clock, metrics } = deps;
  return s.router(routeCompatibilityContract, {
    getOrder: async ({ params, req }) => ({ status: 200, body: toOrderResponse(await getOrder(db, scopeOf(req), params.source_order_id)) }),
    createOrder: async ({ body, req }) => answerOrderCreate(deps, scopeOf(req), body),
    updateOrder: async ({ params, body, req }) => {
      const id = params.source_order_id;
      const { order, created } = await updateOrderAsProfileAllows(db, scopeOf(req), id, body, () => wholeOrderFrom(req.body, id), clock);
      if (created) metrics.premiumBooked(order.paidToInsureCents);
      return { status: created ? 201 : 200, body: toOrderResponse(order) };
    },
    quote: async ({ query, req }) => {
      const { store } = scopeOf(req);
      const { premiumCents } = priceCoverage(query.subtotal, store.pricing);
      return {
        status: 200,
        body: {
          insurance_price: centsToMajorNumber(premiumCents),
          subtotal_usd: centsToMajorNumber(query.subtotal),
          currency: 'USD',
          coverage_lower_limit: 0,
          coverage_upper_limit: centsToMajorNumber(store.pricing.maxCoveredCents ?? MAX_AMOUNT_CENTS),
          payment_responsible: { type: 'paid_by_customer', ToggleState: true },
        },
      };
    },
    merchants: async ({ req }) => ({ status: 200, body: [toRouteMerchant(scopeOf(req).store)] }),
    merchant: async ({ params, req }) => {
      const { store } = scopeOf(req);
      if (params.merchant_id !== store.id && params.merchant_id !== store.slug) throw new AppError('not_found', 'No such merchant for this key: a key sees only its own store.');
      return { status: 200, body: toRouteMerchant(store) };
    },
  });
};
