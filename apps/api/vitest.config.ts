import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Migrates one PGlite and one PostgreSQL database a run; each file's databases are copies.
    globalSetup: ['./test/global-setup.ts'],
    // Files run side by side (two workers, the root vitest.config.ts): each has its own PGlite and
    // its own PostgreSQL database (test/helper.ts), so they share nothing.
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
