import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PUBLIC_ORIGIN } from './support/constants';
import { freePort, freshDataDir, repoRoot, serverEntry } from './support/server';
import { suiteServer } from './support/suite-server';

const baseUrl = suiteServer().baseUrl;

/** Whether a process with this id still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ids of a process's children, and theirs (Linux `ps`). */
function descendants(pid: number): number[] {
  const table = spawnSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' }).stdout;
  const rows = table
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

describe('npm start under a process manager', () => {
  it('drains and stops the server on SIGTERM to npm, leaving no process behind', async () => {
    const dataDir = freshDataDir();
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DEMO: 'true',
        LOG_LEVEL: 'info',
        DRAIN_SECONDS: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let server: number[] = [];
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    const origin = `http://127.0.0.1:${port}`;
    const health = `${origin}/api/health`;
    try {
      const deadline = Date.now() + 60_000;
      while (
        !(await fetch(health).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (npm.exitCode !== null || Date.now() > deadline)
          throw new Error(`no server:\n${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      server = descendants(npm.pid ?? 0);
      expect(server.length, 'the server runs under npm').toBeGreaterThan(0);

      npm.kill('SIGTERM');
      // Draining: not ready (a load balancer takes it out), still alive and serving.
      await expect
        .poll(() => fetch(`${origin}/api/health/ready`).then((r) => r.status), { timeout: 1500 })
        .toBe(503);
      expect((await fetch(`${origin}/api/health/live`)).status).toBe(200);
      expect(await exited, output).toBe(0);
      expect(output).toContain('"msg":"shutting down"');
      expect(server.filter(alive), 'processes left').toEqual([]);
      await expect(fetch(health)).rejects.toThrow();
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
      for (const pid of server.filter(alive)) process.kill(pid, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('production server', () => {
  it('refuses a second server on the same data directory, naming the reason', async () => {
    const port = String(await freePort());
    const second = spawnSync(process.execPath, [serverEntry], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: suiteServer().dataDir, PORT: port, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(second.status).toBe(1);
    expect(second.stdout + second.stderr).toMatch(/already using DATA_DIR/);
  });

  it('serves index.html uncached with the canonical link of the requested path', async () => {
    const res = await fetch(`${baseUrl}/privacy`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_ORIGIN}/privacy">`);
    // No inline script to run (the CSP allows none); JSON data blocks are never run (ADR 025).
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
    expect(html).toMatch(/<script type="application\/json" id="marpe-code">/);
  });

  it('serves hashed assets pre-compressed with a long cache', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    const entry = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${baseUrl}${entry}`, { headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('answers unknown API paths with JSON 404 and client routes with the app', async () => {
    const api = await fetch(`${baseUrl}/api/no-such-thing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
    const client = await fetch(`${baseUrl}/some/client/route`, {
      headers: { accept: 'text/html' },
    });
    expect(client.status).toBe(200);
    expect(await client.text()).toContain('<div id="root">');
  });

  it('sends a content security policy without inline scripts', async () => {
    const csp = (await fetch(`${baseUrl}/`)).headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain('unsafe-inline');
  });
});
