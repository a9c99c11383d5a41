// One embedded PostgreSQL for the whole test run; every test file makes its own database in it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedCluster } from '../../server/db/embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'op-test-pg-'));
  const cluster = await startEmbeddedCluster({ dataDir });
  project.provide('postgresAdminUrl', cluster.urlFor('postgres'));
  return async () => {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
