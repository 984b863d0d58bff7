import { defineConfig } from 'vitest/config';

// One runner for every workspace; `npm run test:unit` picks the unit projects, `test:e2e` the browser journeys.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on CI's 2 cores, so the
    // unit files ran one after another. Most of a file's time is one core's work (PGlite is
    // single-threaded) or waiting on the PostgreSQL server, so two side by side nearly halve it.
    // The browser files stay one at a time (e2e/vitest.config.ts).
    maxWorkers: 2,
    projects: ['packages/shared', 'apps/api', 'apps/web', 'apps/desk', 'e2e'],
  },
});
