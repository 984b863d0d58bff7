import { defineConfig } from 'vitest/config';

// One runner for every workspace; `npm run test:unit` picks the unit projects, `test:e2e` the browser journeys.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/api', 'apps/web', 'apps/desk', 'e2e'],
  },
});
