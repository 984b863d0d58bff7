import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock.js';

const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));

/**
 * Another process that takes the lock when it reads "go" on its standard input (at once without
 * `waitForGo`), prints `won` or `refused <message>`, and keeps the lock until it is killed.
 */
function lockTaker(dataDir: string, { waitForGo = false } = {}) {
  const script = `
    const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
    const take = async () => {
      try {
        await acquireDataDirLock(${JSON.stringify(dataDir)});
        console.log('won');
        setInterval(() => {}, 60_000);
      } catch (error) {
        console.log('refused ' + error.message);
        process.exit(0);
      }
    };
    if (${waitForGo}) {
      console.log('ready');
      process.stdin.once('data', take);
    } else {
      await take();
    }
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const said = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = output.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) resolve(line);
        else if (child.exitCode !== null) reject(new Error(`exited: ${output}`));
        else setTimeout(check, 20);
      };
      check();
    });
  return { child, said };
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('acquireDataDirLock', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'marpe-lock-')), 'nested', 'data');
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(killed));
    rmSync(path.dirname(path.dirname(dataDir)), { recursive: true, force: true });
  });

  it('creates DATA_DIR and a lock directory, emptied on release', async () => {
    const lock = await acquireDataDirLock(dataDir);
    expect(lock.directory).toBe(path.join(dataDir, 'marpe.lock.d'));
    expect(readdirSync(lock.directory).sort()).toEqual([
      expect.stringMatching(new RegExp(`^${process.pid}-[0-9a-f]{8}\\.held$`)),
      expect.stringMatching(new RegExp(`^${process.pid}-[0-9a-f]{8}\\.sock$`)),
    ]);
    lock.release();
    lock.release();
    expect(readdirSync(lock.directory)).toEqual([]);
    (await acquireDataDirLock(dataDir)).release();
  });

  it('refuses while a live process holds it, naming the folder and its pid', async () => {
    const holder = lockTaker(dataDir);
    children.push(holder.child);
    expect(await holder.said(/^(won|refused)/)).toBe('won');

    const refused = acquireDataDirLock(dataDir);
    await expect(refused).rejects.toThrow(DataDirLockedError);
    await expect(refused).rejects.toThrow(
      `Another Marpe server is already using DATA_DIR (${dataDir}, pid ${holder.child.pid}). ` +
        'Stop it first or set DATA_DIR to another folder.',
    );
    // A holder in this process refuses the same way.
    await killed(holder.child);
    const lock = await acquireDataDirLock(dataDir);
    await expect(acquireDataDirLock(dataDir)).rejects.toThrow(`pid ${process.pid})`);
    lock.release();
  });

  it('is taken over after its holder was killed with SIGKILL, even when its name is a live pid', async () => {
    const holder = lockTaker(dataDir);
    children.push(holder.child);
    expect(await holder.said(/^(won|refused)/)).toBe('won');
    await killed(holder.child);

    // What a restarted container sees: the dead server's entry, its pid now someone else's (ours).
    const directory = path.join(dataDir, 'marpe.lock.d');
    for (const file of readdirSync(directory)) {
      renameSync(
        path.join(directory, file),
        path.join(directory, file.replace(/^\d+-/, `${process.pid}-`)),
      );
    }
    expect(readdirSync(directory)).toHaveLength(2);

    const lock = await acquireDataDirLock(dataDir);
    expect(readdirSync(directory)).toHaveLength(2);
    lock.release();
    expect(readdirSync(directory)).toEqual([]);
  });

  it('lets exactly one of several processes starting together win, every time', async () => {
    for (let round = 0; round < 4; round++) {
      const takers = [
        lockTaker(dataDir, { waitForGo: true }),
        lockTaker(dataDir, { waitForGo: true }),
        lockTaker(dataDir, { waitForGo: true }),
      ];
      children.push(...takers.map((t) => t.child));
      await Promise.all(takers.map((t) => t.said(/^ready$/)));
      for (const taker of takers) taker.child.stdin?.write('go\n');
      const results = await Promise.all(takers.map((t) => t.said(/^(won|refused)/)));
      expect(results.filter((r) => r === 'won')).toHaveLength(1);
      expect(results.filter((r) => r.startsWith('refused Another Marpe server'))).toHaveLength(2);
      await Promise.all(children.splice(0).map(killed));
    }
  }, 60_000);
});
