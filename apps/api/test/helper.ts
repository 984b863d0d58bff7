import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { DevMessage } from '@marpe/shared';
import { buildApp, type App, type BuildAppOptions } from '../src/app.js';
import { loadConfig, type Config, type Env } from '../src/platform/config.js';
import {
  openDatabase,
  type DatabaseEngine,
  type DatabaseHandle,
} from '../src/platform/db/client.js';

const testDatabaseUrl = process.env.TEST_DATABASE_URL || null;

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. Suites run once per engine. */
export const engines: DatabaseEngine[] = testDatabaseUrl ? ['pglite', 'postgres'] : ['pglite'];

export const testDataKey = randomBytes(32);

export function testConfig(env: Env = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    // Explicit: suites set https origins, which would otherwise refuse the demo.
    DEMO: 'true',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent/marpe-test',
    DATA_KEY: testDataKey.toString('base64'),
    ...env,
  });
}

export interface TestDatabase {
  readonly handle: DatabaseHandle;
  /** Empties every application table (keeps the schema and migrations). */
  reset(): Promise<void>;
  dispose(): Promise<void>;
}

// The migrated copy of test/global-setup.ts, read once per test file.
let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A fresh, migrated database: in-memory PGlite, or a new `marpe_test_*` database on the server,
 * each a copy of the one the run migrated at its start (test/global-setup.ts).
 */
export async function createTestDatabase(engine: DatabaseEngine): Promise<TestDatabase> {
  let handle: DatabaseHandle;
  let drop = async () => {};
  if (engine === 'postgres') {
    if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set');
    const name = `marpe_test_${randomBytes(6).toString('hex')}`;
    const template = inject('postgresTemplate');
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    // A test never needs a commit to outlive a crash of the server: not waiting for each commit's
    // WAL flush (2-3 ms on this disk) takes the PostgreSQL run closer to PGlite's.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    await admin.end();
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${name}`;
    handle = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    drop = async () => {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  } else {
    pgliteTemplate ??= readFile(inject('pgliteTemplateFile')).then((bytes) => new Blob([bytes]));
    handle = await openDatabase({
      databaseUrl: null,
      dataDir: null,
      pgliteDataDir: await pgliteTemplate,
    });
  }

  return {
    handle,
    async reset() {
      const result = await handle.db.execute(
        sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`,
      );
      const tables = (result as unknown as { rows: { tablename: string }[] }).rows.map(
        (r) => `"${r.tablename}"`,
      );
      if (tables.length === 0) return;
      const truncate = sql.raw(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
      // Work the previous test started in the background (an outbox run kicked by a request) may
      // still hold a row lock when the next test empties the tables; PostgreSQL then ends one of
      // the two as a deadlock (40P01). The TRUNCATE, if chosen, is tried again.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await handle.db.execute(truncate);
          return;
        } catch (error) {
          // Drizzle wraps the driver's error: its code is on the cause.
          const { code, cause } = error as { code?: string; cause?: { code?: string } };
          const deadlock = code === '40P01' || cause?.code === '40P01';
          if (attempt >= 5 || !deadlock) throw error;
        }
      }
    },
    async dispose() {
      await handle.close();
      await drop();
    },
  };
}

/** One database per engine per test file, created before and disposed after the suite. */
export function useTestDatabase(engine: DatabaseEngine): { readonly current: TestDatabase } {
  const holder: { current?: TestDatabase } = {};
  beforeAll(async () => {
    holder.current = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await holder.current?.dispose();
  });
  return {
    get current() {
      if (!holder.current) throw new Error('test database not ready: use it inside tests or hooks');
      return holder.current;
    },
  };
}

export async function buildTestApp(
  database: DatabaseHandle,
  options: Partial<Omit<BuildAppOptions, 'database'>> = {},
): Promise<App> {
  return buildApp({
    ...options,
    config: options.config ?? testConfig(),
    database,
    dataKey: options.dataKey ?? testDataKey,
    webDistDir: options.webDistDir === undefined ? null : options.webDistDir,
    // Tests prune when they mean to (app.retention.runOnce()).
    pruneIntervalMs: options.pruneIntervalMs === undefined ? null : options.pruneIntervalMs,
  });
}

/** What a browser sends on a state-changing call: the XSRF cookie and the matching header. */
export async function xsrfPair(app: App): Promise<{
  cookies: Record<string, string>;
  headers: Record<string, string>;
}> {
  const response = await app.inject({ method: 'GET', url: '/api/health' });
  // `__Host-XSRF-TOKEN` when the app's PUBLIC_ORIGIN is https.
  const cookie = [response.headers['set-cookie'] ?? []]
    .flat()
    .map((c) => /^((?:__Host-)?XSRF-TOKEN)=([^;]+)/.exec(c))
    .find((match) => match !== null);
  const [, name, token] = cookie ?? [];
  if (!name || !token) throw new Error('no XSRF-TOKEN cookie on /api/health');
  return { cookies: { [name]: token }, headers: { 'x-xsrf-token': token } };
}

/**
 * The messages the demo SMS provider sent during the current test, newest first. The provider's
 * log lives as long as the app, so each test counts from what was there when it began.
 */
export function useSentMessages(app: () => App): () => Promise<DevMessage[]> {
  const all = async (): Promise<DevMessage[]> => {
    await app().messaging.runOutbox();
    return (await app().inject({ method: 'GET', url: '/api/dev/messages' })).json();
  };
  let sentBefore = 0;
  beforeEach(async () => {
    sentBefore = (await all()).length;
  });
  return async () => {
    const sent = await all();
    return sent.slice(0, sent.length - sentBefore);
  };
}
