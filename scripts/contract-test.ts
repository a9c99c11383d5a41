// npm run contract-test: the OpenAPI document tested against a running server by an outside tool.
// Portman turns openapi.json into requests built from the document's examples (positive data),
// fuzzed variations of them (negative data) and the chain its links describe (the stateful phase),
// each checked against the document; Newman sends them to a fresh server on its own embedded
// PostgreSQL. The figures and every failure are written to test-artifacts/contract-test.json.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import newman, { type NewmanRunSummary } from 'newman';
import type { OpenAPIV3 } from 'openapi-types';
import type { CollectionDefinition } from 'postman-collection';
import { createOfflineVerifier } from '../server/addresses/offline.js';
import { composeService } from '../server/compose.js';
import { ensureDatabase, startEmbeddedCluster } from '../server/db/embedded.js';
import { migrate } from '../server/db/migrate.js';
import type { Actor } from '../server/domain/actor.js';
import { issueApiKey } from '../server/domain/api-keys.js';
import { systemClock } from '../server/domain/clock.js';
import { connectStore, createPlatform } from '../server/domain/platforms.js';
import { createStore } from '../server/domain/stores.js';
import { createGracefulServer } from '../server/http/graceful-server.js';
import { createLogger } from '../server/logger.js';
import { createSandboxProvider } from '../server/tracking/sandbox.js';
import { contractTestCollection, type SigningSecrets } from './contract-test/collection.js';
import { portmanConfig } from './contract-test/portman-config.js';

const root = resolve(import.meta.dirname, '..');
const OPERATOR: Actor = { kind: 'operator', name: 'contract-test' };

async function startServer(dataDir: string, easyPostWebhookSecret: string) {
  const cluster = await startEmbeddedCluster({ dataDir });
  await ensureDatabase(cluster.urlFor('postgres'), 'contract_test');
  const databaseUrl = cluster.urlFor('contract_test');
  await migrate(databaseUrl);
  const service = await composeService({
    databaseUrl,
    poolSize: 10,
    clock: systemClock,
    logger: createLogger('silent'),
    tracking: { provider: createSandboxProvider(), pollIntervalSeconds: 3600, workers: false },
    addresses: { verifier: createOfflineVerifier(), timeoutMs: 3000 },
    // The run sends a few hundred requests in seconds; limits are tested elsewhere.
    rateLimits: null,
    metrics: { processMetrics: false, exposeOnApiPort: false },
    trustedProxies: 0,
    easyPostWebhookSecret,
  });
  const server = createGracefulServer(service.app).server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db: service.db,
    stop: async () => {
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      for (const step of service.stopSteps()) await step.run();
      await cluster.stop();
    },
  };
}

/** The store the document's examples name ("acme-shop", which sells the SHIPPING-PROTECTION SKU), its key, and the platform that signs its messages. */
async function seed(db: Parameters<typeof createStore>[0], platformSecret: string) {
  const store = await createStore(db, OPERATOR, {
    slug: 'acme-shop',
    name: 'Acme Shop',
    pricing: { rateBps: 150, minPremiumCents: 98, maxCoveredCents: null },
    protectionSkus: ['SHIPPING-PROTECTION'],
    quoteOrigin: 'backend',
    clientProfile: 'standard',
  });
  const live = await issueApiKey(db, OPERATOR, { storeSlug: store.slug, mode: 'live', scope: 'store' });
  await createPlatform(db, OPERATOR, 'shopify', platformSecret);
  await connectStore(db, OPERATOR, store.slug, 'shopify');
  return { storeId: store.id, liveKey: live.key };
}

async function main(): Promise<number> {
  const workDir = mkdtempSync(join(tmpdir(), 'contract-test-'));
  // PostgreSQL runs as its own user and must reach its data directory inside.
  chmodSync(workDir, 0o755);
  const secrets: SigningSecrets = { platform: 'whsec_contract_test_platform', easyPost: 'easypost_contract_test_secret', wooCommerce: '' };
  const server = await startServer(join(workDir, 'data'), secrets.easyPost);
  try {
    const { storeId, liveKey } = await seed(server.db, secrets.platform);
    secrets.wooCommerce = createHash('sha256').update(`${storeId}-${liveKey}`).digest('hex');
    const document = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')) as OpenAPIV3.Document;

    // Portman writes a cache under its working directory: a scratch one keeps the repository clean.
    const configFile = join(workDir, 'portman-config.json');
    const generated = join(workDir, 'collection.json');
    writeFileSync(configFile, JSON.stringify(portmanConfig(document), null, 2));
    // Optional parameters are sent too (WooCommerce's topic header, the v1 quote's options).
    const postmanConfigFile = join(workDir, 'postman-config.json');
    writeFileSync(
      postmanConfigFile,
      JSON.stringify({ folderStrategy: 'Tags', parametersResolution: 'Example', requestParametersResolution: 'Example', exampleParametersResolution: 'Example', keepImplicitHeaders: true, enableOptionalParameters: true }),
    );
    await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'portman'),
      ['--local', join(root, 'openapi.json'), '--portmanConfigFile', configFile, '--postmanConfigFile', postmanConfigFile, '--output', generated, '--baseUrl', server.baseUrl, '--logAssignVariables', 'false'],
      { cwd: workDir, maxBuffer: 64 * 1024 * 1024 },
    );
    const collection = contractTestCollection(JSON.parse(readFileSync(generated, 'utf8')), document, {
      apiKey: liveKey,
      storeId,
      secrets,
    });

    const summary = await new Promise<NewmanRunSummary>((resolveRun, rejectRun) => {
      const { info, item, variable } = collection;
      newman.run({ collection: { info, item, variable } as CollectionDefinition, reporters: ['cli'] }, (error, result) =>
        error ? rejectRun(error) : resolveRun(result),
      );
    });
    const report = figures(summary, collection);
    mkdirSync(join(root, 'test-artifacts'), { recursive: true });
    writeFileSync(join(root, 'test-artifacts', 'contract-test.json'), JSON.stringify(report, null, 2));
    process.stdout.write(`${JSON.stringify({ ...report, failures: report.failures.length }, null, 2)}\n`);
    return report.failures.length === 0 ? 0 : 1;
  } finally {
    await server.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function figures(summary: NewmanRunSummary, collection: ReturnType<typeof contractTestCollection>) {
  const stats = summary.run.stats;
  return {
    requests: stats.requests.total,
    checks: stats.assertions.total,
    failedChecks: stats.assertions.failed,
    operations: collection.operationsCovered,
    linksFollowed: collection.linksFollowed,
    positiveRequests: collection.positiveRequests,
    negativeRequests: collection.negativeRequests,
    variationsNotApplicable: collection.variationsNotApplicable,
    failures: summary.run.failures.map((failure) => {
      const ref = 'ref' in failure.cursor ? failure.cursor.ref : undefined;
      const execution = summary.run.executions.find((candidate) => candidate.cursor.ref === ref);
      return {
        request: failure.source?.name ?? 'unknown',
        check: failure.error.test ?? failure.error.name,
        message: failure.error.message,
        sent: execution ? `${execution.request.method} ${execution.request.url.toString()} ${execution.request.body?.toString() ?? ''}` : null,
        answered: execution?.response ? `${execution.response.code} ${execution.response.stream?.toString('utf8') ?? ''}` : null,
      };
    }),
  };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
