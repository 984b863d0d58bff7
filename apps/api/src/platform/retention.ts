import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client.js';

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
}

export interface Retention {
  /**
   * Deletes what is past its retention, batch by batch; resolves with the rows deleted per table,
   * or null when another process holds the job (it does the work).
   */
  runOnce(): Promise<Record<string, number> | null>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function createRetention(options: RetentionOptions): Retention {
  const { db, clock, log } = options;
  const batch = options.batch ?? RETENTION_BATCH;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();

  /** One batch of one table in a transaction holding the job's lock; null when another has it. */
  async function deleteBatch(entry: Pruned, where: SQL): Promise<number | null> {
    return db.transaction(async (tx) => {
      const lock = await tx.execute(
        sql`SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) AS taken`,
      );
      if (!(lock as unknown as { rows: { taken: boolean }[] }).rows[0]?.taken) return null;
      const table = sql.identifier(entry.table);
      const result = await tx.execute(
        sql`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} ORDER BY id LIMIT ${batch})`,
      );
      return (
        (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ??
        (result as unknown as { affectedRows?: number }).affectedRows ??
        0
      );
    });
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
    return deleted;
  }

  function runOnce() {
    const run = running.then(prune);
    running = run.catch(() => {});
    return run;
  }

  return {
    runOnce,
    start(intervalMs = RETENTION_INTERVAL_MS) {
      if (timer || stopped) return;
      const tick = () => {
        if (stopped) return;
        runOnce().then(
          (deleted) => {
            if (deleted && Object.values(deleted).some((count) => count > 0)) {
              log.info({ deleted }, 'retention: pruned old rows');
            }
          },
          (error: unknown) => log.error({ err: error }, 'retention: pruning failed'),
        );
      };
      timer = setInterval(tick, intervalMs);
      timer.unref();
      // Not at start-up itself: a deployment starting many instances need not prune at once.
      setTimeout(tick, Math.min(intervalMs, 60_000)).unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
