// npm start: configuration, database (embedded unless DATABASE_URL), migrations, then the API.
import type { Server } from 'node:http';
import { pino } from 'pino';
import { createAddressVerifier } from './addresses/index.js';
import { createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase } from './db/client.js';
import { takeOverShutdownSignals } from './db/embedded.js';
import { resolveDatabase } from './db/resolve.js';
import { createDemoStoreIfEmpty, describeDemoStore } from './demo-store.js';
import { systemClock } from './domain/clock.js';
import { startTrackingJobs } from './jobs/tracking-jobs.js';
import { createTrackingProvider } from './tracking/index.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = pino({ level: config.logLevel, base: { service: 'order-protection' } });
  const database = await resolveDatabase(config, (message) => logger.debug({ component: 'postgres' }, message.trim()));
  const db = createDatabase(database.url, { poolSize: config.dbPoolSize });

  if (database.embedded) {
    const demo = await createDemoStoreIfEmpty(db);
    if (demo) process.stdout.write(`${describeDemoStore(demo)}\n`);
  }

  const provider = createTrackingProvider({ EASYPOST_API_KEY: config.easyPostApiKey, EASYPOST_BASE_URL: config.easyPostBaseUrl });
  const jobs = await startTrackingJobs({
    databaseUrl: database.url,
    db,
    provider,
    clock: systemClock,
    logger,
    pollIntervalSeconds: config.trackingPollIntervalSeconds,
    work: true,
  });

  const addressVerifier = createAddressVerifier(config.addressVerifier);
  const app = createApp({
    db,
    clock: systemClock,
    logger,
    tracking: { providerName: provider.name, scheduler: jobs.scheduler },
    addresses: { verifier: addressVerifier, timeoutMs: config.addressVerifier.timeoutMs },
    easyPostWebhookSecret: config.easyPostWebhookSecret,
  });
  const server: Server = app.listen(config.port, config.host, () => {
    logger.info(
      { host: config.host, port: config.port, database: database.embedded ? 'embedded' : 'DATABASE_URL', tracking: provider.name, address_verifier: addressVerifier.name },
      `listening on http://${config.host}:${config.port}`,
    );
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await jobs.stop();
    await db.$disconnect();
    await database.embedded?.stop();
    process.exit(0);
  };
  takeOverShutdownSignals();
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
