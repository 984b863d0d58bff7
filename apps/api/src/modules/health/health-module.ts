import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { migrationsDir } from '../../paths.js';
import type { DatabaseHandle } from '../../platform/db/client.js';
import { healthRoutes, type Readiness } from './health-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness: `drain()` on SIGTERM turns it 503 for good (docs/operations.md, "Health"). */
    health: { drain(): void; readonly draining: boolean };
  }
}

/** The `when` of this build's newest migration: drizzle records it as `created_at` once applied. */
function newestMigration(): number {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * `GET /api/health/live` (the process answers), `GET /api/health/ready` and `GET /api/health`
 * (the database answers, this build's migrations are applied, the server is not draining).
 */
export async function registerHealth(
  app: FastifyInstance,
  deps: { database: Pick<DatabaseHandle, 'db' | 'ping'> },
): Promise<void> {
  const { database } = deps;
  const newest = newestMigration();
  let draining = false;
  // Once seen applied, a migration stays applied: later checks only ping.
  let migrated = false;

  const readiness: Readiness = async () => {
    if (draining) return 'The server is shutting down';
    if (migrated) {
      await database.ping();
      return null;
    }
    const result = await database.db.execute(
      sql`SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations WHERE created_at >= ${newest}`,
    );
    const [row] = (result as unknown as { rows: { applied: number }[] }).rows;
    migrated = (row?.applied ?? 0) > 0;
    return migrated ? null : 'The database migrations are not applied yet';
  };

  app.decorate('health', {
    drain: () => {
      draining = true;
    },
    get draining() {
      return draining;
    },
  });
  await app.register(healthRoutes, { prefix: '/api', readiness });
}
