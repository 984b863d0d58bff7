import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { decryptText, encryptText, sealedAt, type SealingKey } from '../crypto.js';
import type { Database, Executor } from '../db/client.js';
import { outbox, outboxLanes, type OutboxLane } from '../db/schema.js';

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

/** What a handler is told about the try it is making. */
export interface OutboxAttempt {
  /** The row's id: a handler keeping its own record of the work (SMS deliveries) names it. */
  id: number;
  /** The clinic the row is a message of (OutboxItem.clinicId); null for none. */
  clinicId: number | null;
  /** When the work stops being of use (epoch ms; OutboxItem.expiresAt); null for never. */
  expiresAt: number | null;
  /** When the row was written (epoch ms). */
  createdAt: number;
  /**
   * The row is given up ('failed') if this try throws: a handler keeping its own record of the
   * work (webhook deliveries) marks it failed then, since the outbox calls nothing afterwards.
   */
  isLast: boolean;
  /**
   * "Not now, and this was no try": once the handler resolves, the row goes back to pending
   * until `until` (epoch ms) without counting an attempt or touching `last_error` (an endpoint
   * at its concurrency limit, or one whose circuit breaker is open).
   */
  defer(until: number): void;
}

/**
 * Does the work of one row. Throwing means "try again later"; the error's text is stored in
 * `last_error`, so it must not quote the payload (codes, phone numbers). An error with
 * `permanent: true` (an SMS provider's "invalid number") gives the row up at once: trying again
 * for 48 hours cannot help.
 */
export type OutboxHandler = (payload: unknown, attempt: OutboxAttempt) => Promise<void>;

export interface OutboxItem {
  topic: string;
  /** Anything JSON can hold; stored encrypted and erased once processed. */
  payload: unknown;
  /** Past this instant the work is pointless: the row is marked 'expired' instead. */
  expiresAt?: Date;
  /** The lane that works the row; 'default' unless said. */
  lane?: OutboxLane;
  /** Not worked before this instant (a later second look); at once unless said. */
  notBefore?: Date;
  /**
   * The clinic a message is sent for: its owners see it if it fails or expires
   * (`GET /api/integration/message-failures`). Rows that are no clinic's message leave it out.
   */
  clinicId?: number;
}

/**
 * What a row of a topic keeps of its payload once it fails or expires, instead of nothing: facts
 * the clinic's owners are shown (whom a message was for, what it was for), never a secret or the
 * text. Sealed like the payload; the rest is erased as for every processed row.
 */
export type OutboxRemains = (payload: unknown) => Record<string, unknown> | null;

export interface Outbox {
  /** Adds a row in the caller's transaction; call `kick()` once that transaction has committed. */
  enqueue(executor: Executor, item: OutboxItem): Promise<void>;
  /**
   * Runs the worker of a lane (of every lane without one) now instead of at the next poll.
   * Does nothing unless started.
   */
  kick(lane?: OutboxLane): void;
  /**
   * Processes every row of the lane (of every lane, each independently, without one) due now,
   * after any run of that lane under way (so what a kick started is done too); resolves with
   * how many rows this run took.
   */
  runOnce(lane?: OutboxLane): Promise<number>;
  /** Polls every `pollIntervalMs`, and runs at once. */
  start(): void;
  /** Stops polling and waits for the runs under way. */
  stop(): Promise<void>;
}

/** How one try of one row ended: for metrics (platform/metrics.ts). */
export interface OutboxOutcome {
  topic: string;
  /** retry: failed, tried again later; failed: given up; deferred: not tried (no attempt). */
  outcome: 'sent' | 'expired' | 'retry' | 'failed' | 'deferred';
}

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
}

/** A payload (or what a given-up row keeps of it) is bound to its row. */
export const outboxPayloadAt = (id: number) => sealedAt('outbox', 'payload', id);
const payloadAt = outboxPayloadAt;

export const OUTBOX_FIRST_RETRY_MS = 1000;
export const OUTBOX_MAX_RETRY_MS = 10 * 60_000;
/** A row not done this long after it was written is given up ('failed'). */
export const OUTBOX_GIVE_UP_MS = 48 * 3600_000;
const LAST_ERROR_MAX_LENGTH = 200;

/**
 * The delay before the next try after `attempts` tries: 1 s, 2 s, 4 s… capped at 10 minutes,
 * less up to a quarter at random so that rows failed together do not all come back together.
 */
export function outboxRetryDelayMs(attempts: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const delay = Math.min(OUTBOX_FIRST_RETRY_MS * 2 ** exponent, OUTBOX_MAX_RETRY_MS);
  return Math.round(delay * (1 - 0.25 * random()));
}

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
      nextAttemptAt: new Date(clock() + outboxRetryDelayMs(row.attempts)),
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

  interface LaneState {
    /** The last run of this lane in this process; other processes are kept off by the claims. */
    lastRun: Promise<unknown>;
    running: Promise<void> | null;
    runAgain: boolean;
  }
  const lanes = Object.fromEntries(
    outboxLanes.map((lane) => [
      lane,
      { lastRun: Promise.resolve(), running: null, runAgain: false } satisfies LaneState,
    ]),
  ) as Record<OutboxLane, LaneState>;

  function runLaneOnce(lane: OutboxLane): Promise<number> {
    const state = lanes[lane];
    const run = state.lastRun.then(() => runLane(lane));
    state.lastRun = run.catch(() => {});
    return run;
  }

  async function runOnce(lane?: OutboxLane): Promise<number> {
    if (lane) return runLaneOnce(lane);
    const counts = await Promise.all(outboxLanes.map(runLaneOnce));
    return counts.reduce((sum, count) => sum + count, 0);
  }

  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  function kickLane(lane: OutboxLane): void {
    const state = lanes[lane];
    if (state.running) {
      state.runAgain = true;
      return;
    }
    state.running = (async () => {
      do {
        state.runAgain = false;
        try {
          await runLaneOnce(lane);
        } catch (error) {
          log.error({ err: withoutQueryParams(error), lane }, 'outbox: run failed');
        }
      } while (state.runAgain && !stopped);
    })().finally(() => {
      state.running = null;
    });
  }

  function kick(lane?: OutboxLane): void {
    if (!started || stopped) return;
    if (lane) kickLane(lane);
    else for (const each of outboxLanes) kickLane(each);
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
    kick,
    runOnce,
    start() {
      if (started || stopped) return;
      started = true;
      timer = setInterval(() => kick(), pollIntervalMs);
      timer.unref();
      kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      for (const lane of outboxLanes) {
        await lanes[lane].running;
        await lanes[lane].lastRun;
      }
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

/** Drizzle's query errors quote the query's parameters; the driver's error (cause) does not. */
function withoutQueryParams(error: unknown): Error {
  if (error instanceof Error && 'params' in error && error.cause instanceof Error) {
    return error.cause;
  }
  return error instanceof Error ? error : new Error(String(error));
}
