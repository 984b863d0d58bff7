import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock.js';

describe('acquireDataDirLock', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'marpe-lock-')), 'nested', 'data');
  });
  afterEach(() => {
    rmSync(path.dirname(path.dirname(dataDir)), { recursive: true, force: true });
  });

  it('creates DATA_DIR and a lock file naming this process', () => {
    const lock = acquireDataDirLock(dataDir);
    const content = JSON.parse(readFileSync(lock.file, 'utf8'));
    expect(lock.file).toBe(path.join(dataDir, 'marpe.lock'));
    expect(content.pid).toBe(process.pid);
    expect(Date.parse(content.startedAt)).not.toBeNaN();
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('refuses a second lock while the first is held, naming the folder and pid', () => {
    const lock = acquireDataDirLock(dataDir);
    expect(() => acquireDataDirLock(dataDir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dataDir)).toThrow(
      `Another Marpe server is already using DATA_DIR (${dataDir}, pid ${process.pid}). ` +
        'Stop it first or set DATA_DIR to another folder.',
    );
    lock.release();
    const again = acquireDataDirLock(dataDir);
    again.release();
  });

  it('takes over a lock left by a process that has died', () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(child.stdout.toString());
    expect(deadPid).toBeGreaterThan(0);
    acquireDataDirLock(dataDir).release();
    writeFileSync(
      path.join(dataDir, 'marpe.lock'),
      JSON.stringify({ pid: deadPid, startedAt: new Date().toISOString(), token: 'old' }),
    );

    const lock = acquireDataDirLock(dataDir);
    expect(JSON.parse(readFileSync(lock.file, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('does not delete a lock another process has taken over', () => {
    const lock = acquireDataDirLock(dataDir);
    writeFileSync(lock.file, JSON.stringify({ pid: 1, startedAt: '', token: 'other' }));
    lock.release();
    expect(existsSync(lock.file)).toBe(true);
  });
});
