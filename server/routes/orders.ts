import { initServer } from '@ts-rest/express';
import { ordersContract } from '../../contract/index.js';
import type { Scope } from '../domain/access/index.js';
import { cancelOrder, getOrder, type OrderCreateInput, OrderExistsError, redactOrder, toOrderResponse, updateOrder } from '../domain/orders/index.js';
import { toOrderConflict } from '../wire/orders.js';

import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox/index.js';

const s = initServer();

/** Order create, for /v2/orders and Route's /v1/orders: 201 with the order, or 409 with the one that landed. */
export async function answerOrderCreate({ db, clock, metrics }: AppDeps, scope: Scope, body: OrderCreateInput) {
  try {
    const order = await commandsFor(scope.mode).createOrder(db, scope, body, clock.now());
    if (scope.mode === 'live') metrics.premiumBooked(order.paidToInsureCents);
    return { status: 201 as const, body: toOrderResponse(order) };
  } catch (error) {
    if (error instanceof OrderExistsError) return { status: 409 as const, body: toOrderConflict(error) };
    throw error;
  }
}

export const ordersRouter = (deps: AppDeps) => {
  const { db, clock, metrics } = deps;
  return s.router(ordersContract, {
    create: async ({ body, req }) => answerOrderCreate(deps, scopeOf(req), body),
    get: async ({ params, req }) => {
      const order = await getOrder(db, scopeOf(req), params.source_order_id);
      return { status: 200, body: toOrderResponse(order) };
    },
    update: async ({ params, body, req }) => {
      const order = await updateOrder(db, scopeOf(req), params.source_order_id, body, clock);
      return { status: 200, body: toOrderResponse(order) };
    },
    updatePatch: async ({ params, body, req }) => {
      const order = await updateOrder(db, scopeOf(req), params.source_order_id, body, clock);
      return { status: 200, body: toOrderResponse(order) };
    },
    cancel: async ({ params, req }) => {
      const order = await cancelOrder(db, scopeOf(req), params.source_order_id, clock);
      return { status: 200, body: toOrderResponse(order) };
    },
    redact: async ({ params, req }) => {
      const scope = scopeOf(req);
      const order = await redactOrder(db, scope, params.source_order_id, clock.now());
      metrics.personalDataErased('request', 1);
      return { status: 200, body: toOrderResponse(order) };
    },
  });
};
