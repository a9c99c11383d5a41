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
  };
}
