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
import { composeService, offlineServiceOptions } from '../server/compose.js';
import { resolveDatabase } from '../server/db/resolve.js';
import { actingFor, issueApiKey, type ServiceScope } from '../server/domain/access/index.js';

import { connectStore, createPlatform } from '../server/domain/platforms/index.js';
import { EXAMPLE_DELIVERY_ID, EXAMPLE_ENDPOINT_ID, EXAMPLE_EVENT_ID, OrderRequest } from '../contract/index.js';
import { createOrder } from '../server/domain/orders/index.js';
import { createStore } from '../server/domain/stores/index.js';
import sharp from 'sharp';
import { EXAMPLE_CLAIM_ID, EXAMPLE_PHOTO_ID } from '../contract/claims.js';
import { createGracefulServer } from '../server/http/graceful-server.js';
import { contractTestCollection, type SigningSecrets } from './contract-test/collection.js';
import { portmanConfig } from './contract-test/portman-config.js';
import { figures } from './contract-test/report.js';

const root = resolve(import.meta.dirname, '..');
const OPERATOR: ServiceScope = { actor: { kind: 'operator', name: 'contract-test' } };

async function startServer(dataDir: string, easyPostWebhookSecret: string) {
  // The embedded PostgreSQL as `npm start` makes it, on a data directory of its own.
  const database = await resolveDatabase({ databaseUrl: undefined, dataDir, embeddedDatabasePort: undefined });
  // Without rate limits: the run sends a few hundred requests in seconds; limits are tested elsewhere.
  const service = await composeService({ ...offlineServiceOptions(database.url, 10), easyPostWebhookSecret });
  const server = createGracefulServer(service.app).server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db: service.db,
    stop: async () => {
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      for (const step of service.stopSteps()) await step.run();
      await database.embedded?.stop();
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
  const live = await issueApiKey(db, actingFor(OPERATOR, store), { mode: 'live', scope: 'store' });
  await createPlatform(db, OPERATOR, 'shopify', platformSecret);
  await connectStore(db, actingFor(OPERATOR, store), 'shopify');
  // The endpoint, event and delivery the examples name: an order's event, given the example ids.
  const order = OrderRequest.parse({
    source_order_id: 'contract-test-seed',
    subtotal: 125,
    insurance_selected: true,
    customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
    line_items: [{ source_id: 'line-1', name: 'Lamp', price: 125, quantity: 1 }],
    source_created_on: new Date().toISOString(),
  });
  await createOrder(db, actingFor(OPERATOR, store), order, new Date());
  await db.$executeRaw`UPDATE events SET id = ${EXAMPLE_EVENT_ID} WHERE store_id = ${store.id}::uuid`;
  await db.$executeRaw`INSERT INTO webhook_endpoints (id, store_id, url, events, secret, created_at, updated_at)
                       VALUES (${EXAMPLE_ENDPOINT_ID}, ${store.id}::uuid, 'https://shop.example.com/hooks/seed', '{order.created}', 'whsec_c2VlZA==', now(), now())`;
  await db.$executeRaw`INSERT INTO webhook_deliveries (id, store_id, event_id, event_created_at, event_seq, endpoint_id, object_key, status, created_at, updated_at)
                       SELECT ${EXAMPLE_DELIVERY_ID}, store_id, id, created_at, seq, ${EXAMPLE_ENDPOINT_ID}, object_key, 'succeeded', now(), now() FROM events WHERE id = ${EXAMPLE_EVENT_ID}`;
  // The claim and photo the photo download's example names, as the claim page leaves them.
  const orderId = (await db.order.findFirstOrThrow({ where: { storeId: store.id, sourceOrderId: 'contract-test-seed' }, select: { id: true } })).id;
  const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#888' } }).jpeg().toBuffer();
  await db.claim.create({
    data: { id: EXAMPLE_CLAIM_ID, storeId: store.id, orderId, reason: 'damaged', status: 'closed', channel: 'shopper_page', reference: 'CLM-SEED42', createdOn: new Date(), updatedOn: new Date(), resolvedOn: new Date() },
  });
  await db.claimPhoto.create({ data: { id: EXAMPLE_PHOTO_ID, storeId: store.id, orderId, claimId: EXAMPLE_CLAIM_ID, width: 32, height: 24, byteSize: jpeg.length, createdAt: new Date() } });
  await db.claimPhotoObject.create({ data: { photoId: EXAMPLE_PHOTO_ID, storeId: store.id, content: new Uint8Array(jpeg) } });
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
