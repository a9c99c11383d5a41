// Builds the browser apps, the merchant console (web/console) and the shoppers' claim page
// (web/claims), each into its own web/<app>/dist with Vite, unless that build is newer than every
// file it is made from. npm's postinstall, npm start and the test run call it, so a fresh clone
// serves both and an unchanged one starts without waiting for a build.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const APPS = ['console', 'claims'];

/** The newest modification time under a file or folder, and the file that has it. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { time: stat.mtimeMs, file: path };
  let found = { time: 0, file: path };
  for (const entry of readdirSync(path)) {
    const inner = newest(join(path, entry));
    if (inner.time > found.time) found = inner;
  }
  return found;
}

async function buildApp(app) {
  const root = join(repo, 'web', app);
  const builtIndex = join(root, 'dist/index.html');
  // What the build is made from: the app, the contract it imports, its config, the dependencies'
  // versions, and this script.
  const sources = [
    join(root, 'src'),
    join(root, 'index.html'),
    join(root, 'vite.config.ts'),
    join(repo, 'web/shared'),
    join(repo, 'contract'),
    join(repo, 'package.json'),
    fileURLToPath(import.meta.url),
  ];
  const changed = sources.filter(existsSync).map(newest).reduce((a, b) => (b.time > a.time ? b : a));
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;

  if (builtAt > changed.time) {
    console.log(`web/${app}: the build is up to date (web/${app}/dist is newer than its sources).`);
  } else {
    const reason = builtAt === 0 ? 'no build yet' : `${relative(repo, changed.file)} changed`;
    const started = Date.now();
    // Always the production build of React and the rest: the test runner calls this with
    // NODE_ENV=test, which Vite would otherwise pass on to the bundle (development code, twice the size).
    process.env.NODE_ENV = 'production';
    // Imported only when needed: Vite takes a moment to load.
    const { build } = await import('vite');
    // Built beside the live folder, then swapped in: a server (or a test run) serving the old build
    // never sees a half-written or empty dist, and two builds at once do not write into each other.
    const staging = join(root, `dist.building-${process.pid}`);
    const retired = join(root, `dist.old-${process.pid}`);
    try {
      await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production', build: { outDir: staging } });
      if (existsSync(join(root, 'dist'))) renameSync(join(root, 'dist'), retired);
      renameSync(staging, join(root, 'dist'));
    } finally {
      rmSync(staging, { recursive: true, force: true });
      rmSync(retired, { recursive: true, force: true });
    }
    console.log(`web/${app}: built into web/${app}/dist in ${((Date.now() - started) / 1000).toFixed(1)} s (${reason}).`);
  }
}

for (const app of APPS) await buildApp(app);
