import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { backoffDelayMs, type Backoff } from '../backoff.js';
import { decryptText, encryptText, sealedAt, type SealingKey } from '../crypto.js';
import type { Database } from '../db/client.js';
import { outbox, outboxLanes, type OutboxLane } from '../db/schema.js';
import { createWorkerLoop, withoutQueryParams, type WorkerLoop } from '../worker-loop.js';
import type { Outbox, OutboxHandler, OutboxOutcome, OutboxRemains } from './outbox-contract.js';

// Home-made rather than pg-boss or graphile-worker: both expect a PostgreSQL server reached through
// `pg` (their own schema, LISTEN, advisory locks, several connections), which PGlite's single
// in-process connection does not offer, and neither can enqueue inside a drizzle transaction on
// both engines. One table and one claim statement do the job. See docs/decisions/005-outbox.md.

/** How many rows of a lane one process works on at once, unless OutboxOptions say otherwise. */
export const OUTBOX_LANE_CONCURRENCY: Readonly<Record<OutboxLane, number>> = {
  codes: 4,
  default: 4,
  webhooks: 16,
};

/**
 * How long a claim holds a row of each lane before another process may take it, renewed every
 * quarter of it while the handler runs: a process that dies (SIGKILL, a lost machine) leaves a
 * login code to the others within seconds, and a slow handler that is alive keeps its row.
 */
export const OUTBOX_LANE_LEASE_MS: Readonly<Record<OutboxLane, number>> = {
  codes: 8_000,
  default: 5 * 60_000,
  webhooks: 5 * 60_000,
};

export interface OutboxOptions {
  db: Database;
  /** Encrypts payloads at rest: `sealingKey(dataKeys, 'outbox')`. */
  key: SealingKey;
  /** Epoch milliseconds. */
  clock: () => number;
  log: FastifyBaseLogger;
  handlers: Readonly<Record<string, OutboxHandler>>;
  pollIntervalMs?: number;
  /** Rows worked at once per lane (default OUTBOX_LANE_CONCURRENCY). */
  concurrency?: Partial<Record<OutboxLane, number>>;
  /**
   * How long a claim holds a row, for every lane or per lane (default OUTBOX_LANE_LEASE_MS). A
   * worker that dies mid-run leaves its rows to others after this; a live one renews it.
   */
  leaseMs?: number | Partial<Record<OutboxLane, number>>;
  /** Told how each try ended (metrics); must not throw. */
  observe?: (outcome: OutboxOutcome) => void;
  /**
   * By topic: what a failed or expired row of a clinic keeps of its payload (OutboxRemains);
   * nothing unless said.
   */
  remains?: Readonly<Record<string, OutboxRemains>>;
  /** The backoff's draw in [0, 1) (Math.random unless a test pins it). */
  random?: () => number;
}

/** A payload (or what a given-up row keeps of it) is bound to its row. */
export const outboxPayloadAt = (id: number) => sealedAt('outbox', 'payload', id);
const payloadAt = outboxPayloadAt;

/** The outbox's retries (platform/backoff.ts): below 1 s, 2 s, 4 s… then below 10 minutes. */
export const OUTBOX_BACKOFF: Readonly<Backoff> = { firstMs: 1000, maxMs: 10 * 60_000 };
/** A row not done this long after it was written is given up ('failed'). */
export const OUTBOX_GIVE_UP_MS = 48 * 3600_000;
const LAST_ERROR_MAX_LENGTH = 200;

type ClaimedRow = Pick<
  typeof outbox.$inferSelect,
  'id' | 'topic' | 'payload' | 'attempts' | 'expiresAt' | 'createdAt' | 'clinicId'
>;

export function createOutbox(options: OutboxOptions): Outbox {
  const { db, key, clock, log, handlers } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const leaseMs: Record<OutboxLane, number> =
    typeof options.leaseMs === 'number'
      ? { codes: options.leaseMs, default: options.leaseMs, webhooks: options.leaseMs }
      : { ...OUTBOX_LANE_LEASE_MS, ...options.leaseMs };
  const concurrency = { ...OUTBOX_LANE_CONCURRENCY, ...options.concurrency };
  const observe = options.observe ?? (() => {});
  const remains = options.remains ?? {};
  const random = options.random ?? Math.random;

  async function claim(lane: OutboxLane, limit: number): Promise<ClaimedRow[]> {
    const now = new Date(clock());
    // SKIP LOCKED lets several instances claim at once without waiting on or taking each other's
    // rows; the lease (locked_until) keeps a claimed row away from them once this statement ends.
    const due = db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.lane, lane),
          eq(outbox.status, 'pending'),
          lte(outbox.nextAttemptAt, now),
          or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now)),
        ),
      )
      .orderBy(outbox.id)
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows = await db
      .update(outbox)
      .set({
        lockedUntil: new Date(now.getTime() + leaseMs[lane]),
        attempts: sql`${outbox.attempts} + 1`,
      })
      .where(inArray(outbox.id, due))
      .returning({
        id: outbox.id,
        topic: outbox.topic,
        payload: outbox.payload,
        attempts: outbox.attempts,
        expiresAt: outbox.expiresAt,
        createdAt: outbox.createdAt,
        clinicId: outbox.clinicId,
      });
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Extends the lease of the rows in hand that are still this process's claims. */
  async function renew(lane: OutboxLane, rows: readonly ClaimedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .update(outbox)
      .set({ lockedUntil: new Date(clock() + leaseMs[lane]) })
      .where(
        and(
          eq(outbox.status, 'pending'),
          // Settled meanwhile (a retry later clears the lease): not to be held again.
          isNotNull(outbox.lockedUntil),
          or(...rows.map((row) => and(eq(outbox.id, row.id), eq(outbox.attempts, row.attempts)))),
        ),
      );
  }

  /** Writes the outcome, unless the claim was lost (lease over and the row claimed again). */
  async function settle(row: ClaimedRow, values: Partial<typeof outbox.$inferInsert>) {
    await db
      .update(outbox)
      .set(values)
      .where(
        and(eq(outbox.id, row.id), eq(outbox.status, 'pending'), eq(outbox.attempts, row.attempts)),
      );
  }

  async function done(
    row: ClaimedRow,
    status: 'sent' | 'expired' | 'failed',
    lastError?: string,
    payload?: unknown,
  ) {
    const values: Partial<typeof outbox.$inferInsert> = {
      status,
      payload: status === 'sent' ? null : remainsOf(row, payload),
      lockedUntil: null,
      processedAt: new Date(clock()),
    };
    if (lastError !== undefined) values.lastError = lastError;
    await settle(row, values);
  }

  async function retryLater(row: ClaimedRow, lastError: string) {
    await settle(row, {
      nextAttemptAt: new Date(clock() + backoffDelayMs(OUTBOX_BACKOFF, row.attempts, random)),
      lockedUntil: null,
      lastError,
    });
  }

  /**
   * The sealed remains of a given-up clinic's row (its topic's OutboxRemains), else null: a row of
   * no clinic has no one to show them to.
   */
  function remainsOf(row: ClaimedRow, payload: unknown): string | null {
    const keep = Object.hasOwn(remains, row.topic) ? remains[row.topic] : undefined;
    if (!keep || row.payload === null || row.clinicId === null) return null;
    try {
      const open =
        payload === undefined
          ? JSON.parse(decryptText(key, row.payload, payloadAt(row.id)))
          : payload;
      const kept = keep(open);
      return kept === null ? null : encryptText(key, JSON.stringify(kept), payloadAt(row.id));
    } catch {
      // A payload that cannot be read keeps nothing: the row is given up all the same.
      return null;
    }
  }

  /** Gives back the attempt the claim counted: the handler did not try. */
  async function defer(row: ClaimedRow, deferUntil: number) {
    await settle(row, {
      nextAttemptAt: new Date(deferUntil),
      lockedUntil: null,
      attempts: row.attempts - 1,
    });
  }

  async function handleRow(row: ClaimedRow): Promise<void> {
    const now = clock();
    if (row.expiresAt && row.expiresAt.getTime() <= now) {
      await done(row, 'expired');
      observe({ topic: row.topic, outcome: 'expired' });
      return;
    }
    const handler = Object.hasOwn(handlers, row.topic) ? handlers[row.topic] : undefined;
    if (!handler) {
      // A newer instance (rolling deploy) may know the topic: leave it to it.
      log.warn({ outboxId: row.id, topic: row.topic }, 'outbox: no handler for this topic yet');
      await retryLater(row, `No handler for topic ${row.topic}`);
      return;
    }
    // Decided before the try, so that what the handler is told is what happens.
    const isLast = now - row.createdAt.getTime() >= OUTBOX_GIVE_UP_MS;
    let payload: unknown;
    let deferUntil: number | null = null;
    try {
      payload = JSON.parse(decryptText(key, row.payload ?? '', payloadAt(row.id)));
      await handler(payload, {
        id: row.id,
        clinicId: row.clinicId,
        expiresAt: row.expiresAt?.getTime() ?? null,
        createdAt: row.createdAt.getTime(),
        isLast,
        defer(until) {
          deferUntil = until;
        },
      });
    } catch (error) {
      const lastError = describeError(error, payload);
      const permanent = (error as { permanent?: unknown } | null)?.permanent === true;
      if (isLast || permanent) {
        log.error(
          { outboxId: row.id, topic: row.topic },
          permanent
            ? 'outbox: given up, the failure is permanent'
            : 'outbox: given up after 48 hours',
        );
        await done(row, 'failed', lastError, payload);
        observe({ topic: row.topic, outcome: 'failed' });
      } else {
        log.warn(
          { outboxId: row.id, topic: row.topic, attempts: row.attempts },
          'outbox: attempt failed, will retry',
        );
        await retryLater(row, lastError);
        observe({ topic: row.topic, outcome: 'retry' });
      }
      return;
    }
    if (deferUntil === null) await done(row, 'sent');
    else await defer(row, deferUntil);
    observe({ topic: row.topic, outcome: deferUntil === null ? 'sent' : 'deferred' });
  }

  /**
   * Keeps up to the lane's concurrency of rows in hand, claiming more as each finishes, until
   * nothing more is due; then waits for those in hand.
   */
  async function runLane(lane: OutboxLane): Promise<number> {
    const limit = concurrency[lane];
    const inHand = new Set<Promise<void>>();
    const held = new Map<number, ClaimedRow>();
    let handled = 0;
    // While rows are in hand their claims are renewed; a renewal that fails is tried again at
    // the next beat (the row may go to another process meanwhile, which `settle` allows for).
    const heartbeat = setInterval(() => {
      renew(lane, [...held.values()]).catch((error: unknown) => {
        log.warn({ err: withoutQueryParams(error), lane }, 'outbox: lease renewal failed');
      });
    }, leaseMs[lane] / 4);
    heartbeat.unref();
    try {
      for (;;) {
        const free = limit - inHand.size;
        const rows = await claim(lane, free);
        for (const row of rows) {
          held.set(row.id, row);
          const work: Promise<void> = handleRow(row)
            .catch((error: unknown) => {
              log.error({ err: withoutQueryParams(error), outboxId: row.id }, 'outbox: row failed');
            })
            .finally(() => {
              held.delete(row.id);
              inHand.delete(work);
            });
          inHand.add(work);
        }
        handled += rows.length;
        if (rows.length < free) return handled;
        await Promise.race(inHand);
      }
    } finally {
      await Promise.all(inHand);
      clearInterval(heartbeat);
    }
  }

  const loops = Object.fromEntries(
    outboxLanes.map((lane) => [
      lane,
      createWorkerLoop({
        name: `outbox (${lane})`,
        run: () => runLane(lane),
        everyMs: pollIntervalMs,
        log,
      }),
    ]),
  ) as Record<OutboxLane, WorkerLoop<number>>;

  async function runOnce(lane?: OutboxLane): Promise<number> {
    if (lane) return loops[lane].runOnce();
    const counts = await Promise.all(outboxLanes.map((each) => loops[each].runOnce()));
    return counts.reduce((sum, count) => sum + count, 0);
  }

  return {
    async enqueue(executor, item) {
      const json = JSON.stringify(item.payload);
      if (json === undefined) throw new TypeError('The outbox payload must be JSON');
      const now = new Date(clock());
      // The row's id first (from its identity's sequence): the payload is encrypted bound to it.
      const ids = await executor.execute(
        sql`SELECT nextval(pg_get_serial_sequence('outbox', 'id'))::int AS id`,
      );
      const id = Number((ids as unknown as { rows: { id: number }[] }).rows[0]?.id);
      await executor.insert(outbox).values({
        id,
        topic: item.topic,
        lane: item.lane ?? 'default',
        payload: encryptText(key, json, payloadAt(id)),
        status: 'pending',
        nextAttemptAt: item.notBefore ?? now,
        expiresAt: item.expiresAt ?? null,
        clinicId: item.clinicId ?? null,
        createdAt: now,
      });
    },
    kick(lane) {
      for (const each of lane ? [lane] : outboxLanes) loops[each].kick();
    },
    runOnce,
    start() {
      for (const lane of outboxLanes) loops[lane].start();
    },
    async stop() {
      await Promise.all(outboxLanes.map((lane) => loops[lane].stop()));
    },
  };
}

/** A short text for `last_error`: the error's name and message, any payload string blanked out. */
function describeError(error: unknown, payload: unknown): string {
  let text =
    error instanceof Error ? `${error.name}: ${withoutQueryParams(error).message}` : String(error);
  for (const secret of stringsIn(payload)) {
    if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  }
  return text.slice(0, LAST_ERROR_MAX_LENGTH);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
