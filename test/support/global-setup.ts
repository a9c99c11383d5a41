// One embedded PostgreSQL for the whole test run; every test file makes its own database in it.
// The merchant console is built first (when its sources changed), since the app serves it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startEmbeddedCluster } from '../../server/db/embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/** Builds web/console unless its build is current (scripts/build-web.mjs decides, and says which). */
function buildConsole(): void {
  const script = fileURLToPath(new URL('../../scripts/build-web.mjs', import.meta.url));
  const built = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`Building the merchant console failed (node scripts/build-web.mjs exited with ${built.status ?? built.signal}).`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  buildConsole();
  const dataDir = mkdtempSync(join(tmpdir(), 'op-test-pg-'));
  const cluster = await startEmbeddedCluster({ dataDir });
  project.provide('postgresAdminUrl', cluster.urlFor('postgres'));
  return async () => {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
