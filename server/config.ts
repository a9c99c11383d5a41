// Configuration from the environment, validated once at start-up: a bad value stops the process
// with one clear line instead of failing later.
import { z } from 'zod';

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
  EASYPOST_API_KEY: z.string().optional(),
  EASYPOST_BASE_URL: z.string().url('must be a URL').optional(),
  EASYPOST_WEBHOOK_SECRET: z.string().optional(),
  ADDRESS_VERIFIER: z.enum(['auto', 'offline', 'usps', 'smarty']).default('auto'),
  ADDRESS_VERIFIER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  USPS_CLIENT_ID: z.string().optional(),
  USPS_CLIENT_SECRET: z.string().optional(),
  USPS_BASE_URL: z.string().url('must be a URL').optional(),
  SMARTY_AUTH_ID: z.string().optional(),
  SMARTY_AUTH_TOKEN: z.string().optional(),
  SMARTY_BASE_URL: z.string().url('must be a URL').optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  dbPoolSize: number;
  trackingPollIntervalSeconds: number;
  easyPostApiKey: string | undefined;
  easyPostBaseUrl: string | undefined;
  easyPostWebhookSecret: string | undefined;
  addressVerifier: {
    choice: 'auto' | 'offline' | 'usps' | 'smarty';
    timeoutMs: number;
    usps: { clientId: string; clientSecret: string; baseUrl: string | undefined } | null;
    smarty: { authId: string; authToken: string; baseUrl: string | undefined } | null;
  };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const c = parsed.data;
  // A verifier chosen by name needs its credentials: say so at start-up, not at the first lookup.
  if (c.ADDRESS_VERIFIER === 'usps' && !(c.USPS_CLIENT_ID && c.USPS_CLIENT_SECRET)) {
    throw new ConfigError('Invalid configuration: ADDRESS_VERIFIER usps needs USPS_CLIENT_ID and USPS_CLIENT_SECRET');
  }
  if (c.ADDRESS_VERIFIER === 'smarty' && !(c.SMARTY_AUTH_ID && c.SMARTY_AUTH_TOKEN)) {
    throw new ConfigError('Invalid configuration: ADDRESS_VERIFIER smarty needs SMARTY_AUTH_ID and SMARTY_AUTH_TOKEN');
  }
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.DATA_DIR,
    logLevel: c.LOG_LEVEL,
    dbPoolSize: c.DB_POOL_SIZE,
    trackingPollIntervalSeconds: c.TRACKING_POLL_INTERVAL_SECONDS,
    easyPostApiKey: c.EASYPOST_API_KEY,
    easyPostBaseUrl: c.EASYPOST_BASE_URL,
    easyPostWebhookSecret: c.EASYPOST_WEBHOOK_SECRET,
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
