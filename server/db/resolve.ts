// One database resolution for the server and the admin CLI: DATABASE_URL when set, otherwise the
// embedded PostgreSQL under DATA_DIR. Either way the schema is migrated before use.
import type { Config } from '../config.js';
import { ensureDatabase, startEmbeddedCluster, type EmbeddedCluster } from './embedded.js';
import { migrate } from './migrate.js';

export const EMBEDDED_DATABASE_NAME = 'order_protection';

export interface ResolvedDatabase {
  url: string;
  /** The embedded cluster when one is in use, else null. */
  embedded: EmbeddedCluster | null;
}

export async function resolveDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedDatabasePort'>, onLog?: (message: string) => void): Promise<ResolvedDatabase> {
  if (config.databaseUrl !== undefined) {
    await migrate(config.databaseUrl);
    return { url: config.databaseUrl, embedded: null };
  }
  const embedded = await startEmbeddedCluster({ dataDir: config.dataDir, onLog, ...(config.embeddedDatabasePort === undefined ? {} : { port: config.embeddedDatabasePort }) });
  try {
    await ensureDatabase(embedded.urlFor('postgres'), EMBEDDED_DATABASE_NAME);
    const url = embedded.urlFor(EMBEDDED_DATABASE_NAME);
    await migrate(url);
    return { url, embedded };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}
