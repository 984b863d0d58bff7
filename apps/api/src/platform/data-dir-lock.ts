import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';

export interface DataDirLock {
  /** The lock's directory, DATA_DIR/marpe.lock.d. */
  readonly directory: string;
  /** Idempotent and synchronous: safe to call from a process 'exit' handler. */
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

/** How long contenders that started together retry before the last one gives up. */
const CONTENTION_TIMEOUT_MS = 5_000;
/** A probe that neither connects nor is refused in this time counts as a live holder. */
const PROBE_TIMEOUT_MS = 2_000;
// sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * PGlite has no cross-process lock, and two servers on one data dir corrupt it: take the lock in
 * DATA_DIR/marpe.lock.d or refuse (docs/decisions/019-demo-mode-logs-and-data-lock.md).
 *
 * Node has no flock(), so the lock is made of Unix sockets, which the kernel closes when their
 * process ends however it ends (SIGKILL included). Each process that wants the lock listens on its
 * own socket `<pid>-<random>.sock` in the directory; a connect() to a socket whose process is gone
 * is refused, so a dead entry is known for dead without guessing from PIDs (which a restarted
 * container reuses) and is removed. A process holds the lock when, after its entry appeared, the
 * directory shows no other live entry. Two processes cannot both see that: whichever listed the
 * directory second listed it after the first one's entry appeared (entries appear by rename only
 * once their socket listens, and a live entry is never removed). When contenders see each other
 * they all step back and retry after a random pause; one that sees a holder (`<entry>.held`)
 * refuses at once.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const directory = path.join(dataDir, 'marpe.lock.d');
  mkdirSync(directory, { recursive: true });
  const deadline = Date.now() + CONTENTION_TIMEOUT_MS;

  for (;;) {
    const name = `${process.pid}-${randomBytes(4).toString('hex')}`;
    const socketPath = path.join(directory, `${name}.sock`);
    if (Buffer.byteLength(path.join(directory, `${name}.held`)) > MAX_SOCKET_PATH_BYTES) {
      throw new Error(
        `DATA_DIR's path is too long for its lock (${directory}): Unix socket paths are limited ` +
          `to ${MAX_SOCKET_PATH_BYTES} bytes. Use a shorter DATA_DIR.`,
      );
    }
    const server = await listenThenRename(directory, name);
    if (server !== null) {
      const others = await liveOthers(directory, name);
      if (others.entries.length === 0 && others.sawOwn) {
        writeFileSync(path.join(directory, `${name}.held`), '');
        return holding(directory, name, server);
      }
      await closeServer(server);
      removeIfPresent(socketPath);
      const holder = others.entries.find((entry) => others.held.has(entry));
      const contender = holder ?? others.entries[0];
      if (holder !== undefined || (contender !== undefined && Date.now() > deadline)) {
        throw new DataDirLockedError(dataDir, pidOf(holder ?? contender ?? name));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
  }
}

/**
 * Listens on `<name>.tmp`, then renames it to `<name>.sock`: the entry appears only once a
 * connect() to it succeeds, so no other process can catch it between bind() and listen() and
 * take it for dead. The `.tmp` itself can be caught so and removed: null then, to try again.
 */
async function listenThenRename(directory: string, name: string): Promise<Server | null> {
  const pending = path.join(directory, `${name}.tmp`);
  // Connections are probes: accepted by the kernel even while this process is busy, then dropped.
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(pending, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A lock must not keep a command-line tool's process alive.
  server.unref();
  try {
    renameSync(pending, path.join(directory, `${name}.sock`));
  } catch (error) {
    await closeServer(server);
    removeIfPresent(pending);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return server;
}

interface Others {
  /** Names of the other live entries. */
  entries: string[];
  /** Names that hold the lock (have a `.held` file). */
  held: Set<string>;
  /** Whether the listing showed this process's own entry (it always should). */
  sawOwn: boolean;
}

/** Lists the directory, removes dead entries, and tells which others are alive. */
async function liveOthers(directory: string, own: string): Promise<Others> {
  const files = readdirSync(directory);
  const sockets = new Set<string>();
  const held = new Set<string>();
  const pending: string[] = [];
  for (const file of files) {
    const match = /^(\d+-[0-9a-f]+)\.(sock|held|tmp)$/.exec(file);
    if (!match) continue;
    const [, name = '', kind] = match;
    if (kind === 'sock') sockets.add(name);
    else if (kind === 'held') held.add(name);
    else pending.push(name);
  }

  const entries: string[] = [];
  for (const name of sockets) {
    if (name === own) continue;
    const state = await probe(path.join(directory, `${name}.sock`));
    if (state === 'alive') {
      entries.push(name);
    } else {
      // Only a dead socket is refused, and it is never alive again: nobody can need it.
      removeIfPresent(path.join(directory, `${name}.sock`));
      removeIfPresent(path.join(directory, `${name}.held`));
    }
  }
  // A `.held` without its socket, or a `.tmp` whose process died before renaming it.
  for (const name of held) {
    if (!sockets.has(name)) removeIfPresent(path.join(directory, `${name}.held`));
  }
  for (const name of pending) {
    const file = path.join(directory, `${name}.tmp`);
    if ((await probe(file)) === 'dead') removeIfPresent(file);
  }
  return { entries, held, sawOwn: sockets.has(own) };
}

/**
 * `dead` only when the kernel says so: the socket file exists and nobody listens on it (or it is
 * gone). Anything else, a timeout included, counts as alive: the lock must never fail open.
 */
function probe(socketPath: string): Promise<'alive' | 'dead'> {
  return new Promise((resolve) => {
    const socket = connect({ path: socketPath });
    const done = (state: 'alive' | 'dead') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(state);
    };
    const timer = setTimeout(() => done('alive'), PROBE_TIMEOUT_MS);
    socket.once('connect', () => done('alive'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'dead' : 'alive'),
    );
  });
}

function holding(directory: string, name: string, server: Server): DataDirLock {
  let released = false;
  return {
    directory,
    release() {
      if (released) return;
      released = true;
      // Synchronous to the end: from an 'exit' handler nothing asynchronous runs. The socket is
      // closed by the kernel at exit anyway; removing the files first is what others look at.
      removeIfPresent(path.join(directory, `${name}.held`));
      removeIfPresent(path.join(directory, `${name}.sock`));
      server.close();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function pidOf(name: string): number {
  return Number(name.split('-')[0]);
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
