// The SDK as a merchant gets it: packed with npm pack (whose prepack builds it, once), installed
// from the tarball into an empty project outside the repo with no @types/node, typechecked there
// with tsc (strict, NodeNext, skipLibCheck false), and run there as ESM and as CommonJS against the
// real server. It has no dependencies, every documented value exists in both module systems, and
// its declarations are tens of kilobytes.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const execFileAsync = promisify(execFile);

const root = fileURLToPath(new URL('..', import.meta.url));
const sdkDir = join(root, 'sdk');
const TYPESCRIPT = 'typescript@5.9.3';
/**
 * The declarations `import ... from '@order-protection/sdk'` loads, at most (the rest-types subpath is
 * apart). About 47 KB before webhook endpoints and events, 69 KB with them (their ten routes, the
 * nine event types and their data, constructEvent), 90 KB with claims handling (a claim's evidence
 * and history, decisions, the claim rules and their dry run).
 */
const MAX_DECLARATION_BYTES = 96_000;
const repoManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

interface Run {
  stdout: string;
  stderr: string;
}

/**
 * The environment of the npm, tsc and node children. Under `npm test` npm exports its own settings
 * (npm_config_local_prefix points at this repo, npm_package_* describe it): an npm started with them
 * would act on the repo instead of the temporary project, so only the cache and registry settings pass.
 */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig', 'npm_config_cafile']);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && !keep.has(key.toLowerCase())) continue;
    if (key === 'INIT_CWD' || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', ...extra };
}

async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = childEnv()): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { stdout, stderr };
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string; code?: number };
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed with exit code ${String(failure.code)}\n` +
        `--- stdout\n${failure.stdout ?? ''}\n--- stderr\n${failure.stderr ?? ''}`,
    );
  }
}

/** The modules a built file imports or requires, and those its declarations import. */
function moduleSpecifiers(source: string): string[] {
  const patterns = [
    /\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
    /\/\/\/\s*<reference\s+types=["']([^"']+)["']/g,
  ];
  return [...new Set(patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? '')))].sort();
}

/** The names a README paragraph lists in backticks, from its first line starting with `heading`. */
function readmeNames(heading: string): string[] {
  const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`sdk/README.md has no paragraph starting "${heading}"`);
  const paragraph = readme.slice(start + 1, readme.indexOf('\n\n', start + 1));
  return [...paragraph.slice(paragraph.indexOf(':')).matchAll(/`([A-Za-z_][\w]*)`/g)].map((match) => match[1] ?? '');
}
const documentedValues = readmeNames('Values (classes, functions and constants)');
const documentedTypes = readmeNames('Types only');

// The consumer: what a merchant writes, typechecked with the package's declarations only.
const SAMPLE_ESM = `import { Client, ConflictError, NotFoundError, OrderProtectionError, toAmount, type Order, type Quote } from '@order-protection/sdk';

const apiKey = process.env.OP_API_KEY;
const baseUrl = process.env.OP_BASE_URL;
if (!apiKey || !baseUrl) throw new Error('OP_API_KEY and OP_BASE_URL are required');

const client = new Client({ apiKey, baseUrl, maxRetries: 1, deadlineMs: 20_000 });
const sourceOrderId = process.env.OP_ORDER_ID ?? \`esm-\${Date.now()}\`;

const quote: Quote = await client.quotes.create({ cart: { covered: { amount: '80.00' }, cart_ref: 'cart_esm' } });
// The declarations carry real types: were they any, this expected error would be missing and tsc would fail.
// @ts-expect-error premium.amount is a string of major units
const premiumAsNumber: number = quote.premium.amount;
void premiumAsNumber;

const body = {
  source_order_id: sourceOrderId,
  subtotal: toAmount(8000),
  insurance_selected: true,
  quote_id: quote.id,
  customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
  line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 40, quantity: 2, sku: 'DESK-ORG-W' }],
  source_created_on: new Date().toISOString(),
};
const created: Order = await client.orders.create(body, { idempotencyKey: \`order-\${sourceOrderId}\` });
const replayed = await client.orders.create(body, { idempotencyKey: \`order-\${sourceOrderId}\` });
const duplicate = await client.orders.create(body).catch((error: unknown) => error);
const read = await client.orders.retrieve(created.source_order_id);

let missing: { name: string; status: number | undefined; code: string | undefined } | undefined;
try {
  await client.orders.retrieve(\`\${sourceOrderId}-missing\`);
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  const typed: OrderProtectionError = error;
  missing = { name: typed.name, status: typed.status, code: typed.code };
}

console.log(
  JSON.stringify({
    mode: client.mode,
    premium: quote.premium.amount,
    created: { source_order_id: created.source_order_id, status: created.status },
    replayed: { same: replayed.id === created.id, flag: replayed.lastResponse.replayed, status: replayed.lastResponse.status },
    duplicate: duplicate instanceof ConflictError,
    read: { source_order_id: read.source_order_id, paid_to_insure: read.paid_to_insure, insured_status: read.insured_status },
    missing,
  }),
);
`;

// The CommonJS smoke test: require() of the package, typed by its .d.cts (tsc emits smoke.cjs).
const SMOKE_CJS = `import sdk = require('@order-protection/sdk');

async function main(): Promise<void> {
  const client = new sdk.Client({ apiKey: process.env.OP_API_KEY ?? '', baseUrl: process.env.OP_BASE_URL ?? '' });
  const sourceOrderId = process.env.OP_ORDER_ID ?? \`cjs-\${Date.now()}\`;
  const quote = await client.quotes.create({ cart: { covered: { amount: sdk.toAmountString(8000) } } });
  await client.orders.create({
    source_order_id: sourceOrderId,
    subtotal: 80,
    insurance_selected: true,
    quote_id: quote.id,
    customer_details: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
    shipping_details: { street_address1: '1 Main St', city: 'Springfield', country_code: 'US' },
    line_items: [{ source_id: 'li_1', name: 'Lamp', price: 80, quantity: 1 }],
    source_created_on: new Date().toISOString(),
  });
  const read = await client.orders.retrieve(sourceOrderId);
  const signed = await sdk.signWebhook('whsec_cjs', '{}', 1_800_000_000);
  const check = await sdk.verifyWebhook(signed, '{}', 'whsec_cjs', new Date(1_800_000_000_000));
  const payload = JSON.stringify({ id: 'evt_cjs', type: 'order.cancelled', created_at: '2027-01-15T08:00:00.000Z', mode: 'live', data: { cancellation_cause: 'api' } });
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const event = await client.webhooks.constructEvent(payload, await sdk.generateTestHeaders({ payload, secret }), secret);
  const cause = event.type === 'order.cancelled' ? event.data.cancellation_cause : undefined;
  const refused = await sdk.constructEvent(payload, {}, secret).catch((error: unknown) => error instanceof sdk.EventSignatureError && error.reason);
  console.log(
    JSON.stringify({
      premium: quote.premium.amount,
      source_order_id: read.source_order_id,
      paid_to_insure: read.paid_to_insure,
      webhook: check.valid,
      event: { id: event.id, cause, refused },
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** Node's process as the samples use it, declared here: the project has no @types/node, which the SDK must not need. */
const ENV_DECLARATION = `declare const process: { env: Record<string, string | undefined>; exitCode?: number };
`;

/** Every documented value used as a value and every documented type as a type, from ESM and from CommonJS. */
const typeOnly = () => documentedTypes.filter((name) => !documentedValues.includes(name));
/** A documented type as a complete type (a generic one with an argument). */
const typeUse = (name: string, prefix = '') => `${prefix}${name}${name === 'WithLastResponse' ? '<object>' : ''}`;
const namesEsm = () => `import { ${documentedValues.join(', ')} } from '@order-protection/sdk';
import type { ${typeOnly().join(', ')} } from '@order-protection/sdk';
import type { components, operations, paths } from '@order-protection/sdk/rest-types';

export const values = [${documentedValues.join(', ')}];
export type Types = [${documentedTypes.map((name) => typeUse(name)).join(', ')}, components, operations, paths];
`;
const namesCjs = () => `import sdk = require('@order-protection/sdk');
import type { components } from '@order-protection/sdk/rest-types';

export const values = [${documentedValues.map((name) => `sdk.${name}`).join(', ')}];
export type Types = [${documentedTypes.map((name) => typeUse(name, 'sdk.')).join(', ')}, components];
`;

/** What a module system sees at run time: each export and its typeof. */
const EXPORTS_ESM = `import * as sdk from '@order-protection/sdk';
console.log(JSON.stringify(Object.fromEntries(Object.entries(sdk).map(([name, value]) => [name, typeof value]))));
`;
const EXPORTS_CJS = `const sdk = require('@order-protection/sdk');
console.log(JSON.stringify(Object.fromEntries(Object.entries(sdk).map(([name, value]) => [name, typeof value]))));
`;

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // Check the package's declarations too, not only the sample against them.
    skipLibCheck: false,
    // No @types/node, nor any other: the declarations must stand alone.
    types: [],
    outDir: 'out',
  },
  include: ['src'],
};

/** The TypeScript samples of sdk/README.md, each a module of its own: they must typecheck too. */
function readmeSamples(): string[] {
  const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => `${match[1] ?? ''}export {};\n`);
}

let service: TestService;
let shop: SeededStore;
let workDir: string;
let projectDir: string;
let packed: { filename: string; files: string[]; output: string };
let compiled: { ok: boolean; output: string };
const timings: Array<[string, number]> = [];

async function timed<T>(step: string, action: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await action();
  } finally {
    timings.push([step, Math.round(performance.now() - started)]);
  }
}

function runSample(file: string, sourceOrderId: string): Promise<Run> {
  return run(process.execPath, [file], projectDir, childEnv({ OP_API_KEY: shop.liveKey, OP_BASE_URL: service.baseUrl, OP_ORDER_ID: sourceOrderId }));
}

const installedSdk = () => join(projectDir, 'node_modules', '@order-protection', 'sdk');

beforeAll(async () => {
  const started = performance.now();
  workDir = mkdtempSync(join(tmpdir(), 'op-sdk-package-'));
  projectDir = join(workDir, 'consumer');

  [service, packed] = await Promise.all([
    timed('start server', () => startService()),
    // What a maintainer runs: npm pack, whose prepack script builds the package.
    timed('npm pack (prepack builds)', async () => {
      const { stdout, stderr } = await run('npm', ['pack', '--json', '--pack-destination', workDir], sdkDir);
      const [entry] = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as Array<{ filename: string; files: Array<{ path: string }> }>;
      if (!entry) throw new Error(`npm pack printed no entry: ${stdout}`);
      // Without colours: tsup colours its log where it thinks the terminal can (CI=true is enough).
      // eslint-disable-next-line no-control-regex
      const output = (stdout + stderr).replace(/\u001b\[[0-9;]*m/g, '');
      return { filename: entry.filename, files: entry.files.map((file) => file.path).sort(), output };
    }),
  ]);
  shop = await seedStore(service.db);

  mkdirSync(join(projectDir, 'src'), { recursive: true });
  writeFileSync(join(projectDir, 'package.json'), `${JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(projectDir, 'tsconfig.json'), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
  writeFileSync(join(projectDir, 'src', 'env.d.ts'), ENV_DECLARATION);
  writeFileSync(join(projectDir, 'src', 'sample.ts'), SAMPLE_ESM);
  writeFileSync(join(projectDir, 'src', 'smoke.cts'), SMOKE_CJS);
  writeFileSync(join(projectDir, 'src', 'names.ts'), namesEsm());
  writeFileSync(join(projectDir, 'src', 'names-cjs.cts'), namesCjs());
  writeFileSync(join(projectDir, 'exports.mjs'), EXPORTS_ESM);
  writeFileSync(join(projectDir, 'exports.cjs'), EXPORTS_CJS);
  readmeSamples().forEach((sample, index) => writeFileSync(join(projectDir, 'src', `readme-${index + 1}.ts`), sample));

  await timed('npm install', async () => {
    // typescript and openapi-fetch come from the npm cache (the repo's own install fills it); the
    // registry is asked only when the cache lacks one of them. No @types/node.
    const packages = [
      join(workDir, packed.filename),
      TYPESCRIPT,
      `openapi-fetch@${repoManifest.devDependencies['openapi-fetch']}`, // for the README's raw-types sample
    ];
    try {
      await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...packages], projectDir);
    } catch {
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packages], projectDir);
    }
  });

  compiled = await timed('tsc (typecheck and emit)', async () => {
    try {
      const { stdout, stderr } = await run(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], projectDir);
      return { ok: true, output: stdout + stderr };
    } catch (error) {
      return { ok: false, output: (error as Error).message };
    }
  });
  timings.push(['set-up total', Math.round(performance.now() - started)]);
}, 180_000);

afterAll(async () => {
  await service?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  console.log(`sdk-package timings (ms): ${timings.map(([step, ms]) => `${step} ${ms}`).join(', ')}`);
});

describe('the packed SDK', () => {
  it('is built once by npm pack, and packs the builds, their declarations and the README, nothing else', () => {
    expect(packed.output.match(/ESM Build start/g)).toHaveLength(1);
    expect(packed.output.match(/DTS Build start/g)).toHaveLength(1);
    expect(packed.filename).toBe('order-protection-sdk-0.1.0.tgz');
    expect(packed.files).toEqual([
      'README.md',
      'dist/index.cjs',
      'dist/index.d.cts',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/rest-types.d.cts',
      'package.json',
    ]);
  });

  it('has no dependencies, and its code and declarations import nothing but their own files', () => {
    const sdk = JSON.parse(readFileSync(join(installedSdk(), 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(sdk.private).toBeUndefined();
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies']) expect(sdk[field], field).toBeUndefined();
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'rest-types.d.cts']) {
      const source = readFileSync(join(installedSdk(), 'dist', file), 'utf8');
      expect(moduleSpecifiers(source).filter((specifier) => !specifier.startsWith('./')), file).toEqual([]);
    }
    // The consumer got no @types/node from anywhere.
    expect(() => statSync(join(projectDir, 'node_modules', '@types', 'node'))).toThrow();
  });

  it(`keeps the declarations of the main entry under ${MAX_DECLARATION_BYTES / 1000} KB`, () => {
    const size = (file: string) => statSync(join(installedSdk(), 'dist', file)).size;
    const main = size('index.d.ts') + size('index.d.cts');
    console.log(`sdk declarations: index.d.ts + index.d.cts ${main} bytes; rest-types.d.cts (subpath) ${size('rest-types.d.cts')} bytes`);
    expect(main).toBeLessThan(MAX_DECLARATION_BYTES);
    // The ESM entry re-exports the CommonJS declarations rather than repeating them.
    expect(readFileSync(join(installedSdk(), 'dist', 'index.d.ts'), 'utf8')).toBe("export * from './index.cjs';\n");
  });

  it('typechecks a strict NodeNext consumer without @types/node and with skipLibCheck false (ESM, CommonJS, every export, the README samples)', () => {
    expect(readmeSamples().length).toBeGreaterThanOrEqual(10);
    expect(compiled.output.trim(), 'tsc output').toBe('');
    expect(compiled.ok).toBe(true);
  });

  it('exports every documented value, and nothing else, from ESM and from CommonJS; documented types are not values', async () => {
    expect(documentedValues.length).toBeGreaterThanOrEqual(28);
    expect(documentedTypes).toContain('OrderRequest');
    for (const script of ['exports.mjs', 'exports.cjs']) {
      const { stdout } = await run(process.execPath, [script], projectDir);
      const exported = JSON.parse(stdout) as Record<string, string>;
      expect(Object.keys(exported).sort(), script).toEqual([...documentedValues].sort());
      expect(Object.entries(exported).filter(([, type]) => type === 'undefined'), script).toEqual([]);
      const typesAtRunTime = documentedTypes.filter((name) => name in exported && !documentedValues.includes(name));
      expect(typesAtRunTime, script).toEqual([]);
    }
  });

  it('runs as ESM: quotes, creates (replayed with its key, a duplicate without) and reads back an order against the real server', async () => {
    const sourceOrderId = `esm-${Date.now()}`;
    const { stdout } = await runSample(join('out', 'sample.js'), sourceOrderId);
    expect(JSON.parse(stdout.trim())).toEqual({
      mode: 'live',
      premium: '1.20', // 80.00 x 1.5 %
      created: { source_order_id: sourceOrderId, status: 'created' },
      replayed: { same: true, flag: true, status: 201 },
      duplicate: true,
      read: { source_order_id: sourceOrderId, paid_to_insure: 1.2, insured_status: 'insured_selected' },
      missing: { name: 'NotFoundError', status: 404, code: 'not_found' },
    });
    // The server holds it, once: read it back past the SDK.
    const response = await fetch(`${service.baseUrl}/v2/orders/${sourceOrderId}`, { headers: { token: shop.liveKey } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ source_order_id: sourceOrderId, paid_to_insure: 1.2 });
  });

  it('runs as CommonJS through require()', async () => {
    const sourceOrderId = `cjs-${Date.now()}`;
    const compiledSmoke = readFileSync(join(projectDir, 'out', 'smoke.cjs'), 'utf8');
    expect(compiledSmoke).toContain('require("@order-protection/sdk")');
    const { stdout } = await runSample(join('out', 'smoke.cjs'), sourceOrderId);
    expect(JSON.parse(stdout.trim())).toEqual({
      premium: '1.20',
      source_order_id: sourceOrderId,
      paid_to_insure: 1.2,
      webhook: true,
      event: { id: 'evt_cjs', cause: 'api', refused: 'missing_header' },
    });
  });

  it('bundles for the browser from the package, through its export conditions', async () => {
    const result = await build({
      stdin: { contents: "export { Client, signWebhook } from '@order-protection/sdk';", resolveDir: projectDir, loader: 'js' },
      absWorkingDir: projectDir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('@order-protection/sdk'))).toEqual(['node_modules/@order-protection/sdk/dist/index.js']);
    expect(result.outputFiles[0]?.text).not.toMatch(/\brequire\(|node:/);
  });
});
