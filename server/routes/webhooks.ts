import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { webhooksContract, type WebhookAcknowledgement } from '../../contract/index.js';
import { AppError } from '../domain/kernel/index.js';
import { cancelStoreRedaction, exportCustomerData, redactCustomer, scheduleStoreRedaction } from '../domain/privacy/index.js';
import { connectedStore } from '../domain/platforms/index.js';
import { RefundIdReusedError } from '../domain/billing/index.js';
import { platformCommandsFor, platformMessageMode } from '../domain/sandbox/index.js';
import type { PlatformActor, Scope } from '../domain/access/index.js';

import { toCustomerDataExport, toWithheldOrders } from '../wire/customers.js';
import type { AppDeps } from '../deps.js';
import { setModeHeaders } from '../http/request-context.js';

const s = initServer();

type Acknowledgement = z.input<typeof WebhookAcknowledgement>;

export const webhooksRouter = ({ db, clock, tracking, metrics, logger, apiKeys }: AppDeps) =>
  s.router(webhooksContract, {
    receive: async ({ body, req, res }) => {
      if (!req.platform) throw new AppError('unauthorized', 'The message is not signed.');
      const store = await connectedStore(db, req.platform, body.merchant, apiKeys);
      const actor: PlatformActor = { kind: 'platform', platform: req.platform.slug };
      // A privacy message concerns live data only; an order message's mode is decided by the sandbox.
      const mode = body.event === 'order.placed' || body.event === 'fulfillment.created' || body.event === 'refund.created' ? await platformMessageMode(db, store.id, body) : 'live';
      const scope: Scope<PlatformActor> = { store, actor, mode };
      const commands = platformCommandsFor(mode);
      const now = clock.now();
      let ack: Acknowledgement;
      switch (body.event) {
        case 'order.placed': {
          const result = await commands.ingestPushedOrder(db, scope, body, now);
          if (result.mode === 'live' && !result.duplicate) metrics.premiumBooked(result.premiumCents);
          ack = { received: true, event: body.event, mode: result.mode, order_id: result.orderId, premium_cents: result.premiumCents, duplicate: result.duplicate };
          break;
        }
        case 'fulfillment.created': {
          const result = await commands.ingestFulfillment(db, scope, tracking, body, now);
          ack = { received: true, event: body.event, mode: result.mode, order_id: body.order.id, shipments_registered: result.shipmentsRegistered, duplicate: result.duplicate };
          break;
        }
        case 'refund.created': {
          const result = await commands.reverseRefund(db, scope, body, clock).catch((error: unknown) => {
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
        case 'customer.redact': {
          const source = { platformId: req.platform.id, requestId: body.request.id };
          const result = await redactCustomer(db, scope, { email: body.customer.email, sourceOrderIds: body.orders_to_redact ?? [], source }, now);
          if (!result.duplicate) metrics.privacyRequestReceived('customer_redact');
          metrics.personalDataErased('request', result.redacted.length);
          ack = {
            ...privacyAck(body.event, result.request.id, result.duplicate),
            redacted_orders: result.redacted,
            withheld_orders: toWithheldOrders(result.withheld),
          };
          break;
        }
        case 'customer.data_request': {
          const source = { platformId: req.platform.id, requestId: body.request.id };
          const result = await exportCustomerData(db, scope, { email: body.customer.email, sourceOrderIds: body.orders_requested ?? [], source }, now);
          if (!result.duplicate) metrics.privacyRequestReceived('customer_data_request');
          ack = { ...privacyAck(body.event, result.request.id, result.duplicate), data: toCustomerDataExport(result, now) };
          break;
        }
        case 'store.redact': {
          const { request, duplicate } = await scheduleStoreRedaction(db, scope, { platformId: req.platform.id, requestId: body.request.id }, now);
          if (!duplicate) metrics.privacyRequestReceived('store_redact');
          ack = { ...privacyAck(body.event, request.id, duplicate), ...redactionState(request) };
          break;
        }
        case 'store.redact_cancelled': {
          const { request, duplicate } = await cancelStoreRedaction(db, scope, { platformId: req.platform.id, requestId: body.request.id }, now);
          ack = { ...privacyAck(body.event, request.id, duplicate), ...redactionState(request) };
          break;
        }
      }
      // A pushed message carries no key: its mode is what the message declares.
      setModeHeaders(res, ack.mode);
      return { status: 200, body: ack };
    },
  });

/** A privacy message concerns live data only: it declares no mode. */
const privacyAck = (event: string, requestId: string, duplicate: boolean) => ({ received: true as const, event, mode: 'live' as const, request_id: requestId, duplicate });

const redactionState = (request: { status: 'pending' | 'completed' | 'cancelled'; dueAt: Date | null }) => ({
  redaction_status: request.status,
  ...(request.dueAt === null ? {} : { redaction_due_at: request.dueAt.toISOString() }),
});
