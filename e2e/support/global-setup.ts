import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { PARENT_SITE_URL, PUBLIC_ORIGIN } from './constants';
import { freshDataDir, startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One production server per worker: `suiteServer()` (suite-server.ts) picks the worker's. */
    suiteServers: { baseUrl: string; dataDir: string }[];
  }
}

/**
 * One production server with a fresh data directory for each worker of the browser suite. Files
 * run two at a time: much of a browser journey is waiting (for the page, an SMS, a cooldown), and
 * two servers keep the two files' data, rate limits and desk sessions apart as one server did for
 * files run one after another.
 */
export default async function setup(project: TestProject) {
  // The root config sets maxWorkers; a project's own config leaves it unset, and reading that
  // once gave every file the same server while two files ran at once.
  const workers = Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
  const servers = await Promise.all(
    Array.from({ length: workers }, async () => {
      const dataDir = freshDataDir();
      const server = await startServer({ DATA_DIR: dataDir, PUBLIC_ORIGIN, PARENT_SITE_URL });
      return { dataDir, server };
    }),
  );
  project.provide(
    'suiteServers',
    servers.map(({ dataDir, server }) => ({ baseUrl: server.url, dataDir })),
  );
  return async () => {
    const failures: string[] = [];
    for (const { dataDir, server } of servers) {
      const code = await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (code !== 0) failures.push(`server exited with ${code} on SIGTERM:\n${server.output()}`);
    }
    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  };
}
