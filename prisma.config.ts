import { defineConfig } from 'prisma/config';

// Only `prisma generate` runs on these machines: `prisma migrate` needs a schema engine the CLI
// cannot download here, so migrations are hand-written SQL applied by the server's own migrator
// (README, Configuration). The URL is read when a migrate command is run where the engine is
// reachable.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
