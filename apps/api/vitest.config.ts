import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Files run side by side, one per core (2 on CI): each has its own PGlite and its own
    // PostgreSQL database (test/helper.ts), so they share nothing. Measured on CI's machine: the
    // suite on both engines took 441 s so, about 780 s one file at a time.
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
