import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const serverEntry = path.join(repoRoot, 'apps/api/dist/main.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export function freshDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'marpe-e2e-'));
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** Starts the production build as a user would, and waits until it answers /api/health. */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  if (!fs.existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run npm run build`);
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    // DEMO explicit: the suite's PUBLIC_ORIGIN is not localhost.
    env: { ...process.env, HOST: '127.0.0.1', DEMO: 'true', LOG_LEVEL: 'warn', ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
