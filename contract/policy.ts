// Route policy: how the service treats a route, declared next to it in the contract's metadata.
// The server's middleware reads it (authentication, rate limits, test keys, body rules); nothing
// infers a policy from a URL prefix. One declaration serves the server, the OpenAPI document
// (security schemes) and the SDK.

/** Who may call: an API key, a platform's signature, EasyPost's signature, a console session, anyone. */
export type RouteAuth = 'api_key' | 'webhook_signature' | 'easypost_signature' | 'session' | 'none';

/**
 * Which rate limit a request counts against (README, Rate limits). Signed webhooks are not limited:
 * refusing them would lose money.
 */
export type RateLimitBucket = 'orders' | 'addresses' | 'quotes' | 'other' | 'none';

/**
 * What a test key gets. `simulate`: the same validation as live, and a realistic answer from the
 * sandbox that stores nothing. `not_found`: 404, as test keys never see live data (reads, updates,
 * cancels, statements).
 */
export type TestKeyPolicy = 'simulate' | 'not_found';

export interface RoutePolicy {
  auth: RouteAuth;
  rateLimit: RateLimitBucket;
  /** Only for API-key routes. */
  testKeys?: TestKeyPolicy;
}

/** An API-key route of the merchant API. */
export const keyRoute = (rateLimit: Exclude<RateLimitBucket, 'none'>, testKeys: TestKeyPolicy): RoutePolicy => ({
  auth: 'api_key',
  rateLimit,
  testKeys,
});

/** The inbound platform webhook: signed with the platform's shared secret, no API key. */
export const platformSignedRoute: RoutePolicy = { auth: 'webhook_signature', rateLimit: 'none' };

/** The EasyPost tracking webhook: HMAC of the raw body with the EasyPost webhook secret. */
export const easyPostSignedRoute: RoutePolicy = { auth: 'easypost_signature', rateLimit: 'none' };

/** The policy a route declares; every route of the contract declares one (a test checks it). */
export function policyOf(metadata: unknown): RoutePolicy | undefined {
  const policy = metadata as Partial<RoutePolicy> | undefined;
  return policy?.auth === undefined || policy.rateLimit === undefined ? undefined : (policy as RoutePolicy);
}
