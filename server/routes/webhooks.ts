import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { webhooksContract, type WebhookAcknowledgement } from '../../contract/index.js';
import { AppError } from '../domain/errors.js';
import { ingestFulfillment } from '../domain/fulfillments.js';
import { connectedStore } from '../domain/platforms.js';
import { ingestPushedOrder } from '../domain/pushed-orders.js';
import { RefundIdReusedError, reverseRefund } from '../domain/refunds.js';
import type { AppDeps } from '../deps.js';
import { setModeHeaders } from '../http/request-context.js';

const s = initServer();

type Acknowledgement = z.input<typeof WebhookAcknowledgement>;

export const webhooksRouter = ({ db, clock, tracking, metrics, logger }: AppDeps) =>
  s.router(webhooksContract, {
    receive: async ({ body, req, res }) => {
      if (!req.platform) throw new AppError('unauthorized', 'The message is not signed.');
      const store = await connectedStore(db, req.platform, body.merchant);
      const scope = { store, actor: { kind: 'platform', platform: req.platform.slug } } as const;
      const now = clock.now();
      let ack: Acknowledgement;
      switch (body.event) {
        case 'order.placed': {
          const result = await ingestPushedOrder(db, scope, body, now);
          if (result.mode === 'live' && !result.duplicate) metrics.premiumBooked(result.premiumCents);
          ack = { received: true, event: body.event, mode: result.mode, order_id: result.orderId, premium_cents: result.premiumCents, duplicate: result.duplicate };
          break;
        }
        case 'fulfillment.created': {
          const result = await ingestFulfillment(db, tracking, scope, body, now);
          ack = { received: true, event: body.event, mode: result.mode, order_id: body.order.id, shipments_registered: result.shipmentsRegistered, duplicate: result.duplicate };
          break;
        }
        case 'refund.created': {
          const result = await reverseRefund(db, scope, body, now).catch((error: unknown) => {
            if (error instanceof RefundIdReusedError) {
              metrics.refundIdReused();
              logger.warn({ store_id: store.id, platform: req.platform?.slug, request_id: req.requestId }, 'refund id reused for another order; refused');
            }
            throw error;
          });
          metrics.premiumReversed(result.reversedCents);
          if (result.cancelledWithOpenClaim) {
            metrics.cancelledWithOpenClaim();
            logger.warn({ store_id: store.id, request_id: req.requestId }, 'a full refund cancelled an order with an open claim; the claim stays open');
          }
          ack = {
            received: true,
            event: body.event,
            mode: result.mode,
            order_id: body.order.id,
            premium_cents: result.premiumCents,
            reversed_cents: result.reversedCents,
            duplicate: result.duplicate,
          };
          break;
        }
      }
      // A pushed message carries no key: its mode is what the message declares.
      setModeHeaders(res, ack.mode);
      return { status: 200, body: ack };
    },
  });
