// WooCommerce's native order webhooks, as Route's WooCommerce plugin registers them
// (docs/route-compatibility.md). The signature was checked on the raw body (http/signatures.ts).
import { initServer } from '@ts-rest/express';
import { wooCommerceContract } from '../../contract/index.js';
import { AppError } from '../domain/kernel/index.js';
import type { WooCommerceOrderEvent } from '../domain/platforms/index.js';
import { applyWooCommerceDelivery } from '../domain/sandbox/index.js';
import type { AppDeps } from '../deps.js';
import { setModeHeaders } from '../http/request-context.js';
import { scopeOf } from '../http/route-policy.js';
import { wooCommerceOrderEvent } from '../wire/woocommerce-order.js';

const s = initServer();

export const wooCommerceRouter = ({ db, clock }: AppDeps) =>
  s.router(wooCommerceContract, {
    receive: async ({ body, req, res }) => {
      const scope = scopeOf(req);
      const topic = req.get('x-wc-webhook-topic') ?? 'unknown';
      setModeHeaders(res, scope.mode);
      if ('webhook_id' in body) return { status: 200, body: { received: true, topic: 'ping', mode: scope.mode, action: 'pong' } };
      let event: WooCommerceOrderEvent;
      if (!('line_items' in body) || topic === 'order.deleted') {
        event = { kind: 'cancel', sourceOrderId: String(body.id), reason: 'the order was deleted' };
      } else if ('line_items' in body && (topic === 'order.updated' || topic === 'order.created' || topic === 'order.restored')) {
        event = wooCommerceOrderEvent(body, scope.store.protectionSkus);
      } else {
        throw new AppError('invalid_request', `Topic ${topic} is not an order webhook this service takes (order.updated, order.deleted).`, [
          { field: 'X-WC-Webhook-Topic', message: 'must be order.updated or order.deleted' },
        ]);
      }
      const outcome = await applyWooCommerceDelivery(db, scope, event, clock);
      return {
        status: 200,
        body: { received: true, topic, mode: scope.mode, action: outcome.action, order_id: outcome.orderId, ...(outcome.reason === undefined ? {} : { reason: outcome.reason }) },
      };
    },
  });
