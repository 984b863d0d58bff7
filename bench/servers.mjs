import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer in time`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A throwaway database on the PostgreSQL server at `serverUrl`, dropped by the returned function. */
async function createDatabase(serverUrl) {
  const name = `marpe_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The production build on a fresh database (embedded PGlite, or a new database on the PostgreSQL
 * server at `postgresUrl`), with its demo data, logging as it would in production. `prepare`, if
 * given, runs before the server starts with `{ dataDir, databaseUrl }` (databaseUrl null for
 * PGlite): the one moment another process may open the embedded database.
 */
export async function startMarpe({ postgresUrl, prepare } = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marpe-bench-'));
  const database = postgresUrl ? await createDatabase(postgresUrl) : null;
  try {
    await prepare?.({ dataDir, databaseUrl: database?.url ?? null });
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
    throw error;
  }
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  // A PostgreSQL server refuses an implied demo: the benchmarks run the demo clinic on purpose.
  if (database) Object.assign(env, { DATABASE_URL: database.url, DEMO: 'true' });
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/api/dist/main.js')], {
    env,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, child);
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

export async function startBare(body) {
  const port = await freePort();
  const child = fork(path.join(repoRoot, 'bench/bare-server.mjs'), {
    env: { ...process.env, PORT: String(port), BODY: body },
    stdio: 'ignore',
  });
  await new Promise((resolve) => child.once('message', resolve));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
