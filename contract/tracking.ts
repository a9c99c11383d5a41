// Tracking-provider callbacks: EasyPost posts tracker.updated events here.
import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { easyPostSignedRoute } from './policy.js';
import { pickErrors } from './errors.js';

const c = initContract();

export const EasyPostEvent = extendApi(
  z.object({ object: z.literal('Event'), description: z.string(), result: z.record(z.unknown()) }).passthrough(),
  { title: 'EasyPostEvent', description: "EasyPost's Event object; tracker.created and tracker.updated carry a Tracker." },
);

export const TrackingWebhookAcknowledgement = extendApi(
  z.object({ received: z.literal(true), matched: z.boolean().describe('Whether a shipment follows that tracker.') }),
  { title: 'TrackingWebhookAcknowledgement' },
);

export const trackingContract = c.router({
  easyPostWebhook: {
    method: 'POST',
    path: '/v1/tracking/easypost/webhook',
    body: EasyPostEvent,
    responses: { 200: TrackingWebhookAcknowledgement, ...pickErrors(400, 401, 404, 413, 500) },
    metadata: easyPostSignedRoute,
    summary: 'Receive an EasyPost tracker event',
    description:
      'For EasyPost only (enabled by EASYPOST_WEBHOOK_SECRET). Signed: X-Hmac-Signature: hmac-sha256-hex=<HMAC-SHA256 ' +
      'of the raw body with the webhook secret>. A bad or missing signature is 401; a malformed event is 400 and ' +
      'writes nothing; an event for a tracker no shipment follows is acknowledged with matched false.',
  },
});
