// Builds the SDK package (`npm run build` here, `npm run sdk:build` at the root, or `npm pack`, whose
// prepack runs it once):
// - dist/index.js (ESM, also what browsers, workers, Deno and Bun load) and dist/index.cjs (CommonJS);
// - dist/index.d.cts, the declarations, and dist/index.d.ts, which re-exports them for `import`:
//   declarations that only declare need no second copy (one copy keeps the package's types small);
// - dist/rest-types.d.cts, the openapi-typescript types, for the `./rest-types` subpath only.
// The SDK has no dependencies: any bare import (a package or a Node built-in) is a build error,
// so nothing can pull in a package or tie the build to Node.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const sdkDir = fileURLToPath(new URL('.', import.meta.url));

const isBare = (specifier: string) => !/^(\.{1,2}(\/|$)|\/|[A-Za-z]:[\\/])/.test(specifier);

const shared: Options = {
  outDir: `${sdkDir}dist`,
  tsconfig: `${sdkDir}../tsconfig.json`,
  platform: 'neutral',
  target: 'es2022',
  splitting: false,
  sourcemap: false,
  // Both builds write into dist/: the `build` script empties it first, as tsup's own clean would race.
  clean: false,
  esbuildPlugins: [
    {
      name: 'no-dependencies',
      setup(build) {
        build.onResolve({ filter: /.*/ }, (args) =>
          isBare(args.path) ? { errors: [{ text: `${args.path} is imported by ${args.importer}, but the SDK has no dependencies` }] } : undefined,
        );
      },
    },
  ],
};

export default defineConfig([
  {
    ...shared,
    entry: { index: `${sdkDir}src/index.ts` },
    format: ['esm', 'cjs'],
    dts: false,
    async onSuccess() {
      writeFileSync(`${sdkDir}dist/index.d.ts`, "export * from './index.cjs';\n");
    },
  },
  {
    ...shared,
    entry: { index: `${sdkDir}src/index.ts`, 'rest-types': `${sdkDir}src/rest-types.ts` },
    format: ['cjs'],
    dts: { only: true },
  },
]);
