// Configuration from the environment, validated once at start-up: a bad value stops the process
// with one clear line instead of failing later.
import { z } from 'zod';
import type { RateLimitSettings } from './http/rate-limit.js';
import type { SlowClientLimits } from './http/graceful-server.js';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, type EventDeliverySettings } from './domain/events/index.js';

const Flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const PerPeriod = z.coerce.number().int().min(1).max(10_000_000);

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  TRACKING_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(100_000).optional(),
  EMBEDDED_DATABASE_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  EASYPOST_API_KEY: z.string().optional(),
  EASYPOST_BASE_URL: z.string().url('must be a URL').optional(),
  EASYPOST_WEBHOOK_SECRET: z.string().optional(),
  RATE_LIMITS_ENABLED: Flag.default('true'),
  RATE_LIMIT_ORDERS_PER_MINUTE: PerPeriod.default(120),
  RATE_LIMIT_ADDRESSES_PER_MINUTE: PerPeriod.default(120),
  RATE_LIMIT_ADDRESSES_PER_DAY: PerPeriod.default(10_000),
  RATE_LIMIT_QUOTES_PER_MINUTE: PerPeriod.default(600),
  RATE_LIMIT_QUOTES_PER_MINUTE_PER_IP: PerPeriod.default(30),
  RATE_LIMIT_OTHER_PER_MINUTE: PerPeriod.default(120),
  RATE_LIMIT_SHOPPER_PER_MINUTE_PER_IP: PerPeriod.default(120),
  RATE_LIMIT_SHOPPER_LOOKUPS_PER_IP: PerPeriod.default(20),
  RATE_LIMIT_SHOPPER_LOOKUPS_PER_ORDER_PER_IP: PerPeriod.default(10),
  RATE_LIMIT_SHOPPER_LOOKUPS_PER_ORDER: PerPeriod.default(100),
  TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
  METRICS_ENABLED: Flag.default('false'),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  ADDRESS_VERIFIER: z.enum(['auto', 'offline', 'usps', 'smarty']).default('auto'),
  ADDRESS_VERIFIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  USPS_CLIENT_ID: z.string().optional(),
  USPS_CLIENT_SECRET: z.string().optional(),
  USPS_BASE_URL: z.string().url('must be a URL').optional(),
  SMARTY_AUTH_ID: z.string().optional(),
  SMARTY_AUTH_TOKEN: z.string().optional(),
  SMARTY_BASE_URL: z.string().url('must be a URL').optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: Flag.default('false'),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .regex(/^[0-9]+(,[0-9]+)*$/, 'must be a comma-separated list of whole seconds, e.g. 60,300,1800')
    .transform((value) => value.split(',').map(Number))
    .refine((delays) => delays.length <= 50 && delays.every((delay) => delay >= 1 && delay <= 7 * 86_400), 'must hold at most 50 delays of 1 s to 7 days')
    .optional(),
  WEBHOOK_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  PUBLIC_URL: z
    .string()
    .url('must be a URL such as https://protect.example.com')
    .regex(/^https?:\/\//, 'must be an http or https URL')
    .optional(),
});

export interface Config {
  /** Where people reach the service (the console's setup links): PUBLIC_URL, else http://HOST:PORT. */
  publicUrl: string;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  dbPoolSize: number;
  trackingPollIntervalSeconds: number;
  /** How long a shutdown waits for in-flight requests before cutting them. */
  shutdownTimeoutMs: number;
  /** Slow clients are cut off (README, Reliability). */
  http: SlowClientLimits;
  /** The embedded PostgreSQL's port; a free one is chosen when unset. */
  embeddedDatabasePort: number | undefined;
  easyPostApiKey: string | undefined;
  easyPostBaseUrl: string | undefined;
  easyPostWebhookSecret: string | undefined;
  /** Null when RATE_LIMITS_ENABLED is false. */
  rateLimits: RateLimitSettings | null;
  trustedProxies: number;
  /** Serve /metrics on the API port. */
  metricsEnabled: boolean;
  /** Serve /metrics on this port instead (or as well). */
  metricsPort: number | undefined;
  /** Outbound events (README, "Events and outbound webhooks"). */
  events: EventDeliverySettings;
  addressVerifier: {
    choice: 'auto' | 'offline' | 'usps' | 'smarty';
    timeoutMs: number;
    usps: { clientId: string; clientSecret: string; baseUrl: string | undefined } | null;
    smarty: { authId: string; authToken: string; baseUrl: string | undefined } | null;
  };
}

export class ConfigError extends Error {}

/** Open connections one address may hold when the service faces clients directly. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 128;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  if (c.HTTP_HEADERS_TIMEOUT_MS > c.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS');
  }
  // A verifier chosen by name needs its credentials: say so at start-up, not at the first lookup.
  if (c.ADDRESS_VERIFIER === 'usps' && !(c.USPS_CLIENT_ID && c.USPS_CLIENT_SECRET)) {
    throw new ConfigError('Invalid configuration: ADDRESS_VERIFIER usps needs USPS_CLIENT_ID and USPS_CLIENT_SECRET');
  }
  if (c.ADDRESS_VERIFIER === 'smarty' && !(c.SMARTY_AUTH_ID && c.SMARTY_AUTH_TOKEN)) {
    throw new ConfigError('Invalid configuration: ADDRESS_VERIFIER smarty needs SMARTY_AUTH_ID and SMARTY_AUTH_TOKEN');
  }
  return {
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' || c.HOST === '::' ? 'localhost' : c.HOST}:${c.PORT}`).replace(/\/+$/, ''),
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    logLevel: c.LOG_LEVEL,
    dbPoolSize: c.DB_POOL_SIZE,
    trackingPollIntervalSeconds: c.TRACKING_POLL_INTERVAL_SECONDS,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    http: {
      headersTimeoutMs: c.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: c.HTTP_REQUEST_TIMEOUT_MS,
      // Behind a proxy every connection comes from the proxy's address: the proxy caps them instead.
      maxConnectionsPerAddress: c.MAX_CONNECTIONS_PER_ADDRESS ?? (c.TRUSTED_PROXIES === 0 ? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS : 0),
    },
    embeddedDatabasePort: c.EMBEDDED_DATABASE_PORT,
    easyPostApiKey: c.EASYPOST_API_KEY,
    easyPostBaseUrl: c.EASYPOST_BASE_URL,
    easyPostWebhookSecret: c.EASYPOST_WEBHOOK_SECRET,
    rateLimits: c.RATE_LIMITS_ENABLED
      ? {
          ordersPerMinute: c.RATE_LIMIT_ORDERS_PER_MINUTE,
          addressesPerMinute: c.RATE_LIMIT_ADDRESSES_PER_MINUTE,
          addressesPerDay: c.RATE_LIMIT_ADDRESSES_PER_DAY,
          quotesPerMinute: c.RATE_LIMIT_QUOTES_PER_MINUTE,
          quotesPerMinutePerIp: c.RATE_LIMIT_QUOTES_PER_MINUTE_PER_IP,
          otherPerMinute: c.RATE_LIMIT_OTHER_PER_MINUTE,
          shopperPerMinutePerIp: c.RATE_LIMIT_SHOPPER_PER_MINUTE_PER_IP,
          shopperLookupsPerIp: c.RATE_LIMIT_SHOPPER_LOOKUPS_PER_IP,
          shopperLookupsPerOrderPerIp: c.RATE_LIMIT_SHOPPER_LOOKUPS_PER_ORDER_PER_IP,
          shopperLookupsPerOrder: c.RATE_LIMIT_SHOPPER_LOOKUPS_PER_ORDER,
        }
      : null,
    trustedProxies: c.TRUSTED_PROXIES,
    metricsEnabled: c.METRICS_ENABLED,
    metricsPort: c.METRICS_PORT,
    events: {
      allowPrivateNetworks: c.WEBHOOK_ALLOW_PRIVATE_URLS,
      retryScheduleSeconds: c.WEBHOOK_RETRY_SCHEDULE_SECONDS ?? DEFAULT_RETRY_SCHEDULE_SECONDS,
      dispatchIntervalMs: c.WEBHOOK_DISPATCH_INTERVAL_MS,
    },
    addressVerifier: {
      choice: c.ADDRESS_VERIFIER,
      timeoutMs: c.ADDRESS_VERIFIER_TIMEOUT_MS,
      usps:
        c.USPS_CLIENT_ID && c.USPS_CLIENT_SECRET
          ? { clientId: c.USPS_CLIENT_ID, clientSecret: c.USPS_CLIENT_SECRET, baseUrl: c.USPS_BASE_URL }
          : null,
      smarty:
        c.SMARTY_AUTH_ID && c.SMARTY_AUTH_TOKEN
          ? { authId: c.SMARTY_AUTH_ID, authToken: c.SMARTY_AUTH_TOKEN, baseUrl: c.SMARTY_BASE_URL }
          : null,
    },
  };
}
