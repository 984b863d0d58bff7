import { writeSync } from 'node:fs';

type WriteSync = (fd: number, buffer: Buffer, offset: number) => number;

// How long to wait before retrying when a non-blocking descriptor is full.
const RETRY_WAIT_MS = 10;
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Where the logs go: pino lines queued and written to a file descriptor together, once per
 * event-loop turn (setImmediate) and when the process exits.
 *
 * pino's default destination (an asynchronous sonic-boom) cost about 6 µs per line under load,
 * as much as the rest of a small answer: a thread-pool write and its wake-ups for every line or
 * two, and its buffer re-measured on every line. Here a turn's lines cost one `write`. Measured
 * again when deciding whether to drop this file for pino's own (ADR 041; `npm run bench:logs -w
 * @marpe/bench`): a line costs about 4 µs of CPU here, formatting included, against about 10 µs
 * with `pino.destination()` asynchronous (with or without `minLength`) and 15 µs synchronous.
 *
 * A line waits at most until the end of the current turn. Like `process.stdout` on a Linux pipe
 * or file, a write blocks while the reader is behind instead of queueing without bound; a full
 * non-blocking descriptor is retried. Once nobody reads (EPIPE), lines are dropped, as pino
 * does; any other write error is thrown.
 */
export class LineBatchingDestination {
  #pending: string[] = [];
  #scheduled = false;
  #closed = false;

  constructor(
    readonly fd: number,
    private readonly writeTo: WriteSync = writeSync,
  ) {}

  /** pino calls this with each formatted line (newline included). */
  write(line: string): void {
    if (this.#closed) return;
    this.#pending.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flushTurn);
    }
  }

  readonly #flushTurn = (): void => {
    this.#scheduled = false;
    this.flushSync();
  };

  /** Writes every queued line now. */
  flushSync(): void {
    if (this.#pending.length === 0 || this.#closed) return;
    const data = Buffer.from(this.#pending.join(''));
    this.#pending = [];
    let offset = 0;
    while (offset < data.length) {
      try {
        offset += this.writeTo(this.fd, data, offset);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          Atomics.wait(sleepCell, 0, 0, RETRY_WAIT_MS);
        } else if (code === 'EPIPE') {
          this.#closed = true;
          return;
        } else {
          throw error;
        }
      }
    }
  }

  /** pino's `logger.flush(cb)` lands here. */
  flush(callback?: (error?: Error) => void): void {
    try {
      this.flushSync();
    } catch (error) {
      if (!callback) throw error;
      callback(error as Error);
      return;
    }
    callback?.();
  }
}

let stdout: LineBatchingDestination | null = null;

/** The process's one standard-output destination; what is still queued is written on exit. */
export function stdoutDestination(): LineBatchingDestination {
  if (!stdout) {
    const destination = new LineBatchingDestination(1);
    process.once('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}
