// Receiving the events the service POSTs to the store's webhook endpoints. Each delivery is signed
// in the Standard Webhooks format: webhook-id (the event's id), webhook-timestamp (unix seconds)
// and webhook-signature, a space-separated list of v1,<base64 HMAC-SHA256 of
// "<id>.<timestamp>.<raw body>">, keyed with the base64-decoded part of the endpoint's whsec_
// secret (two entries for 24 hours after a rotation; one match is enough). constructEvent checks
// that on the raw body and returns the typed event; generateTestHeaders signs a payload the same
// way, for tests of the merchant's own receiver. test/sdk-events.test.ts holds both to the
// standardwebhooks package, which the service signs with.
import { concatBytes, fromBase64, hmacKey, hmacSign, hmacVerify, toBase64 } from './hmac.js';
import { ENDPOINT_SECRET_PREFIX, EVENT_ID_HEADER, EVENT_SIGNATURE_HEADER, EVENT_TIMESTAMP_HEADER, EVENT_TOLERANCE_SECONDS } from './routes.js';
import type { MerchantEvent } from './types.js';

/** Every event type this SDK knows: 'order.created', 'claim.status_changed', ... */
export type EventType = MerchantEvent['type'];

/** Why constructEvent refused a delivery. */
export type EventSignatureFailure =
  /** webhook-id, webhook-timestamp or webhook-signature is absent or empty. */
  | 'missing_header'
  /** webhook-timestamp is not unix seconds, or webhook-signature has no v1 signature. */
  | 'malformed'
  /** The signature is right, but its timestamp is further in the past than the tolerance: a replay, or the receiver's clock is ahead. */
  | 'timestamp_too_old'
  /** The signature is right, but its timestamp is further in the future than the tolerance: the receiver's clock is behind. */
  | 'timestamp_too_new'
  /** No signature is the body's under this secret: a tampered or re-serialised body, another endpoint's secret, or not from the service. */
  | 'no_matching_signature';

/**
 * A delivery that is not a genuine, fresh event from the service: answer it 400 and do not act on
 * it. Branch on `reason`, never on the message.
 */
export class EventSignatureError extends Error {
  override readonly name: string = 'EventSignatureError';
  readonly reason: EventSignatureFailure;
  /** The header at fault, lower-cased (missing_header, malformed, timestamp_*); undefined for no_matching_signature. */
  readonly header: string | undefined;

  constructor(reason: EventSignatureFailure, message: string, header?: string) {
    super(message);
    this.reason = reason;
    this.header = header;
  }
}

/**
 * A request's headers: a Fetch `Headers` (Request.headers in edge functions, Deno, Bun), or a plain
 * object as Node's `req.headers` and Express give them, with names in any case and string or
 * string[] values.
 */
export type EventHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface ConstructEventOptions {
  /** How far, in seconds, webhook-timestamp may be from `now`, either way (replays). Default EVENT_TOLERANCE_SECONDS, 300. */
  toleranceSeconds?: number;
  /** The receiver's clock, for tests. Default: the current time. */
  now?: Date;
}

export interface TestHeadersOptions {
  /** The raw body, exactly as the test will send it: `JSON.stringify(event)`. */
  payload: string | Uint8Array;
  /** The endpoint secret the receiver under test checks with, whsec_... (any whsec_ + base64 value works in tests). */
  secret: string;
  /** webhook-id. Default: the payload's `id`, as the service sends it. */
  id?: string;
  /** webhook-timestamp. Default: now. */
  timestamp?: Date;
}

/** The HMAC key of an endpoint secret: the base64 after whsec_ (a secret without the prefix is read as bare base64). */
function secretBytes(secret: unknown): Uint8Array {
  const encoded = typeof secret === 'string' && secret.startsWith(ENDPOINT_SECRET_PREFIX) ? secret.slice(ENDPOINT_SECRET_PREFIX.length) : secret;
  const bytes = typeof encoded === 'string' ? fromBase64(encoded) : undefined;
  if (bytes === undefined || bytes.length === 0) {
    throw new TypeError(
      `secret must be the webhook endpoint's signing secret: ${ENDPOINT_SECRET_PREFIX} followed by base64, as POST /v1/webhook_endpoints ` +
        'or its rotate_secret answered it.',
    );
  }
  return bytes;
}

/** One header's value, whatever the form of `headers`; repeated values are joined with ", ", as Fetch does. */
function headerValue(headers: EventHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name)?.trim() || undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    const text = (typeof value === 'string' ? value : value.join(', ')).trim();
    if (text !== '') return text;
  }
  return undefined;
}

function requiredHeader(headers: EventHeaders, name: string): string {
  const value = headerValue(headers, name);
  if (value === undefined) throw new EventSignatureError('missing_header', `The ${name} header is missing: this is not an event delivery.`, name);
  return value;
}

/** The v1 signatures of a webhook-signature value, as bytes; entries of other versions are skipped. */
function v1Signatures(header: string): Uint8Array[] {
  const signatures: Uint8Array[] = [];
  for (const token of header.split(/\s+/)) {
    // "v1,<base64>"; a trailing comma is what joining repeated headers leaves.
    const entry = token.replace(/,+$/, '');
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    // Only the one way to write 32 bytes: standardwebhooks compares the text.
    const value = entry.slice(comma + 1);
    const mac = fromBase64(value);
    if (mac?.length === 32 && toBase64(mac) === value) signatures.push(mac);
  }
  return signatures;
}

/**
 * Checks a delivery's signature on its raw body and returns the event, typed: switch on
 * `event.type` and `event.data` narrows. Throws EventSignatureError when a header is missing or
 * malformed, when no signature matches (one of two matching is enough, during a rotation), or when
 * webhook-timestamp is further than the tolerance (300 s) from `now`. The comparison is Web Crypto's
 * verify, which takes the same time whatever the bytes.
 *
 * `rawBody` must be the bytes received (a string, or a Uint8Array such as Node's Buffer): a body
 * parsed and serialised again does not match. With Express, `express.raw({ type: 'application/json' })`.
 * `secret` is the endpoint's whsec_... secret.
 */
export async function constructEvent(
  rawBody: string | Uint8Array,
  headers: EventHeaders,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<MerchantEvent> {
  // Tested by tag rather than instanceof, so bytes made in another realm (a vm, a worker) pass.
  if (typeof rawBody !== 'string' && Object.prototype.toString.call(rawBody) !== '[object Uint8Array]') {
    throw new TypeError(
      'rawBody must be the body as received, a string or a Uint8Array (Buffer), not parsed JSON: with Express, ' +
        "read it with express.raw({ type: 'application/json' }).",
    );
  }
  if (typeof headers !== 'object' || headers === null) throw new TypeError("headers must be the request's headers (req.headers, or a Fetch Headers).");
  const key = secretBytes(secret);
  const toleranceSeconds = options.toleranceSeconds ?? EVENT_TOLERANCE_SECONDS;
  if (typeof toleranceSeconds !== 'number' || Number.isNaN(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError(`toleranceSeconds must be a number of seconds, 0 or more (got ${String(toleranceSeconds)}).`);
  }
  const now = options.now ?? new Date();
  if (Object.prototype.toString.call(now) !== '[object Date]' || Number.isNaN(now.getTime())) throw new TypeError('now must be a valid Date.');

  const id = requiredHeader(headers, EVENT_ID_HEADER);
  const timestamp = requiredHeader(headers, EVENT_TIMESTAMP_HEADER);
  const signature = requiredHeader(headers, EVENT_SIGNATURE_HEADER);
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new EventSignatureError('malformed', `The ${EVENT_TIMESTAMP_HEADER} header is not a time in unix seconds.`, EVENT_TIMESTAMP_HEADER);
  }
  const candidates = v1Signatures(signature);
  if (candidates.length === 0) {
    throw new EventSignatureError('malformed', `The ${EVENT_SIGNATURE_HEADER} header has no v1 signature.`, EVENT_SIGNATURE_HEADER);
  }

  // The signature first: a timestamp error then says the delivery is genuine (look at the clocks).
  const hmac = await hmacKey(key, 'verify');
  const signed = concatBytes(`${id}.${timestamp}.`, rawBody);
  let matched = false;
  for (const candidate of candidates) {
    if (await hmacVerify(hmac, candidate, signed)) {
      matched = true;
      break;
    }
  }
  if (!matched) {
    throw new EventSignatureError(
      'no_matching_signature',
      'No signature matches the body under this secret: check that the body is the raw bytes received and the secret is this endpoint\'s.',
    );
  }
  const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (age > toleranceSeconds) {
    throw new EventSignatureError('timestamp_too_old', `The event was signed ${age} s ago, more than the ${toleranceSeconds} s allowed.`, EVENT_TIMESTAMP_HEADER);
  }
  if (-age > toleranceSeconds) {
    throw new EventSignatureError('timestamp_too_new', `The event is signed ${-age} s in the future, more than the ${toleranceSeconds} s allowed.`, EVENT_TIMESTAMP_HEADER);
  }
  return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as MerchantEvent;
}

/**
 * The three headers of a delivery of `payload`, signed as the service signs: for tests of your
 * receiver, which then sends `payload` with them to it.
 */
export async function generateTestHeaders(options: TestHeadersOptions): Promise<Record<string, string>> {
  const { payload } = options;
  const timestamp = Math.floor((options.timestamp ?? new Date()).getTime() / 1000);
  const id = options.id ?? payloadId(payload);
  if (id === undefined) throw new TypeError('id is required when the payload is not an event with an id.');
  const mac = await hmacSign(await hmacKey(secretBytes(options.secret), 'sign'), concatBytes(`${id}.${timestamp}.`, payload));
  return { [EVENT_ID_HEADER]: id, [EVENT_TIMESTAMP_HEADER]: String(timestamp), [EVENT_SIGNATURE_HEADER]: `v1,${toBase64(mac)}` };
}

function payloadId(payload: string | Uint8Array): string | undefined {
  try {
    const parsed = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload)) as unknown;
    const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** `client.webhooks`: receiving events. No request is made; only the endpoint's secret is needed. */
export class Webhooks {
  /** See the function constructEvent. */
  constructEvent(rawBody: string | Uint8Array, headers: EventHeaders, secret: string, options?: ConstructEventOptions): Promise<MerchantEvent> {
    return constructEvent(rawBody, headers, secret, options);
  }

  /** See the function generateTestHeaders. */
  generateTestHeaders(options: TestHeadersOptions): Promise<Record<string, string>> {
    return generateTestHeaders(options);
  }
}
