// npm start: configuration, database (embedded unless DATABASE_URL), migrations, then the API.
import { createServer } from 'node:http';
import { pino, type Logger } from 'pino';
import { createAddressVerifier } from './addresses/index.js';
import { composeService } from './compose.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { takeOverShutdownSignals } from './db/embedded.js';
import { resolveDatabase } from './db/resolve.js';
import { createDemoStoreIfEmpty, describeDemoStore } from './demo-store.js';
import { systemClock } from './domain/kernel/index.js';
import { createGracefulServer } from './http/graceful-server.js';
import { createLogger } from './logger.js';
import { createTrackingProvider } from './tracking/index.js';

/**
 * Resolves once the log lines written so far have reached stdout. pino writes asynchronously;
 * process.exit() during a write would lose lines or put them out of order.
 */
async function logsWritten(logger: Logger): Promise<void> {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { _writing?: boolean; once?: (event: 'drain', listener: () => void) => unknown }
    | undefined;
  if (!stream?._writing || typeof stream.once !== 'function') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 1000);
    stream.once?.('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

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
  const logger = createLogger(config.logLevel);
  const database = await resolveDatabase(config, (message) => logger.debug({ component: 'postgres' }, message.trim()));
  const provider = createTrackingProvider({ EASYPOST_API_KEY: config.easyPostApiKey, EASYPOST_BASE_URL: config.easyPostBaseUrl });
  const addressVerifier = createAddressVerifier(config.addressVerifier);
  const service = await composeService({
    databaseUrl: database.url,
    poolSize: config.dbPoolSize,
    clock: systemClock,
    logger,
    tracking: { provider, pollIntervalSeconds: config.trackingPollIntervalSeconds, workers: true },
    addresses: { verifier: addressVerifier, timeoutMs: config.addressVerifier.timeoutMs },
    events: { ...config.events, workers: true },
    rateLimits: config.rateLimits,
    metrics: { processMetrics: true, exposeOnApiPort: config.metricsEnabled },
    trustedProxies: config.trustedProxies,
    easyPostWebhookSecret: config.easyPostWebhookSecret,
    onKeyNotificationsLost: (reconnectInMs) =>
      logger.warn({ component: 'api_key_cache', reconnect_in_ms: reconnectInMs }, 'change notifications lost; keys are read from the database until they are back'),
  });
  const { app, metrics } = service;

  if (database.embedded) {
    const demo = await createDemoStoreIfEmpty(service.db);
    if (demo) process.stdout.write(`${describeDemoStore(demo, config.publicUrl)}\n`);
  }
  // Metrics on a port of their own keep them off the public listener.
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : createServer((req, res) => {
          if (req.url !== '/metrics') {
            res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
            return;
          }
          metrics.registry
            .metrics()
            .then((text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text))
            .catch(() => res.writeHead(500).end());
        }).listen(config.metricsPort, config.host);
  const http = createGracefulServer(app, config.http);
  http.server.listen(config.port, config.host, () => {
    logger.info(
      { pid: process.pid, host: config.host, port: config.port, database: database.embedded ? 'embedded' : 'DATABASE_URL', tracking: provider.name, address_verifier: addressVerifier.name },
      `listening on http://${config.host}:${config.port}`,
    );
  });

  // Graceful shutdown on SIGTERM or SIGINT: stop accepting and drain the HTTP server (in-flight
  // requests finish, for SHUTDOWN_TIMEOUT_MS at most), then stop the job workers, the rate-limit
  // store, the database pool and the embedded PostgreSQL (if this process started it), in that
  // order. Exit 0 when everything stopped cleanly, 1 when requests were cut or a step failed.
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'already shutting down; signal ignored');
      return;
    }
    stopping = true;
    // Each step below is bounded (drain deadline, pg-boss stop timeout); this is the backstop.
    setTimeout(() => {
      logger.error({ signal }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 30_000).unref();
    logger.info({ signal, in_flight: http.inFlight(), timeout_ms: config.shutdownTimeoutMs }, 'shutting down');

    let clean = true;
    const { cut } = await http.drain(config.shutdownTimeoutMs);
    if (cut > 0) {
      clean = false;
      logger.error({ cut, timeout_ms: config.shutdownTimeoutMs }, `drain timed out; ${cut} in-flight request(s) cut`);
    } else {
      logger.info('http server drained');
    }
    metricsServer?.close();

    const step = async (name: string, action: () => Promise<unknown> | undefined) => {
      try {
        await action();
      } catch (error) {
        clean = false;
        // Name and code only: driver messages can quote connection details.
        logger.error(
          { step: name, error_name: error instanceof Error ? error.name : typeof error, error_code: (error as { code?: unknown } | null)?.code },
          'shutdown step failed',
        );
      }
    };
    for (const { name, run } of service.stopSteps()) await step(name, run);
    await step('embedded_postgres', () => database.embedded?.stop());

    const code = clean ? 0 : 1;
    logger.info({ signal, exit_code: code }, 'stopped');
    await logsWritten(logger);
    process.exit(code);
  };
  takeOverShutdownSignals();
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
