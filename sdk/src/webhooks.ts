// For commerce platforms that push orders, fulfilments and refunds to the service: the signature the
// server checks (the same code, contract/webhook-signature.ts) and a sender that signs each attempt.
// Platforms hold no API key; the shared secret is the credential.
import { initClient } from '@ts-rest/core';
import { contract } from '../../contract/index.js';
import {
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookSignatureCheck,
} from '../../contract/webhook-signature.js';
import { createFetcher, normaliseBaseUrl, pathSegment, refuseBrowser, resolveFetch, Transport, type TransportOptions } from './transport.js';
import type { PlatformMessage, WebhookAcknowledgement } from './types.js';

export { signWebhook, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TOLERANCE_SECONDS } from '../../contract/webhook-signature.js';
export type { WebhookSignatureCheck } from '../../contract/webhook-signature.js';

/**
 * Checks an X-Webhook-Signature header against the raw body, as the service does: one matching v1=
 * is enough, and a t more than 300 s from `now` is refused as a replay.
 */
export function verifyWebhook(
  header: string | undefined,
  rawBody: string | Buffer,
  secret: string,
  now: Date = new Date(),
): WebhookSignatureCheck {
  return verifyWebhookSignature(header, rawBody, secret, now);
}

export interface PlatformMessageOptions extends TransportOptions {
  /** Where the API is served, e.g. https://api.example.com. */
  baseUrl: string;
  /** The platform's slug, as registered with `platform create`. */
  platform: string;
  /** The platform's shared secret. */
  secret: string;
  message: PlatformMessage;
}

/**
 * Posts a signed message to POST /api/webhooks/{platform}. Every attempt sends the same bytes,
 * signed afresh over them, so a retry after a long wait is still within the replay window.
 * Redelivery is safe (the service deduplicates by order, fulfilment and refund id), so network
 * errors, timeouts and 5xx, including 500 order_not_yet_ingested, are retried like any call.
 * Resolves with the acknowledgement; a wrong secret throws AuthenticationError, an unknown platform
 * or unconnected store NotFoundError.
 */
export async function sendPlatformMessage(options: PlatformMessageOptions): Promise<WebhookAcknowledgement> {
  refuseBrowser("a platform's shared secret");
  if (typeof options.secret !== 'string' || options.secret === '') throw new TypeError('secret must be the platform shared secret.');
  const { secret, message } = options;
  const raw = initClient(contract, {
    baseUrl: normaliseBaseUrl(options.baseUrl),
    api: createFetcher(resolveFetch(options.fetch), (body) => ({ [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, body) })),
    validateResponse: false,
  });
  const params = { platform_slug: pathSegment('platform', options.platform) };
  return new Transport(options).request((signal) => raw.webhooks.receive({ params, body: message, fetchOptions: { signal } }));
}
