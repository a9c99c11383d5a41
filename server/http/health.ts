// Probes for orchestrators and load balancers; no key needed, JSON only.
//   GET /healthz  the process is alive: always 200, never touches the database.
//   GET /readyz   the instance can serve: the database answers within a short deadline and every
//                 migration on disk is applied. Otherwise 503 naming the failed check, quickly (a
//                 dead or hung database must not hang the probe, nor turn it into a 500).
import express from 'express';
import type { Database } from '../db/client.js';
import { MIGRATIONS_DIR, readMigrations } from '../db/migrate.js';

/** How long /readyz waits for the database before calling it unreachable. */
export const READINESS_DB_TIMEOUT_MS = 2000;

export interface HealthDeps {
  db: Database;
  /** Where the migrations this build expects live (defaults to prisma/migrations). */
  migrationsDir?: string;
}

interface ReadinessChecks {
  database: 'ok' | 'unreachable';
  /** 'ok', 'pending: <names>', or 'unknown' when it could not be checked. */
  migrations: string;
}

class Timeout extends Error {}

/** The promise, or a Timeout rejection after ms; the loser's outcome is swallowed. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export function healthRoutes(deps: HealthDeps): express.Router {
  const router = express.Router();
  const migrationsDir = deps.migrationsDir ?? MIGRATIONS_DIR;
  // What is on disk does not change while the process runs: read it once, on the first probe.
  let expected: string[] | undefined;
  const expectedMigrations = (): string[] => (expected ??= readMigrations(migrationsDir).map((migration) => migration.name));

  async function migrationsCheck(deadline: number): Promise<string> {
    let names: string[];
    try {
      names = expectedMigrations();
    } catch {
      return 'unknown';
    }
    const present = await withTimeout(
      deps.db.$queryRaw<Array<{ present: boolean }>>`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`,
      Math.max(deadline - Date.now(), 1),
    );
    const applied = present[0]?.present
      ? await withTimeout(
          deps.db.$queryRaw<Array<{ migration_name: string }>>`
            SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
          Math.max(deadline - Date.now(), 1),
        )
      : [];
    const done = new Set(applied.map((row) => row.migration_name));
    const pending = names.filter((name) => !done.has(name));
    return pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`;
  }

  async function readiness(): Promise<ReadinessChecks> {
    const deadline = Date.now() + READINESS_DB_TIMEOUT_MS;
    try {
      await withTimeout(deps.db.$queryRaw`SELECT 1`, READINESS_DB_TIMEOUT_MS);
    } catch {
      return { database: 'unreachable', migrations: 'unknown' };
    }
    try {
      return { database: 'ok', migrations: await migrationsCheck(deadline) };
    } catch (error) {
      // The database answered SELECT 1 a moment ago; a failure here is most likely the deadline.
      return { database: error instanceof Timeout ? 'unreachable' : 'ok', migrations: 'unknown' };
    }
  }

  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).json({ status: 'ok' });
  });

  router.get('/readyz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    readiness()
      .then((checks) => {
        const ready = checks.database === 'ok' && checks.migrations === 'ok';
        res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
      })
      .catch(() => {
        // readiness() catches everything; this is only a last line of defence against a 500.
        res.status(503).json({ status: 'not_ready', checks: { database: 'unreachable', migrations: 'unknown' } });
      });
  });

  return router;
}
