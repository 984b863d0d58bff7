import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { backoffDelayMs, type Backoff } from '../backoff.js';
import { migratePgliteDatabase, migratePostgresDatabase } from './migrate.js';
import * as schema from './schema.js';

export type Schema = typeof schema;

/** The drizzle database every repository takes, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** A transaction opened with `db.transaction(async (tx) => …)`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Where a repository function may run: the database, or a transaction the caller opened. */
export type Executor = Database | Transaction;

export type DatabaseEngine = 'pglite' | 'postgres';

export interface ListenHandlers {
  /** A NOTIFY on the channel, from any session (this process or another). */
  onNotification(payload: string): void;
  /**
   * true once LISTEN is in force (at first and again after a reconnection); false when the
   * connection is lost, from then on notifications may be missed until the next true.
   */
  onListeningChange?(listening: boolean): void;
}

export interface DatabaseHandle {
  readonly db: Database;
  readonly engine: DatabaseEngine;
  /** Resolves when the database answers `SELECT 1`. */
  ping(): Promise<void>;
  /** Applies pending migrations from apps/api/drizzle. */
  migrate(): Promise<void>;
  /**
   * LISTENs on `channel` (a lower-case SQL identifier). On PostgreSQL a dedicated connection,
   * outside the pool, reconnecting with back-off; on PGlite notifications arrive before the
   * notifying statement's promise resolves. Resolves after the first attempt, whether or not it
   * succeeded (onListeningChange tells); the returned function stops listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /** Idempotent; stops every listener. */
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connections (metrics). PGlite has one, in process. */
  poolStats?(): { total: number; idle: number; waiting: number };
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL server; when null, PGlite is used. */
  readonly databaseUrl: string | null;
  /** PGlite keeps its files in `<dataDir>/pg`; null keeps them in memory (tests). */
  readonly dataDir: string | null;
  /** Errors of idle pooled connections (server restart…); they must not crash the process. */
  readonly onPoolError?: (error: Error) => void;
  /**
   * PGlite in memory only: start from this copy of a data directory (`dumpDataDir`) instead of an
   * empty one. The test suites start each file from one migrated copy: loading it takes a fifth of
   * the time of creating a cluster and migrating it.
   */
  readonly pgliteDataDir?: Blob;
}

function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Bad channel name: ${channel}`);
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.onPoolError)
    : openPglite(options.dataDir, options.pgliteDataDir);
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<DatabaseHandle> {
  let client: PGlite;
  if (dataDir) {
    const pgDir = path.join(dataDir, 'pg');
    await mkdir(pgDir, { recursive: true });
    client = await PGlite.create(pgDir, { extensions: { btree_gist } });
  } else {
    client = await PGlite.create({ extensions: { btree_gist }, loadDataDir });
  }
  const db = drizzlePglite({ client, schema });
  return {
    db,
    engine: 'pglite',
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    migrate: () => migratePgliteDatabase(db),
    listen: async (channel, handlers) => {
      assertChannel(channel);
      const unlisten = await client.listen(channel, handlers.onNotification);
      handlers.onListeningChange?.(true);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
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
  const listeners = new Set<PostgresListener>();
  let closed = false;
  return {
    db,
    engine: 'postgres',
    ping: async () => {
      await db.execute(sql`SELECT 1`);
    },
    migrate: () => migratePostgresDatabase(pool),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: async (channel, handlers) => {
      assertChannel(channel);
      if (closed) throw new Error('The database is closed');
      const listener = new PostgresListener(url, channel, handlers, onPoolError);
      listeners.add(listener);
      await listener.start();
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((l) => l.stop()));
      listeners.clear();
      await pool.end();
    },
  };
}

/** The LISTEN connection's reconnections (platform/backoff.ts): below 250 ms, 500 ms… then 10 s. */
const RECONNECT_BACKOFF: Readonly<Backoff> = { firstMs: 250, maxMs: 10_000 };

/** One connection doing LISTEN; a lost connection is replaced, with back-off, until stopped. */
class PostgresListener {
  private client: pg.Client | null = null;
  private stopped = false;
  /** Reconnections failed in a row. */
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly handlers: ListenHandlers,
    private readonly onError: (error: Error) => void,
  ) {}

  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      this.onError(error as Error);
      this.scheduleReconnect();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    // keepAlive: a peer that vanished without closing the socket is noticed, not waited on forever.
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.handlers.onNotification(message.payload ?? '');
    });
    client.on('error', (error) => {
      this.onError(error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.failures = 0;
    this.handlers.onListeningChange?.(true);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => {});
    if (this.stopped) return;
    this.handlers.onListeningChange?.(false);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retryTimer) return;
    this.failures += 1;
    const delay = backoffDelayMs(RECONNECT_BACKOFF, this.failures);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopped) return;
      this.connect().catch((error: unknown) => {
        this.onError(error as Error);
        this.scheduleReconnect();
      });
    }, delay);
    // A pending reconnection must not keep the process alive on its own.
    this.retryTimer.unref();
  }
}
