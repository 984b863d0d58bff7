import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { migratePgliteDatabase, migratePostgresDatabase } from './migrate.js';
import * as schema from './schema.js';

export type Schema = typeof schema;

/** The drizzle database every repository takes, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseEngine = 'pglite' | 'postgres';

export interface DatabaseHandle {
  readonly db: Database;
  readonly engine: DatabaseEngine;
  /** Resolves when the database answers `SELECT 1`. */
  ping(): Promise<void>;
  /** Applies pending migrations from apps/api/drizzle. */
  migrate(): Promise<void>;
  /** Idempotent. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL server; when null, PGlite is used. */
  readonly databaseUrl: string | null;
  /** PGlite keeps its files in `<dataDir>/pg`; null keeps them in memory (tests). */
  readonly dataDir: string | null;
  /** Errors of idle pooled connections (server restart…); they must not crash the process. */
  readonly onPoolError?: (error: Error) => void;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.onPoolError)
    : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | null): Promise<DatabaseHandle> {
  let client: PGlite;
  if (dataDir) {
    const pgDir = path.join(dataDir, 'pg');
    await mkdir(pgDir, { recursive: true });
    client = await PGlite.create(pgDir, { extensions: { btree_gist } });
  } else {
    client = await PGlite.create({ extensions: { btree_gist } });
  }
  const db = drizzlePglite({ client, schema });
  return {
    db,
    engine: 'pglite',
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    migrate: () => migratePgliteDatabase(db),
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(
  url: string,
  onPoolError: (error: Error) => void = () => {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url });
  pool.on('error', onPoolError);
  const db = drizzleNodePg({ client: pool, schema });
  let closed = false;
  return {
    db,
    engine: 'postgres',
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    migrate: () => migratePostgresDatabase(pool),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
