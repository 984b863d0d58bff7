import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { handleStopSignals, REPEATED_SIGNAL_MS } from './process-life.js';

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return Object.assign(emitter, { exits, exit: (code: number) => void exits.push(code) });
}

const log = { info: () => {}, error: () => {} };

describe('stop signals', () => {
  it('stops once on SIGTERM and exits 0, ignoring the same stop delivered twice', async () => {
    const proc = fakeProcess();
    let now = 0;
    let finish = () => {};
    const stop = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    handleStopSignals({ stop, log, timeoutMs: 10_000, process: proc, now: () => now });

    proc.emit('SIGINT', 'SIGINT');
    now += REPEATED_SIGNAL_MS - 1;
    // Ctrl-C reaches npm too, which forwards it: not a reason to cut the drain short.
    proc.emit('SIGINT', 'SIGINT');
    expect(stop).toHaveBeenCalledTimes(1);
    expect(proc.exits).toEqual([]);

    finish();
    await vi.waitFor(() => expect(proc.exits).toEqual([0]));
  });

  it('exits 1 at once on a later second signal', () => {
    const proc = fakeProcess();
    let now = 0;
    handleStopSignals({
      stop: () => new Promise(() => {}),
      log,
      timeoutMs: 10_000,
      process: proc,
      now: () => now,
    });
    proc.emit('SIGTERM', 'SIGTERM');
    now += REPEATED_SIGNAL_MS + 1;
    proc.emit('SIGTERM', 'SIGTERM');
    expect(proc.exits).toEqual([1]);
  });

  it('exits 1 when stopping takes too long or fails, or after an unexpected error', async () => {
    vi.useFakeTimers();
    try {
      const slow = fakeProcess();
      handleStopSignals({ stop: () => new Promise(() => {}), log, timeoutMs: 50, process: slow });
      slow.emit('SIGTERM', 'SIGTERM');
      await vi.advanceTimersByTimeAsync(60);
      expect(slow.exits).toEqual([1]);

      const failing = fakeProcess();
      handleStopSignals({
        stop: () => Promise.reject(new Error('pool')),
        log,
        timeoutMs: 50,
        process: failing,
      });
      failing.emit('SIGTERM', 'SIGTERM');
      await vi.advanceTimersByTimeAsync(0);
      expect(failing.exits).toEqual([1]);

      const crashed = fakeProcess();
      const stop = vi.fn(async () => {});
      handleStopSignals({ stop, log, timeoutMs: 50, process: crashed });
      crashed.emit('uncaughtException', new Error('boom'));
      await vi.advanceTimersByTimeAsync(0);
      expect(stop).toHaveBeenCalledTimes(1);
      expect(crashed.exits).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });
});
