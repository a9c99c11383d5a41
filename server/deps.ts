// What the app needs from the outside world; main.ts and the tests each provide one.
import type { Logger } from 'pino';
import type { Database } from './db/client.js';
import type { ApiKeyCache, RequestLog, ShopperSessions } from './domain/access/index.js';
import type { Clock } from './domain/kernel/index.js';
import type { VerificationSettings } from './domain/addresses/index.js';
import type { ShipmentTracking } from './domain/shipments/index.js';
import type { Metrics } from './http/metrics.js';
import type { RateLimiting } from './http/rate-limit.js';

import type { PhotoStore } from './domain/claims/index.js';


export interface AppDeps {
  db: Database;
  /** The callers of recently used keys, emptied on every key or store change (any instance's). */
  apiKeys: ApiKeyCache;
  clock: Clock;
  logger: Logger;
  tracking: ShipmentTracking;
  /** The address verifier in use and its deadline. */
  addresses: VerificationSettings;
  metrics: Metrics;
  /** Serve /metrics on the API port (otherwise only on a separate port, or not at all). */
  exposeMetrics?: boolean;
  /** Shared rate limits; absent means unlimited (self-hosters may turn them off). */
  rateLimiting?: RateLimiting;
  /** Proxies in front of the service whose X-Forwarded-For is trusted. */
  trustedProxies?: number;
  /** Outbound events: whether endpoints may use http and private addresses (development and tests only). */
  events: { allowPrivateNetworks: boolean };
  /** The requests of the stores' keys, for the console's developers page. */
  requestLog: RequestLog;
  /** Where claim photos' bytes are kept (PostgreSQL by default). */
  photos: PhotoStore;
  /** The claim page's signed sessions. */
  shopperSessions: ShopperSessions;
  /**
   * The least time an order lookup takes to answer, found or not, so its timing tells nothing
   * about whether an order number exists.
   */
  shopperLookupFloorMs: number;
  /** EasyPost's webhook secret; without it the EasyPost webhook endpoint answers 404. */
  easyPostWebhookSecret?: string;
}
