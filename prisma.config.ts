import { defineConfig } from 'prisma/config';

// Only `prisma generate` runs on these machines (see DESIGN.md §2); migrations are applied by the
// server's own migrator. The URL is read when a migrate command is run where the engine is reachable.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
