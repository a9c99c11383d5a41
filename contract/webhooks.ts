// The inbound webhook from a commerce-platform backend (SPEC.md §6, DESIGN.md §4).
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { signatureAuthenticated, text } from './common.js';
import { pickErrors } from './errors.js';

const c = initContract();

export const WebhookMessage = extendApi(
  z
    .object({
      merchant: text(100).describe('Store slug.'),
      event: z.enum(['order.placed', 'fulfillment.created', 'refund.created']),
    })
    .passthrough(),
  { title: 'WebhookMessage', description: 'Every amount is an integer number of cents.' },
);

export const WebhookAcknowledgement = extendApi(
  z.object({
    received: z.literal(true),
    event: z.string(),
    order_id: z.string().optional(),
    premium_cents: z.number().int().optional(),
    duplicate: z.boolean().optional(),
  }),
  { title: 'WebhookAcknowledgement' },
);

export const webhooksContract = c.router({
  receive: {
    method: 'POST',
    path: '/api/webhooks/:platform_slug',
    pathParams: z.object({ platform_slug: text(100) }),
    body: WebhookMessage,
    responses: { 200: WebhookAcknowledgement, ...pickErrors(400, 401, 404, 413, 500, 501) },
    metadata: signatureAuthenticated,
    summary: 'Receive a platform message',
    description:
      'order.placed, fulfillment.created and refund.created from a commerce-platform backend. Signed with the ' +
      'platform\'s shared secret in X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">.',
  },
});
