import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface DataDirLock {
  readonly file: string;
  /** Idempotent; safe to call from a process 'exit' handler. */
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Marpe server is already using DATA_DIR (${dataDir}, pid ${pid}). ` +
        'Stop it first or set DATA_DIR to another folder.',
    );
    this.name = 'DataDirLockedError';
  }
}

interface LockContent {
  pid: number;
  startedAt: string;
  token: string;
}

/**
 * PGlite has no cross-process lock, and two servers on one data dir corrupt it: take
 * DATA_DIR/marpe.lock or refuse. A lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'marpe.lock');
  const content: LockContent = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };

  const text = `${JSON.stringify(content)}\n`;
  for (let attempt = 0; !createExclusive(file, text); attempt++) {
    const holder = readLock(file);
    if (holder && isAlive(holder.pid)) throw new DataDirLockedError(dataDir, holder.pid);
    if (attempt >= 2) throw new Error(`Could not take the lock ${file}`);
    removeIfPresent(file);
  }

  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      // Never delete a lock some other process has since taken over.
      if (readLock(file)?.token === content.token) removeIfPresent(file);
    },
  };
}

/** False when the file already exists. */
function createExclusive(file: string, text: string): boolean {
  // Written aside then hard-linked into place: link() fails with EEXIST like O_EXCL, and the lock
  // is never seen half-written by a concurrent reader.
  const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(staging, text);
    linkSync(staging, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // Some file systems have no hard links: fall back to a plain O_EXCL create.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
  } finally {
    removeIfPresent(staging);
  }
  try {
    writeFileSync(file, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readLock(file: string): LockContent | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockContent>;
    return typeof parsed.pid === 'number' ? (parsed as LockContent) : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
