import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Pool } from 'pg';
import { migrationsDir } from '../../paths.js';

// Any constant works; it only has to be the same for every Marpe instance sharing a server.
const MIGRATION_LOCK_KEY = '7170923281';

export async function migratePgliteDatabase(
  db: PgliteDatabase<Record<string, unknown>>,
): Promise<void> {
  await migratePglite(db, { migrationsFolder: migrationsDir });
}

/** Several instances may start together against one server: an advisory lock serialises them. */
export async function migratePostgresDatabase(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder: migrationsDir });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
