import type { FastifyBaseLogger } from 'fastify';

// The one loop of every background job (docs/decisions/044-worker-loop-and-backoff.md): the
// outbox's lanes, the reminders and retention run their work through it, so that "never two runs
// at once", "a kick runs soon", "an error is logged, not fatal" and "close waits for the run" are
// written once.

export interface WorkerLoopOptions<Result> {
  /** Names the job in its log lines (`<name>: run failed`). */
  name: string;
  /** One run of the job. Its errors reach a `runOnce` caller; the loop logs them and goes on. */
  run: () => Promise<Result>;
  /** How often the loop runs once started. */
  everyMs: number;
  /** The first run after `start()`: at once unless said (retention waits, see there). */
  firstRunAfterMs?: number;
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface WorkerLoop<Result> {
  /** Runs the job now, after the run under way if any; resolves or rejects with this run. */
  runOnce(): Promise<Result>;
  /**
   * Runs the job soon: at once when idle, else once more after the run under way (any number of
   * kicks during a run make one more run). Does nothing unless started, nor once stopped.
   */
  kick(): void;
  /** Runs every `everyMs` (first after `firstRunAfterMs`). Timers never keep the process alive. */
  start(): void;
  /** No run starts after this; resolves once the run under way has ended. */
  stop(): Promise<void>;
}

export function createWorkerLoop<Result>(options: WorkerLoopOptions<Result>): WorkerLoop<Result> {
  const { name, run, everyMs, log } = options;
  /** The last run asked for: the next one starts after it, so runs never overlap. */
  let lastRun: Promise<unknown> = Promise.resolve();
  /** The kicked runs under way, with whether a kick came in meanwhile. */
  let kicked: Promise<void> | null = null;
  let kickedAgain = false;
  let started = false;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];

  function runOnce(): Promise<Result> {
    const thisRun = lastRun.then(run);
    lastRun = thisRun.catch(() => {});
    return thisRun;
  }

  function kick(): void {
    if (!started || stopped) return;
    if (kicked) {
      kickedAgain = true;
      return;
    }
    kicked = (async () => {
      do {
        kickedAgain = false;
        try {
          await runOnce();
        } catch (error) {
          log.error({ err: withoutQueryParams(error) }, `${name}: run failed`);
        }
      } while (kickedAgain && !stopped);
    })().finally(() => {
      kicked = null;
    });
  }

  return {
    runOnce,
    kick,
    start() {
      if (started || stopped) return;
      started = true;
      const every = setInterval(kick, everyMs);
      every.unref();
      timers.push(every);
      const firstRunAfterMs = options.firstRunAfterMs ?? 0;
      if (firstRunAfterMs === 0) {
        kick();
      } else {
        const first = setTimeout(kick, firstRunAfterMs);
        first.unref();
        timers.push(first);
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers.splice(0)) clearTimeout(timer);
      await kicked;
      await lastRun;
    },
  };
}

/**
 * Drizzle's query errors quote the query's parameters (phone numbers, codes); the driver's error
 * (their cause) does not. What a job logs or stores of an error goes through this.
 */
export function withoutQueryParams(error: unknown): Error {
  if (error instanceof Error && 'params' in error && error.cause instanceof Error) {
    return error.cause;
  }
  return error instanceof Error ? error : new Error(String(error));
}
