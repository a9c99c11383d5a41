// The SDK as a merchant gets it: built with tsup, packed with npm pack, installed from the tarball
// into a project outside the repo, typechecked there with tsc (strict, NodeNext), and run there as
// ESM and as CommonJS against the real server.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStore, startService, type SeededStore, type TestService } from './support/service.js';

const execFileAsync = promisify(execFile);

const root = fileURLToPath(new URL('..', import.meta.url));
const sdkDir = join(root, 'sdk');
const SDK_RUNTIME_DEPENDENCIES = ['@ts-rest/core', 'zod'];
const TYPESCRIPT = 'typescript@5.9.3';
const repoManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
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

function isAllowedImport(specifier: string): boolean {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return true;
  return SDK_RUNTIME_DEPENDENCIES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

// The consumer: what a merchant writes, typechecked with the package's declarations only.
const SAMPLE_ESM = `import { Client, NotFoundError, OrderProtectionError, type Order, type Quote } from '@order-protection/sdk';

const apiKey = process.env.OP_API_KEY;
const baseUrl = process.env.OP_BASE_URL;
if (!apiKey || !baseUrl) throw new Error('OP_API_KEY and OP_BASE_URL are required');

const client = new Client({ apiKey, baseUrl, maxRetries: 1 });
const sourceOrderId = process.env.OP_ORDER_ID ?? \`esm-\${Date.now()}\`;

const quote: Quote = await client.quotes.create({ cart: { covered: { amount: '80.00' }, cart_ref: 'cart_esm' } });
// The declarations carry real types: were they any, this expected error would be missing and tsc would fail.
// @ts-expect-error premium.amount is a string of major units
const premiumAsNumber: number = quote.premium.amount;
void premiumAsNumber;

const created: Order = await client.orders.create({
  source_order_id: sourceOrderId,
  subtotal: 80,
  insurance_selected: true,
  quote_id: quote.id,
  customer_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  shipping_details: { street_address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', province: 'CA', zip: '94043', country_code: 'US' },
  line_items: [{ source_id: 'li_1', name: 'Walnut desk organiser', price: 40, quantity: 2, sku: 'DESK-ORG-W' }],
  source_created_on: new Date().toISOString(),
});
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
  const quote = await client.quotes.create({ cart: { covered: { amount: '80.00' } } });
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
  console.log(JSON.stringify({ premium: quote.premium.amount, source_order_id: read.source_order_id, paid_to_insure: read.paid_to_insure }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // Check the package's declarations too, not only the sample against them.
    skipLibCheck: false,
    types: ['node'],
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
let packed: { filename: string; files: string[] };
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
  return run(process.execPath, [join('out', file)], projectDir, childEnv({ OP_API_KEY: shop.liveKey, OP_BASE_URL: service.baseUrl, OP_ORDER_ID: sourceOrderId }));
}

beforeAll(async () => {
  const started = performance.now();
  workDir = mkdtempSync(join(tmpdir(), 'op-sdk-package-'));
  projectDir = join(workDir, 'consumer');

  [service] = await Promise.all([
    timed('start server', () => startService()),
    timed('build (npm run sdk:build)', () => run('npm', ['run', 'sdk:build'], root)),
  ]);
  shop = await seedStore(service.db);

  packed = await timed('npm pack', async () => {
    // Built just above: skip the package's prepack build.
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workDir], sdkDir);
    const [entry] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    if (!entry) throw new Error(`npm pack printed no entry: ${stdout}`);
    return { filename: entry.filename, files: entry.files.map((file) => file.path).sort() };
  });

  mkdirSync(join(projectDir, 'src'), { recursive: true });
  writeFileSync(join(projectDir, 'package.json'), `${JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(projectDir, 'tsconfig.json'), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
  writeFileSync(join(projectDir, 'src', 'sample.ts'), SAMPLE_ESM);
  writeFileSync(join(projectDir, 'src', 'smoke.cts'), SMOKE_CJS);
  readmeSamples().forEach((sample, index) => writeFileSync(join(projectDir, 'src', `readme-${index + 1}.ts`), sample));

  await timed('npm install', async () => {
    // @ts-rest/core, zod, typescript and @types/node come from the npm cache (the repo's own install
    // fills it); the registry is asked only when the cache lacks one of them.
    const packages = [
      join(workDir, packed.filename),
      TYPESCRIPT,
      `@types/node@${repoManifest.devDependencies['@types/node']}`,
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
  it('packs the ESM and CommonJS builds, their declarations and the README, nothing else', () => {
    expect(packed.filename).toBe('order-protection-sdk-0.1.0.tgz');
    expect(packed.files).toEqual(['README.md', 'dist/index.cjs', 'dist/index.d.cts', 'dist/index.d.ts', 'dist/index.js', 'package.json']);
  });

  it('declares the runtime dependencies at the versions the repo pins', () => {
    const sdk = JSON.parse(readFileSync(join(projectDir, 'node_modules', '@order-protection', 'sdk', 'package.json'), 'utf8')) as {
      private?: boolean;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    expect(sdk.private).toBeUndefined();
    expect(sdk.dependencies).toEqual(Object.fromEntries(SDK_RUNTIME_DEPENDENCIES.map((name) => [name, repoManifest.dependencies[name]])));
    expect(sdk.peerDependencies).toBeUndefined();
  });

  it('bundles the contract: the code and declarations import only zod, @ts-rest/core and Node built-ins', () => {
    const dist = join(projectDir, 'node_modules', '@order-protection', 'sdk', 'dist');
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) {
      const source = readFileSync(join(dist, file), 'utf8');
      const specifiers = moduleSpecifiers(source);
      expect(specifiers.filter((specifier) => !isAllowedImport(specifier)), file).toEqual([]);
    }
  });

  it('typechecks a strict NodeNext consumer against the declarations (ESM, CommonJS and the README samples)', () => {
    expect(readmeSamples().length).toBeGreaterThanOrEqual(6);
    expect(compiled.output.trim(), 'tsc output').toBe('');
    expect(compiled.ok).toBe(true);
  });

  it('runs as ESM: quotes, creates and reads back an order against the real server', async () => {
    const sourceOrderId = `esm-${Date.now()}`;
    const { stdout } = await runSample('sample.js', sourceOrderId);
    expect(JSON.parse(stdout.trim())).toEqual({
      mode: 'live',
      premium: '1.20', // 80.00 x 1.5 %
      created: { source_order_id: sourceOrderId, status: 'created' },
      read: { source_order_id: sourceOrderId, paid_to_insure: 1.2, insured_status: 'insured_selected' },
      missing: { name: 'NotFoundError', status: 404, code: 'not_found' },
    });
    // The server holds it: read it back past the SDK.
    const response = await fetch(`${service.baseUrl}/v2/orders/${sourceOrderId}`, { headers: { token: shop.liveKey } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ source_order_id: sourceOrderId, paid_to_insure: 1.2 });
  });

  it('runs as CommonJS through require()', async () => {
    const sourceOrderId = `cjs-${Date.now()}`;
    const compiledSmoke = readFileSync(join(projectDir, 'out', 'smoke.cjs'), 'utf8');
    expect(compiledSmoke).toContain('require("@order-protection/sdk")');
    const { stdout } = await runSample('smoke.cjs', sourceOrderId);
    expect(JSON.parse(stdout.trim())).toEqual({ premium: '1.20', source_order_id: sourceOrderId, paid_to_insure: 1.2 });
  });
});
