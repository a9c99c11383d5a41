// For commerce platforms that push orders, fulfilments and refunds to the service: the signature the
// server checks (contract/webhook-signature.ts, re-implemented on Web Crypto so it runs in any
// runtime; test/sdk-webhooks.test.ts holds the two to the same answers) and a sender that signs
// each attempt. Platforms hold no API key; the shared secret is the credential.
import { concatBytes, hmacKey, hmacSign, hmacVerify } from './hmac.js';
import { routes } from './routes.js';
import { pathSegment, refuseBrowser, Transport, type TransportOptions, type WithLastResponse } from './transport.js';
import type { PlatformMessage, WebhookAcknowledgement } from './types.js';

export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';
/** A signature older or newer than this, against the receiver's clock, is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookSignatureCheck = { valid: true } | { valid: false; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' };

/** The signed bytes: "<t>." followed by the raw body. */
const signedPayload = (timestamp: number, rawBody: string | Uint8Array) => concatBytes(`${timestamp}.`, rawBody);

/**
 * The X-Webhook-Signature value for a message sent now (or at `timestamp`, in unix seconds):
 * t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">.
 */
export async function signWebhook(secret: string, rawBody: string | Uint8Array, timestamp: number = Math.floor(Date.now() / 1000)): Promise<string> {
  const mac = await hmacSign(await hmacKey(secret, 'sign'), signedPayload(timestamp, rawBody));
  return `t=${timestamp},v1=${Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Checks an X-Webhook-Signature header against the raw body, as the service does: one matching v1=
 * is enough, and a t more than WEBHOOK_TOLERANCE_SECONDS from `now` is refused as a replay.
 * The comparison is Web Crypto's verify, which takes the same time whatever the bytes.
 */
export async function verifyWebhook(
  header: string | undefined,
  rawBody: string | Uint8Array,
  secret: string,
  now: Date = new Date(),
): Promise<WebhookSignatureCheck> {
  if (header === undefined || header.trim() === '') return { valid: false, reason: 'missing' };
  let timestamp: number | null = null;
  const candidates: Uint8Array[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/i.test(value)) {
      candidates.push(Uint8Array.from(value.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)));
    }
  }
  if (timestamp === null || candidates.length === 0) return { valid: false, reason: 'malformed' };
  // Whole seconds on both sides, as the header carries them.
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return { valid: false, reason: 'expired' };
  const key = await hmacKey(secret, 'verify');
  const payload = signedPayload(timestamp, rawBody);
  for (const candidate of candidates) {
    if (await hmacVerify(key, candidate, payload)) return { valid: true };
  }
  return { valid: false, reason: 'mismatch' };
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
 * Redelivery is safe (the service deduplicates by order, fulfilment and refund id, so this route
 * takes no Idempotency-Key), so network errors, timeouts and 5xx, including 500
 * order_not_yet_ingested, are retried like any call. Resolves with the acknowledgement; a wrong
 * secret throws AuthenticationError, an unknown platform or unconnected store NotFoundError.
 */
export async function sendPlatformMessage(options: PlatformMessageOptions): Promise<WithLastResponse<WebhookAcknowledgement>> {
  refuseBrowser("a platform's shared secret");
  if (typeof options.secret !== 'string' || options.secret === '') throw new TypeError('secret must be the platform shared secret.');
  const { secret } = options;
  const transport = new Transport(
    { baseUrl: options.baseUrl, attemptHeaders: async (body) => ({ [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: await signWebhook(secret, body) }) },
    options,
  );
  const params = { platform_slug: pathSegment('platform', options.platform) };
  return transport.request({ route: routes.webhooks.receive, params, body: options.message });
}
