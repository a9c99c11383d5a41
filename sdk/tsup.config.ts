// Builds the SDK package: sdk/src/index.ts -> dist/index.js (ESM) + dist/index.cjs (CommonJS), with
// declarations dist/index.d.ts + dist/index.d.cts. `npm run build` here or `npm run sdk:build` at the root.
//
// What is bundled and what is not, whatever the working directory (tsup would otherwise externalise
// every dependency of the package.json in the current directory, the root's included):
// - sdk/src and the contract source it imports (../../contract) are bundled;
// - the package's own dependencies (@ts-rest/core, zod) and Node built-ins stay imports;
// - @anatine/zod-openapi, which the contract uses only to attach OpenAPI metadata to schemas, is replaced
//   by an equivalent extendApi, so it is not a runtime dependency;
// - any other package is a build error, so a new import in contract/ cannot ship a broken package.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const sdkDir = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(`${sdkDir}package.json`, 'utf8')) as { dependencies?: Record<string, string> };
const dependencies = Object.keys(manifest.dependencies ?? {});

const isBare = (specifier: string) => !/^(\.{1,2}(\/|$)|\/|[A-Za-z]:[\\/])/.test(specifier);
const isDependency = (specifier: string) => dependencies.some((name) => specifier === name || specifier.startsWith(`${name}/`));
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] ?? '');

/** The one function of @anatine/zod-openapi the contract calls, as it implements it. */
const extendApiShim = `export function extendApi(schema, schemaObject = {}) {
  schema.metaOpenApi = Object.assign(schema.metaOpenApi || {}, schemaObject);
  return schema;
}
`;

export default defineConfig({
  entry: { index: `${sdkDir}src/index.ts` },
  outDir: `${sdkDir}dist`,
  tsconfig: `${sdkDir}../tsconfig.json`,
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  splitting: false,
  sourcemap: false,
  clean: true,
  // Declarations bundle the contract's types into dist/; only zod and @ts-rest/core stay imports.
  dts: { entry: { index: `${sdkDir}src/index.ts` } },
  // Hand every import to the plugin below instead of tsup's own (cwd-dependent) externals.
  noExternal: [/.*/],
  esbuildPlugins: [
    {
      name: 'sdk-dependencies',
      setup(build) {
        build.onResolve({ filter: /.*/ }, (args) => {
          if (!isBare(args.path)) return undefined;
          if (isDependency(args.path) || isBuiltin(args.path)) return { path: args.path, external: true };
          if (args.path === '@anatine/zod-openapi') return { path: 'extend-api', namespace: 'sdk-shim' };
          return {
            errors: [
              {
                text: `${args.path} is imported by ${args.importer} but is not a dependency of @order-protection/sdk (${dependencies.join(', ')})`,
              },
            ],
          };
        });
        build.onLoad({ filter: /.*/, namespace: 'sdk-shim' }, () => ({ contents: extendApiShim, loader: 'js' }));
      },
    },
  ],
});
