import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Two files at a time, even on 2 cores: the files mostly wait on PostgreSQL and Chromium, so a
    // second one overlaps that waiting (one at a time, the suite took 10 minutes).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
