import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./support/global-setup.ts'],
    // Two files at a time (the root config's maxWorkers), each with its own Chromium and its own
    // server (support/global-setup.ts): a journey spends much of its time waiting, not computing.
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
