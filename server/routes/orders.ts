import { initServer } from '@ts-rest/express';
import { ordersContract } from '../../contract/index.js';
import { cancelOrder, getOrder, OrderExistsError, updateOrder } from '../domain/orders/index.js';
import { toOrderConflict, toOrderResponse } from '../wire/orders.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox.js';

const s = initServer();

export const ordersRouter = ({ db, clock, metrics }: AppDeps) =>
  s.router(ordersContract, {
    create: async ({ body, req }) => {
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
    get: async ({ params, req }) => {
      const order = await getOrder(db, scopeOf(req), params.source_order_id);
      return { status: 200, body: toOrderResponse(order) };
    },
    update: async ({ params, body, req }) => {
      const order = await updateOrder(db, scopeOf(req), params.source_order_id, body, clock.now());
      return { status: 200, body: toOrderResponse(order) };
    },
    updatePatch: async ({ params, body, req }) => {
      const order = await updateOrder(db, scopeOf(req), params.source_order_id, body, clock.now());
      return { status: 200, body: toOrderResponse(order) };
    },
    cancel: async ({ params, req }) => {
      const order = await cancelOrder(db, scopeOf(req), params.source_order_id, clock.now());
      return { status: 200, body: toOrderResponse(order) };
    },
  });
