import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWorkerLoop } from './worker-loop.js';

/** A job whose runs wait until the test lets each one end. */
function heldJob() {
  const releases: (() => void)[] = [];
  let running = 0;
  let mostAtOnce = 0;
  let runs = 0;
  const run = vi.fn(async () => {
    runs += 1;
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((resolve) => releases.push(resolve));
    running -= 1;
    return runs;
  });
  return {
    run,
    /** Ends the oldest run still waiting, once it has started. */
    async release() {
      // Promise jobs only, no time: the timers must not tick meanwhile.
      for (let turn = 0; turn < 50 && releases.length === 0; turn++) await Promise.resolve();
      expect(releases.length).toBeGreaterThan(0);
      releases.shift()?.();
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
  };
}

const quietLog = () => ({ error: vi.fn() });

describe('worker loop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never runs twice at once: runOnce, kicks and the timer wait for the run under way', async () => {
    const job = heldJob();
    const loop = createWorkerLoop({ name: 'test', run: job.run, everyMs: 1000, log: quietLog() });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(job.run).toHaveBeenCalledTimes(1);
    const asked = loop.runOnce();
    loop.kick();
    await vi.advanceTimersByTimeAsync(5000);
    expect(job.run).toHaveBeenCalledTimes(1);

    await job.release();
    await job.release();
    expect(await asked).toBe(2);
    // The kicks and ticks during the first run made one run more, not five.
    await job.release();
    expect(job.run).toHaveBeenCalledTimes(3);
    expect(job.mostAtOnce).toBe(1);
    await loop.stop();
  });

  it('runs every everyMs, the first at once or after firstRunAfterMs', async () => {
    const run = vi.fn(async () => {});
    const atOnce = createWorkerLoop({ name: 'a', run, everyMs: 1000, log: quietLog() });
    atOnce.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).toHaveBeenCalledTimes(4);
    await atOnce.stop();

    const later = vi.fn(async () => {});
    const delayed = createWorkerLoop({
      name: 'b',
      run: later,
      everyMs: 60_000,
      firstRunAfterMs: 5000,
      log: quietLog(),
    });
    delayed.start();
    await vi.advanceTimersByTimeAsync(4999);
    expect(later).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(later).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(later).toHaveBeenCalledTimes(2);
    await delayed.stop();
  });

  it('runs at a kick only once started, and never once stopped', async () => {
    const run = vi.fn(async () => {});
    const loop = createWorkerLoop({ name: 'test', run, everyMs: 3600_000, log: quietLog() });
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).not.toHaveBeenCalled();
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(2);
    await loop.stop();
    loop.kick();
    loop.start();
    await vi.advanceTimersByTimeAsync(7200_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('stops only once the run under way has ended', async () => {
    const job = heldJob();
    const loop = createWorkerLoop({ name: 'test', run: job.run, everyMs: 1000, log: quietLog() });
    loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    await job.release();
    await stopping;
    expect(stopped).toBe(true);
    expect(job.run).toHaveBeenCalledTimes(1);
  });

  it('logs a failed run and goes on; runOnce hands its caller the error', async () => {
    const log = quietLog();
    let fail = true;
    const run = vi.fn(async () => {
      if (fail) throw new Error('database away');
      return 'done';
    });
    const loop = createWorkerLoop({ name: 'job', run, everyMs: 1000, log });
    await expect(loop.runOnce()).rejects.toThrow('database away');
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'job: run failed');
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(await loop.runOnce()).toBe('done');
    await loop.stop();
  });

  it("logs a query error without the query's parameters", async () => {
    const log = quietLog();
    const cause = new Error('connection reset');
    const queryError = Object.assign(new Error('Failed query: … params: 0501234567'), {
      params: ['0501234567'],
      cause,
    });
    const loop = createWorkerLoop({
      name: 'job',
      run: () => Promise.reject(queryError),
      everyMs: 1000,
      log,
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(log.error).toHaveBeenCalledWith({ err: cause }, 'job: run failed');
    await loop.stop();
  });
});
