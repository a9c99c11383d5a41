// Runs `prisma generate` without network access. The Prisma CLI insists on locating a native
// schema-engine before `generate`, although generate never executes it; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file satisfies that check (measured).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);

const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
