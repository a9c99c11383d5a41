// Rate limits (README, Rate limits), counted in PostgreSQL so every instance shares them. Each route
// declares its bucket in the contract (contract/policy.ts):
//   orders       120 / minute per store (orders and shipments)
//   addresses    120 / minute and 10,000 / day per store (cached answers count too)
//   quotes       600 / minute per store; a store declared `browser` also 30 / minute per shopper IP
//   other        120 / minute per store (claims and billing)
//   shopper      the claim page's API: 120 / minute per IP address (SPEC's browser scope)
//   shopper_lookup  finding an order by number and email: also 20 / 15 minutes per IP address, 10 /
//                hour per order number of a store and IP address, and 100 / hour per order number
//                from all addresses (counted whether or not the order exists): a guesser is slowed
//                without the shopper being locked out of their own order
//   none         platform and provider webhooks: refusing them would lose money
// Test keys are limited like live keys, in buckets of their own so test traffic never eats the
// live budget. Every figure is configurable (server/config.ts).
import type { RequestHandler, Response } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { createPool } from '../db/client.js';
import type { RateLimitBucket } from '../../contract/policy.js';
import { AppError } from '../domain/kernel/index.js';
import { routePolicy } from './route-policy.js';
import './request-types.js';

export interface RateLimitSettings {
  ordersPerMinute: number;
  addressesPerMinute: number;
  addressesPerDay: number;
  quotesPerMinute: number;
  quotesPerMinutePerIp: number;
  otherPerMinute: number;
  shopperPerMinutePerIp: number;
  shopperLookupsPerIp: number;
  /** Lookups of one order number from one address. */
  shopperLookupsPerOrderPerIp: number;
  /** Lookups of one order number from all addresses: the ceiling, well above the per-address one. */
  shopperLookupsPerOrder: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  ordersPerMinute: 120,
  addressesPerMinute: 120,
  addressesPerDay: 10_000,
  quotesPerMinute: 600,
  quotesPerMinutePerIp: 30,
  otherPerMinute: 120,
  shopperPerMinutePerIp: 120,
  shopperLookupsPerIp: 20,
  shopperLookupsPerOrderPerIp: 10,
  shopperLookupsPerOrder: 100,
};

type LimitName = 'orders' | 'addresses_minute' | 'addresses_day' | 'quotes' | 'quotes_ip' | 'other' | 'shopper_ip' | 'lookup_ip' | 'lookup_order_ip' | 'lookup_order';

interface Limit {
  name: LimitName;
  points: number;
  durationSeconds: number;
  /** What the limit is counted against, in words, for the 429 message. */
  per: string;
  /** Said to a shopper on the claim page rather than to a developer. */
  forShoppers?: true;
}

export interface RateLimiting {
  middleware: RequestHandler;
  /** Counts a lookup of an order number of a store from an address; rejects with 429 past a limit. */
  countOrderLookup(storeId: string, orderNumber: string, ip: string, res: Response): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitObserver {
  rejected(limit: string): void;
}

/** Which limits a route's declared bucket counts against. */
function limitsFor(bucket: RateLimitBucket, quoteOrigin: 'backend' | 'browser', limits: Record<LimitName, Limit>): Limit[] {
  switch (bucket) {
    case 'orders':
      return [limits.orders];
    case 'addresses':
      return [limits.addresses_minute, limits.addresses_day];
    case 'quotes':
      return quoteOrigin === 'browser' ? [limits.quotes_ip, limits.quotes] : [limits.quotes];
    case 'other':
      return [limits.other];
    case 'shopper':
      return [limits.shopper_ip];
    case 'shopper_lookup':
      return [limits.lookup_ip, limits.shopper_ip];
    case 'none':
      return [];
  }
}

/** The limits a request without a key counts against, per IP: the claim page's. */
const isPerIp = (bucket: RateLimitBucket) => bucket === 'shopper' || bucket === 'shopper_lookup';

function setHeaders(res: Response, limit: Limit, result: RateLimiterRes): void {
  res.setHeader('RateLimit-Limit', String(limit.points));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
  res.setHeader('RateLimit-Reset', String(Math.ceil(result.msBeforeNext / 1000)));
}

export function createRateLimiting(databaseUrl: string, settings: RateLimitSettings, observer?: RateLimitObserver): RateLimiting {
  const pool = createPool(databaseUrl, { max: 4, applicationName: 'order-protection-rate-limits' });
  const define = (name: LimitName, points: number, durationSeconds: number, per: string): Limit => ({
    name,
    points,
    durationSeconds,
    per,
    ...(name === 'shopper_ip' || name === 'lookup_ip' || name === 'lookup_order_ip' || name === 'lookup_order' ? { forShoppers: true as const } : {}),
  });
  const limits: Record<LimitName, Limit> = {
    orders: define('orders', settings.ordersPerMinute, 60, 'per minute per store for orders and shipments'),
    addresses_minute: define('addresses_minute', settings.addressesPerMinute, 60, 'per minute per store for address verification'),
    addresses_day: define('addresses_day', settings.addressesPerDay, 86_400, 'per day per store for address verification'),
    quotes: define('quotes', settings.quotesPerMinute, 60, 'per minute per store for quotes'),
    quotes_ip: define('quotes_ip', settings.quotesPerMinutePerIp, 60, 'per minute per shopper IP for quotes'),
    other: define('other', settings.otherPerMinute, 60, 'per minute per store'),
    shopper_ip: define('shopper_ip', settings.shopperPerMinutePerIp, 60, 'per minute per IP address'),
    lookup_ip: define('lookup_ip', settings.shopperLookupsPerIp, 900, 'per 15 minutes per IP address for order lookups'),
    lookup_order_ip: define('lookup_order_ip', settings.shopperLookupsPerOrderPerIp, 3600, 'per hour per order number and IP address for order lookups'),
    lookup_order: define('lookup_order', settings.shopperLookupsPerOrder, 3600, 'per hour per order number for order lookups'),
  };
  const limiters = new Map(
    Object.values(limits).map((limit) => [
      limit.name,
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limit_counters',
        tableCreated: true,
        keyPrefix: limit.name,
        points: limit.points,
        duration: limit.durationSeconds,
      }),
    ]),
  );

  /** Counts against every limit given; the headers describe the tightest, and a refusal is a 429. */
  const consumeAll = async (applicable: readonly Limit[], subject: (limit: Limit) => string, res: Response): Promise<void> => {
    const outcomes = await Promise.all(
      applicable.map((limit) =>
        (limiters.get(limit.name) as RateLimiterPostgres)
          .consume(subject(limit))
          .then((result) => ({ limit, result, allowed: true }))
          .catch((rejection: unknown) => {
            if (rejection instanceof RateLimiterRes) return { limit, result: rejection, allowed: false };
            throw rejection;
          }),
      ),
    );
    // The headers describe the tightest limit: the one with the fewest requests left.
    const tightest = outcomes.reduce((a, b) => (b.result.remainingPoints < a.result.remainingPoints ? b : a));
    const refused = outcomes.find((outcome) => !outcome.allowed);
    if (!refused) {
      setHeaders(res, tightest.limit, tightest.result);
      return;
    }
    setHeaders(res, refused.limit, refused.result);
    const retryAfter = Math.max(1, Math.ceil(refused.result.msBeforeNext / 1000));
    res.setHeader('Retry-After', String(retryAfter));
    observer?.rejected(refused.limit.name);
    throw new AppError(
      'rate_limited',
      refused.limit.forShoppers
        ? `Too many attempts. Please try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`
        : `Rate limit of ${refused.limit.points} requests ${refused.limit.per} exceeded; retry after ${retryAfter} s with exponential backoff.`,
    );
  };

  const middleware: RequestHandler = (req, res, next) => {
    const bucket = routePolicy(req)?.rateLimit;
    if (bucket === undefined) return next();
    if (isPerIp(bucket)) {
      const ip = req.ip ?? 'unknown';
      consumeAll(limitsFor(bucket, 'backend', limits), () => ip, res).then(() => next(), next);
      return;
    }
    const scope = req.scope;
    if (!scope) return next();
    const applicable = limitsFor(bucket, scope.store.quoteOrigin, limits);
    if (applicable.length === 0) return next();
    const subject = (limit: Limit) =>
      limit.name === 'quotes_ip' ? `${scope.store.id}:${scope.mode}:${req.ip ?? 'unknown'}` : `${scope.store.id}:${scope.mode}`;
    consumeAll(applicable, subject, res).then(() => next(), next);
  };

  const countOrderLookup = (storeId: string, orderNumber: string, ip: string, res: Response) => {
    const order = `${storeId}:${orderNumber.trim().toLowerCase()}`;
    return consumeAll([limits.lookup_order_ip, limits.lookup_order], (limit) => (limit.name === 'lookup_order_ip' ? `${order}:${ip}` : order), res);
  };

  return { middleware, countOrderLookup, close: () => pool.end() };
}
