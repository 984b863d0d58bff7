import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LineBatchingDestination } from './log-destination.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

describe('LineBatchingDestination', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("writes a turn's lines together, in order, once the turn is over", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'marpe-log-'));
    const file = path.join(dir, 'out.log');
    const fd = openSync(file, 'w');
    const writes: number[] = [];
    const destination = new LineBatchingDestination(fd, (target, buffer, offset) => {
      writes.push(buffer.length - offset);
      return writeSync(target, buffer, offset);
    });
    destination.write('{"a":1}\n');
    destination.write('{"b":"שלום"}\n');
    expect(readFileSync(file, 'utf8')).toBe('');
    await nextTurn();
    destination.write('{"c":3}\n');
    destination.flushSync();
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n{"b":"שלום"}\n{"c":3}\n');
    expect(writes).toEqual([Buffer.byteLength('{"a":1}\n{"b":"שלום"}\n'), 8]);
  });

  it('finishes partial writes and retries a full non-blocking descriptor', () => {
    const written: string[] = [];
    let calls = 0;
    const destination = new LineBatchingDestination(1, (_fd, buffer, offset) => {
      calls += 1;
      if (calls === 2) throw errno('EAGAIN');
      const end = Math.min(buffer.length, offset + 4);
      written.push(buffer.subarray(offset, end).toString());
      return end - offset;
    });
    destination.write('0123456789\n');
    destination.flushSync();
    expect(written.join('')).toBe('0123456789\n');
    expect(calls).toBeGreaterThan(3);
  });

  it('drops lines once nobody reads them (EPIPE), and throws other write errors', () => {
    let calls = 0;
    const closed = new LineBatchingDestination(1, () => {
      calls += 1;
      throw errno('EPIPE');
    });
    closed.write('a\n');
    closed.flushSync();
    closed.write('b\n');
    closed.flushSync();
    expect(calls).toBe(1);

    const failing = new LineBatchingDestination(1, () => {
      throw errno('EBADF');
    });
    failing.write('a\n');
    expect(() => failing.flushSync()).toThrow('EBADF');
  });
});
