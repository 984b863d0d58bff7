import { loadConfig, type Config } from '../platform/config.js';
import { loadDataKey } from '../platform/crypto.js';
import { acquireDataDirLock } from '../platform/data-dir-lock.js';
import { openDatabase, type DatabaseHandle } from '../platform/db/client.js';
import { claimDataKeys } from '../platform/key-rotation.js';

export interface WithDatabaseOptions {
  /** Default: loaded from the environment. */
  config?: Config;
  /**
   * Default true: as the server does, a command must not seal with a key the servers cannot
   * read. The demo seed, which seals nothing, leaves the keys alone.
   */
  claimKeys?: boolean;
}

/** Runs `work` on the configured database, migrated, holding DATA_DIR's lock when embedded. */
export async function withDatabase<T>(
  work: (database: DatabaseHandle, config: Config) => Promise<T>,
  { config = loadConfig(), claimKeys = true }: WithDatabaseOptions = {},
): Promise<T> {
  // Same rule as the server: one process at a time on an embedded database.
  const lock = config.databaseUrl ? null : await acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    try {
      await database.migrate();
      if (claimKeys) {
        await claimDataKeys(database.db, {
          current: await loadDataKey(config),
          previous: config.previousDataKeys,
        });
      }
      return await work(database, config);
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

/** The type of `withDatabase`, for commands that take it. */
export type WithDatabase = typeof withDatabase;
