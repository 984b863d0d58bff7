import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.js';
import { createWorkerLoop } from './worker-loop.js';

// Pruning of rows whose work is done (docs/operations.md, "Retention"; ADR 030): processed outbox
// rows, delivered webhook deliveries, expired challenges and connection tokens, after RETENTION_DAYS;
// given-up rows (kept for inspection) after RETENTION_DEAD_DAYS. A list of tables here, like
// key-rotation's list of sealed columns, so that one job walks them all.

const DAY = 86_400_000;
/** Rows deleted per statement: short transactions, no long lock on a busy table. */
export const RETENTION_BATCH = 1000;
/** How often each process tries; only one at a time does the work. */
export const RETENTION_INTERVAL_MS = 3_600_000;
// Any constant; the same in every instance sharing a server (the migrations' is 7170923281).
const RETENTION_LOCK_KEY = 7170923282;

interface Pruned {
  table: string;
  /** The rows to delete, given the cut-offs: processed before `done`, given up before `dead`. */
  where: (cutoff: { done: string; dead: string }) => SQL;
}

const pruned: readonly Pruned[] = [
  {
    table: 'outbox',
    where: ({ done, dead }) =>
      sql`(status IN ('sent', 'expired') AND processed_at < ${done}::timestamptz) OR (status = 'failed' AND processed_at < ${dead}::timestamptz)`,
  },
  {
    table: 'webhook_deliveries',
    where: ({ done, dead }) =>
      sql`(status = 'delivered' AND created_at < ${done}::timestamptz) OR (status = 'failed' AND created_at < ${dead}::timestamptz)`,
  },
  {
    table: 'auth_challenges',
    where: ({ done }) => sql`expires_at < ${done}::timestamptz`,
  },
  {
    table: 'connection_tokens',
    where: ({ done }) => sql`expires_at < ${done}::timestamptz`,
  },
  {
    // Delivery states answer "did it arrive?" for as long as the outbox row they came from is kept.
    table: 'message_deliveries',
    where: ({ done }) => sql`created_at < ${done}::timestamptz`,
  },
];

interface Erased {
  /** How the count is reported: `<table>.<column>`. */
  name: string;
  table: string;
  /** What the erasure sets. */
  set: SQL;
  /** The rows to erase, given the instant now. */
  where: (now: string) => SQL;
}

/**
 * Secrets kept for a while beside their replacement, erased (not the row) the moment that while
 * is over: what no longer signs or opens anything must not wait in the database for a leak.
 */
const erased: readonly Erased[] = [
  {
    // A rotated webhook secret signs beside the new one for 24 hours (webhooks-service.ts).
    name: 'webhook_endpoints.previous_secret',
    table: 'webhook_endpoints',
    set: sql`previous_secret = NULL, previous_secret_until = NULL`,
    where: (now) =>
      sql`previous_secret IS NOT NULL AND (previous_secret_until IS NULL OR previous_secret_until <= ${now}::timestamptz)`,
  },
  {
    // A WhatsApp fallback's text waits for the SMS's final receipt; one that never comes must not
    // keep the text. The outbox gives a message up after 48 hours; so does this.
    name: 'message_deliveries.fallback',
    table: 'message_deliveries',
    set: sql`fallback = NULL`,
    where: (now) =>
      sql`fallback IS NOT NULL AND created_at <= ${now}::timestamptz - interval '48 hours'`,
  },
];

export interface RetentionOptions {
  db: Database;
  /** Epoch milliseconds. */
  clock: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** RETENTION_DAYS. */
  days: number;
  /** RETENTION_DEAD_DAYS: given-up rows. */
  deadDays: number;
  batch?: number;
  /** How often each process tries (default RETENTION_INTERVAL_MS). */
  intervalMs?: number;
}

export interface Retention {
  /**
   * Deletes what is past its retention and erases secrets past their overlap, batch by batch;
   * resolves with the rows deleted per table (and erased per `table.column`), or null when another
   * process holds the job (it does the work).
   */
  runOnce(): Promise<Record<string, number> | null>;
  start(): void;
  stop(): Promise<void>;
}

export function createRetention(options: RetentionOptions): Retention {
  const { db, clock, log } = options;
  const batch = options.batch ?? RETENTION_BATCH;

  /** One statement in a transaction holding the job's lock; null when another process has it. */
  async function underLock(statement: SQL): Promise<number | null> {
    return db.transaction(async (tx) => {
      const lock = await tx.execute(
        sql`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) AS taken`,
      );
      if (!(lock as unknown as { rows: { taken: boolean }[] }).rows[0]?.taken) return null;
      const result = await tx.execute(statement);
      return (
        (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ??
        (result as unknown as { affectedRows?: number }).affectedRows ??
        0
      );
    });
  }

  /** One batch of one table; null when another process holds the job. */
  function deleteBatch(entry: Pruned, where: SQL): Promise<number | null> {
    const table = sql.identifier(entry.table);
    return underLock(
      sql`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} ORDER BY id LIMIT ${batch})`,
    );
  }

  function eraseBatch(entry: Erased, now: string): Promise<number | null> {
    const table = sql.identifier(entry.table);
    return underLock(
      sql`UPDATE ${table} SET ${entry.set} WHERE id IN (SELECT id FROM ${table} WHERE ${entry.where(now)} ORDER BY id LIMIT ${batch})`,
    );
  }

  async function prune(): Promise<Record<string, number> | null> {
    const now = clock();
    const cutoff = {
      done: new Date(now - options.days * DAY).toISOString(),
      dead: new Date(now - options.deadDays * DAY).toISOString(),
    };
    const deleted: Record<string, number> = {};
    for (const entry of pruned) {
      const where = entry.where(cutoff);
      let total = 0;
      for (;;) {
        const count = await deleteBatch(entry, where);
        if (count === null) return null;
        total += count;
        if (count < batch) break;
      }
      deleted[entry.table] = total;
    }
    for (const entry of erased) {
      let total = 0;
      for (;;) {
        const count = await eraseBatch(entry, new Date(now).toISOString());
        if (count === null) return null;
        total += count;
        if (count < batch) break;
      }
      deleted[entry.name] = total;
    }
    return deleted;
  }

  const intervalMs = options.intervalMs ?? RETENTION_INTERVAL_MS;
  const loop = createWorkerLoop({
    name: 'retention',
    async run() {
      const deleted = await prune();
      if (deleted && Object.values(deleted).some((count) => count > 0)) {
        log.info({ deleted }, 'retention: pruned old rows');
      }
      return deleted;
    },
    everyMs: intervalMs,
    // Not at start-up itself: a deployment starting many instances need not prune at once.
    firstRunAfterMs: Math.min(intervalMs, 60_000),
    log,
  });
  return { runOnce: loop.runOnce, start: loop.start, stop: loop.stop };
}
