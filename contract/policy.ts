// Route policy: how the service treats a route, declared next to it in the contract's metadata.
// The server's middleware reads it (authentication, rate limits, test keys, body rules); nothing
// infers a policy from a URL prefix. One declaration serves the server, the OpenAPI document
// (security schemes) and the SDK.

/**
 * Who may call: an API key, a platform's signature, EasyPost's signature, a console session, a
 * shopper's session (one order, opened by its number and email), anyone.
 */
export type RouteAuth = 'api_key' | 'webhook_signature' | 'easypost_signature' | 'woocommerce_signature' | 'session' | 'shopper_session' | 'none';

/**
 * Which rate limit a request counts against (README, Rate limits). Signed webhooks are not limited:
 * refusing them would lose money.
 */
export type RateLimitBucket = 'orders' | 'addresses' | 'quotes' | 'other' | 'shopper' | 'shopper_lookup' | 'none';

/**
 * What a test key gets. `simulate`: the same validation as live, and a realistic answer from the
 * sandbox that stores nothing. `not_found`: 404, as test keys never see live data (reads, updates,
 * cancels, statements).
 */
export type TestKeyPolicy = 'simulate' | 'not_found';

/**
 * How a body is read. Every body is JSON, UTF-8, at most 1 MiB, nested at most 32 levels, with no
 * duplicate key and no text the database cannot store (README, Reliability). `json_integer_cents`
 * adds the rule of webhook messages: every number under a key ending in _cents is written as an
 * integer, judged on the raw text (120.00 is refused: a sender writing major units would book a
 * hundredth of the amount). `json_or_form_ping` also takes WooCommerce's form-encoded ping
 * (webhook_id=N), which it sends without a signature and which changes nothing. `image` is a
 * shopper's photo: the bytes of one image, at most 10 MiB, judged by the route itself.
 */
export type BodyRule = 'json' | 'json_integer_cents' | 'json_or_form_ping' | 'image';

export interface RoutePolicy {
  auth: RouteAuth;
  rateLimit: RateLimitBucket;
  body: BodyRule;
  /** Only for API-key routes. */
  testKeys?: TestKeyPolicy;
  /** Only for console routes: the least role that may call it (owner > admin > viewer). */
  role?: ConsoleRole;
  /**
   * The answer is a shopper's personal data (the data export). It is never kept for an
   * Idempotency-Key, so the route takes none: it only reads, and repeating it is safe.
   */
  answerIsPersonalData?: true;
}

/** An API-key route of the merchant API. */
export const keyRoute = (rateLimit: Exclude<RateLimitBucket, 'none' | 'shopper' | 'shopper_lookup'>, testKeys: TestKeyPolicy): RoutePolicy => ({
  auth: 'api_key',
  rateLimit,
  body: 'json',
  testKeys,
});

/** A console user's role: owner (everything), admin (everything but users), viewer (read only). */
export type ConsoleRole = 'owner' | 'admin' | 'viewer';
export const CONSOLE_ROLES: readonly ConsoleRole[] = ['viewer', 'admin', 'owner'];

/**
 * A route of the merchant console's API: a session cookie, never a key. Every method but GET also
 * needs the session's CSRF token in X-CSRF-Token. `none` is for the two routes that open a
 * session (login and password setup).
 */
export const sessionRoute = (role: ConsoleRole | 'none'): RoutePolicy =>
  role === 'none' ? { auth: 'none', rateLimit: 'none', body: 'json' } : { auth: 'session', rateLimit: 'none', body: 'json', role };

/**
 * The shoppers' claim page API (contract/shopper): no key. Every request counts against the limit
 * per IP address (SPEC's browser scope); a lookup also against the lookup limits, per IP and per
 * order number. A session route needs the shopper-session cookie, and every change its CSRF token.
 */
export const shopperRoute: RoutePolicy = { auth: 'none', rateLimit: 'shopper', body: 'json' };
export const shopperLookupRoute: RoutePolicy = { auth: 'none', rateLimit: 'shopper_lookup', body: 'json' };
export const shopperSessionRoute: RoutePolicy = { auth: 'shopper_session', rateLimit: 'shopper', body: 'json' };

/** The inbound platform webhook: signed with the platform's shared secret, no API key. */
export const platformSignedRoute: RoutePolicy = { auth: 'webhook_signature', rateLimit: 'none', body: 'json_integer_cents' };

/** The EasyPost tracking webhook: HMAC of the raw body with the EasyPost webhook secret. */
export const easyPostSignedRoute: RoutePolicy = { auth: 'easypost_signature', rateLimit: 'none', body: 'json' };

/** The policy a route declares; every route of the contract declares one (a test checks it). */
export function policyOf(metadata: unknown): RoutePolicy | undefined {
  const policy = metadata as Partial<RoutePolicy> | undefined;
  return policy?.auth === undefined || policy.rateLimit === undefined || policy.body === undefined ? undefined : (policy as RoutePolicy);
}

/** The request header that makes a write safe to retry (README, Idempotency). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The answer header marking a replay of a kept answer. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** A key: 1 to 255 visible ASCII characters, no spaces (a UUID is a good one). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Whether a route takes an Idempotency-Key header (README, Idempotency): every POST, PUT and PATCH of
 * the merchant API, whose answer a retry could otherwise not tell from a second request, but the
 * one whose answer is personal data (the data export), which must not be kept.
 */
export function acceptsIdempotencyKey(route: { method: string; metadata?: unknown }): boolean {
  const policy = policyOf(route.metadata);
  return policy?.auth === 'api_key' && policy.answerIsPersonalData !== true && (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH');
}
