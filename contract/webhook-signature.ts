// The platform webhook signature (README, Platform webhooks, "Trust"), shared by the server (verify) and the SDK's
// platform helper (sign): X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw
// body>" keyed with the platform's shared secret>. Several v1= values may be sent while a secret
// is being rotated; one match is enough.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';
/** A signature older or newer than this, against the receiver's clock, is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The header value for a message sent now (or at `timestamp`, in unix seconds). */
export function signWebhook(secret: string, rawBody: Buffer | string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export type WebhookSignatureCheck = { valid: true } | { valid: false; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' };

/** A header read before the body: its timestamp and the signatures it offers, or why it cannot match. */
export type WebhookSignatureHeader =
  | { valid: true; timestamp: number; candidates: string[] }
  | { valid: false; reason: 'missing' | 'malformed' | 'expired' };

/**
 * Reads the header alone, so that a message that cannot match is refused before its body is read:
 * missing, malformed, or outside the tolerance.
 */
export function readWebhookSignatureHeader(header: string | undefined, now: Date = new Date()): WebhookSignatureHeader {
  if (header === undefined || header.trim() === '') return { valid: false, reason: 'missing' };
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === null || candidates.length === 0) return { valid: false, reason: 'malformed' };
  // Whole seconds on both sides, as the header carries them.
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return { valid: false, reason: 'expired' };
  return { valid: true, timestamp, candidates };
}

/** Whether one of the header's signatures is the body's, compared in constant time. */
export function webhookSignatureMatches(header: Extract<WebhookSignatureHeader, { valid: true }>, rawBody: Buffer | string, secret: string): boolean {
  const expected = Buffer.from(hmacHex(secret, header.timestamp, rawBody), 'hex');
  return header.candidates.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
}

export function verifyWebhookSignature(
  header: string | undefined,
  rawBody: Buffer | string,
  secret: string,
  now: Date = new Date(),
): WebhookSignatureCheck {
  const read = readWebhookSignatureHeader(header, now);
  if (!read.valid) return read;
  return webhookSignatureMatches(read, rawBody, secret) ? { valid: true } : { valid: false, reason: 'mismatch' };
}

/**
 * WooCommerce's webhook signature (X-WC-Webhook-Signature): the base64 HMAC-SHA256 of the raw body
 * keyed with the webhook's secret. It carries no timestamp, so a delivery can be replayed; what it
 * does (create, update, cancel an order) is idempotent.
 */
export const WOOCOMMERCE_SIGNATURE_HEADER = 'X-WC-Webhook-Signature';

export function signWooCommerceDelivery(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** Whether the header has the shape of a signature at all (read before the body). */
export const isWooCommerceSignatureShaped = (header: string | undefined): header is string => header !== undefined && /^[A-Za-z0-9+/]{43}=$/.test(header.trim());

export function verifyWooCommerceSignature(header: string | undefined, rawBody: Buffer | string, secret: string): boolean {
  if (!isWooCommerceSignatureShaped(header)) return false;
  const expected = Buffer.from(signWooCommerceDelivery(secret, rawBody), 'base64');
  return timingSafeEqual(Buffer.from(header.trim(), 'base64'), expected);
}
