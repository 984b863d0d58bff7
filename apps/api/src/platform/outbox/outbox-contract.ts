import type { Executor } from '../db/client.js';
import type { OutboxLane } from '../db/schema.js';

// What the modules see of the outbox (platform/outbox/outbox.ts): the items they enqueue, the
// handlers they give it per topic, and what it tells of each try.

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
