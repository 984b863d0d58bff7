/** What of `process` the stop handling uses; tests pass an EventEmitter with an `exit`. */
export interface StoppableProcess {
  on(event: 'SIGTERM' | 'SIGINT', listener: (signal: NodeJS.Signals) => void): unknown;
  on(
    event: 'uncaughtException' | 'unhandledRejection',
    listener: (error: unknown) => void,
  ): unknown;
  exit(code: number): void;
}

export interface StopLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface StopOptions {
  /** Drains and closes everything; the process exits 0 when it resolves. */
  stop: () => Promise<void>;
  log: StopLog;
  /** Past this, the process exits 1 without waiting any longer. */
  timeoutMs: number;
  process?: StoppableProcess;
  /** Epoch milliseconds; tests pass their own. */
  now?: () => number;
}

/**
 * A signal repeated within this time is the same stop delivered twice, not an operator insisting:
 * Ctrl-C in a terminal reaches both `npm` and the server, and npm forwards its copy too.
 */
export const REPEATED_SIGNAL_MS = 1000;

/**
 * Stops the process on SIGTERM or SIGINT (and on an unexpected error, exiting 1): `stop()` once,
 * then exit. A second signal more than REPEATED_SIGNAL_MS after the first exits at once, as does
 * a stop taking longer than `timeoutMs`.
 */
export function handleStopSignals(options: StopOptions): void {
  const proc = options.process ?? process;
  const now = options.now ?? Date.now;
  const { log } = options;
  let stoppingSince: number | null = null;

  function begin(exitCode: number) {
    stoppingSince = now();
    const timer = setTimeout(() => {
      log.error({ timeoutMs: options.timeoutMs }, 'not stopped in time, exiting');
      proc.exit(1);
    }, options.timeoutMs);
    timer.unref();
    options.stop().then(
      () => {
        clearTimeout(timer);
        proc.exit(exitCode);
      },
      (error: unknown) => {
        clearTimeout(timer);
        log.error({ err: error }, 'failed to stop cleanly');
        proc.exit(1);
      },
    );
  }

  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince === null) {
      log.info({ signal }, 'shutting down');
      begin(0);
    } else if (now() - stoppingSince > REPEATED_SIGNAL_MS) {
      log.error({ signal }, `second ${signal}, exiting now`);
      proc.exit(1);
    }
  };
  proc.on('SIGTERM', onSignal);
  proc.on('SIGINT', onSignal);

  const onError = (error: unknown) => {
    log.error({ err: error }, 'shutting down after an unexpected error');
    if (stoppingSince === null) begin(1);
    else proc.exit(1);
  };
  proc.on('uncaughtException', onError);
  proc.on('unhandledRejection', onError);
}
