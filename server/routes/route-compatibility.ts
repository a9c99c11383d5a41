// Route's v1 routes (docs/route-compatibility.md), on the domain code of the documented routes.
import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { centsToMajorNumber, fieldErrorsFromIssues, MAX_AMOUNT_CENTS, OrderRequest, routeCompatibilityContract, type RouteMerchant } from '../../contract/index.js';
import type { StoreScope } from '../domain/actor.js';
import { AppError } from '../domain/errors.js';
import { getOrder, OrderExistsError, updateOrder, upsertOrder, type OrderUpdateInput } from '../domain/orders/index.js';
import { priceCoverage } from '../domain/pricing.js';
import { commandsFor } from '../domain/sandbox.js';
import type { StoreContext } from '../domain/stores.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { toOrderConflict, toOrderResponse } from '../wire/orders.js';

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

export const routeCompatibilityRouter = ({ db, clock, metrics }: AppDeps) => {
  /** An order update; for a route-profile store, the whole order the body may be creates a missing one. */
  const update = async (scope: StoreScope, sourceOrderId: string, patch: OrderUpdateInput, raw: unknown) => {
    if (scope.store.clientProfile !== 'route') return { status: 200 as const, body: toOrderResponse(await updateOrder(db, scope, sourceOrderId, patch, clock.now())) };
    const parsed = OrderRequest.safeParse({ ...(typeof raw === 'object' ? raw : {}), source_order_id: sourceOrderId });
    const whole = parsed.success ? { input: parsed.data } : { problems: fieldErrorsFromIssues(parsed.error.issues) };
    const { order, created } = await upsertOrder(db, scope, sourceOrderId, patch, whole, clock.now());
    if (created) metrics.premiumBooked(order.paidToInsureCents);
    return { status: created ? (201 as const) : (200 as const), body: toOrderResponse(order) };
  };

  return s.router(routeCompatibilityContract, {
    getOrder: async ({ params, req }) => ({ status: 200, body: toOrderResponse(await getOrder(db, scopeOf(req), params.source_order_id)) }),
    createOrder: async ({ body, req }) => {
      const scope = scopeOf(req);
      try {
        const order = await commandsFor(scope.mode).createOrder(db, scope, body, clock.now());
        if (scope.mode === 'live') metrics.premiumBooked(order.paidToInsureCents);
        return { status: 201, body: toOrderResponse(order) };
      } catch (error) {
        if (error instanceof OrderExistsError) return { status: 409, body: toOrderConflict(error) };
        throw error;
      }
    },
    updateOrder: async ({ params, body, req }) => update(scopeOf(req), params.source_order_id, body, req.body),
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
