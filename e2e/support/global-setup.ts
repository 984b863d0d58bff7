import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { PARENT_SITE_URL, PUBLIC_ORIGIN } from './constants';
import { freshDataDir, startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** One production server with a fresh data directory for the whole browser suite. */
export default async function setup(project: TestProject) {
  const dataDir = freshDataDir();
  const server = await startServer({
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN,
    PARENT_SITE_URL,
  });
  project.provide('baseUrl', server.url);
  project.provide('dataDir', dataDir);
  return async () => {
    const code = await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (code !== 0) throw new Error(`server exited with ${code} on SIGTERM:\n${server.output()}`);
  };
}
