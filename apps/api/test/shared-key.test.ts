import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoClinic } from '../src/demo/seed-demo-clinic.js';
import { dataKeyId, sealingKey } from '../src/platform/crypto.js';
import { createOutbox } from '../src/platform/outbox/outbox.js';
import type { Database } from '../src/platform/db/client.js';
import { dataKeys, outbox } from '../src/platform/db/schema.js';
import {
  claimDataKeys,
  DataKeyMismatchError,
  rotateDataKey,
} from '../src/platform/key-rotation.js';
import {
  buildTestApp,
  createTestDatabase,
  engines,
  testConfig,
  useTestDatabase,
  type TestDatabase,
} from './helper.js';
import { startLoopback, type Loopback } from './loopback.js';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const idA = dataKeyId(keyA);
const idB = dataKeyId(keyB);

/** Queues one SMS with `key` (an outbox row sealed with it), as a server with that key would. */
async function sealSomething(database: TestDatabase, key: Buffer): Promise<void> {
  const app = await buildTestApp(database.handle, {
    dataKey: key,
    config: testConfig(),
    outboxPollIntervalMs: 3_600_000,
  });
  await app.messaging.queueSms(database.handle.db, { to: '0501234567', body: 'hello' });
  await app.close();
}

async function keysInUse(db: Database): Promise<string[]> {
  return (await db.select({ keyId: dataKeys.keyId }).from(dataKeys)).map((row) => row.keyId).sort();
}

describe.each(engines)('one data key across processes (%s)', (engine) => {
  const database = useTestDatabase(engine);
  beforeEach(async () => {
    await database.current.reset();
  });

  it('refuses a key that cannot read what the database holds, naming the ids it lacks', async () => {
    const db = database.current.handle.db;
    // The first process on an empty database: its key becomes the database's.
    await claimDataKeys(db, { current: keyA, previous: [] });
    expect(await keysInUse(db)).toEqual([idA]);
    await sealSomething(database.current, keyA);

    const refused = await claimDataKeys(db, { current: keyB, previous: [] }).catch((e) => e);
    expect(refused).toBeInstanceOf(DataKeyMismatchError);
    expect((refused as DataKeyMismatchError).missing).toEqual([idA]);
    expect((refused as Error).message).toContain(idA);
    expect((refused as Error).message).toContain('DATA_KEY_PREVIOUS');
    // Refused before it wrote anything: A alone is still the database's key.
    expect(await keysInUse(db)).toEqual([idA]);

    // The same key again, or B with A as the previous key (a rotation), start.
    await claimDataKeys(db, { current: keyA, previous: [] });
    await claimDataKeys(db, { current: keyB, previous: [keyA] });
    expect(await keysInUse(db)).toEqual([idA, idB].sort());
    // Now A alone lacks B.
    await expect(claimDataKeys(db, { current: keyA, previous: [] })).rejects.toThrow(idB);

    // Once everything is re-encrypted with B, A is no longer needed.
    await rotateDataKey(db, { current: keyB, previous: [keyA] });
    expect(await keysInUse(db)).toEqual([idB]);
    await claimDataKeys(db, { current: keyB, previous: [] });
    await expect(claimDataKeys(db, { current: keyA, previous: [] })).rejects.toThrow(idB);
  });

  it('lets only one of two keys in when both start at once on an empty database', async () => {
    const db = database.current.handle.db;
    const results = await Promise.allSettled([
      claimDataKeys(db, { current: keyA, previous: [] }),
      claimDataKeys(db, { current: keyB, previous: [] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await keysInUse(db)).toHaveLength(1);
  });

  it('knows the keys of a database sealed before the registry existed (the migration)', async () => {
    const db = database.current.handle.db;
    await sealSomething(database.current, keyA);
    await sealSomething(database.current, keyB);
    await db.delete(dataKeys);
    const migration = readFileSync(
      fileURLToPath(new URL('../drizzle/0029_trust-third-pass.sql', import.meta.url)),
      'utf8',
    );
    const seed = migration.split('--> statement-breakpoint')[1] ?? '';
    expect(seed).toContain('INSERT INTO "data_keys"');
    await db.execute(sql.raw(seed));
    expect(await keysInUse(db)).toEqual([idA, idB].sort());
  });
});

describe.each(engines)('the lease of a claimed outbox row (%s)', (engine) => {
  const database = useTestDatabase(engine);

  it('is renewed while the handler runs, so no other process takes the row', async () => {
    const db = database.current.handle.db;
    let release = () => {};
    const sent: unknown[] = [];
    const make = (name: string) =>
      createOutbox({
        db,
        key: sealingKey(keyA, 'outbox'),
        clock: Date.now,
        log: { warn() {}, error() {}, info() {} } as never,
        handlers: {
          sms: async (payload) => {
            sent.push([name, payload]);
            if (name === 'first') await new Promise<void>((resolve) => (release = resolve));
          },
        },
        leaseMs: { codes: 200 },
      });
    const first = make('first');
    const second = make('second');
    await first.enqueue(db, { topic: 'sms', payload: { code: 1 }, lane: 'codes' });
    const running = first.runOnce('codes');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([['first', { code: 1 }]]);
    // Three leases later, still held by the first, alive and waiting on its gateway.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await second.runOnce('codes')).toBe(0);
    release();
    expect(await running).toBe(1);
    const [row] = await db
      .select({ status: outbox.status, attempts: outbox.attempts })
      .from(outbox);
    expect(row).toEqual({ status: 'sent', attempts: 1 });
    expect(sent).toHaveLength(1);
  });
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL || null;
const apiSrc = fileURLToPath(new URL('../src/', import.meta.url));

/** A real server process (buildApp, listening, outbox worker polling every second). */
function startServer(env: Record<string, string>) {
  const script = `
    const { buildApp } = await import(${JSON.stringify(`${apiSrc}app.ts`)});
    const { loadConfig } = await import(${JSON.stringify(`${apiSrc}platform/config.ts`)});
    const { loadDataKey } = await import(${JSON.stringify(`${apiSrc}platform/crypto.ts`)});
    const { openDatabase } = await import(${JSON.stringify(`${apiSrc}platform/db/client.ts`)});
    const { claimDataKeys } = await import(${JSON.stringify(`${apiSrc}platform/key-rotation.ts`)});
    const config = loadConfig(process.env);
    const dataKey = await loadDataKey(config);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: null });
    try {
      await claimDataKeys(database.db, { current: dataKey, previous: config.previousDataKeys });
    } catch (error) {
      console.log('refused ' + error.message);
      process.exit(1);
    }
    const app = await buildApp({ config, database, dataKey, webDistDir: null, pruneIntervalMs: null });
    await app.listen({ host: '127.0.0.1', port: 0 });
    console.log('listening ' + app.server.address().port);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const said = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<string>((resolve, reject) => {
      const until = Date.now() + timeoutMs;
      const check = () => {
        const line = output.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) resolve(line);
        else if (child.exitCode !== null || Date.now() > until)
          reject(new Error(`no ${String(pattern)}: ${output}`));
        else setTimeout(check, 20);
      };
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, said, exited };
}

function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe.skipIf(!testDatabaseUrl)('two server processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let databaseUrl: string;
  let gateway: Loopback;
  /** Until set, the gateway never answers: the process sending hangs, holding the code. */
  let answer = false;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    databaseUrl = (
      (await database.handle.db.execute(sql`SELECT current_database() AS name`)) as unknown as {
        rows: { name: string }[];
      }
    ).rows[0]?.name as string;
    const url = new URL(testDatabaseUrl as string);
    url.pathname = `/${databaseUrl}`;
    databaseUrl = url.toString();
    await seedDemoClinic(database.handle.db);
    gateway = await startLoopback(() => (answer ? { status: 200, body: { ok: true } } : null));
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(killed));
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.dispose();
  });

  const env = (key: Buffer) => ({
    NODE_ENV: 'test',
    DEMO: 'true',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    DATA_KEY: key.toString('base64'),
    SMS_PROVIDER: 'http',
    SMS_HTTP_URL: gateway.url('/sms'),
    SMS_HTTP_TOKEN: 'gateway-token',
    SMS_SENDER: 'Marpe',
  });

  it('refuses to start a second process with another DATA_KEY, naming the first key', async () => {
    const first = startServer(env(keyA));
    children.push(first.child);
    await first.said(/^listening /);
    // The server itself (main.ts), as `npm start` runs it.
    const second = spawn(process.execPath, ['--import', 'tsx', `${apiSrc}main.ts`], {
      env: { ...process.env, ...env(keyB), PORT: '3999' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(second);
    let output = '';
    second.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code, output).toBe(1);
    expect(output).toContain(`Marpe could not start: DATA_KEY (key id ${idB}) cannot read`);
    expect(output).toContain(idA);
    expect(output).not.toContain('is running at');
  }, 120_000);

  it('hands a login code held by a killed process to another within seconds', async () => {
    answer = false;
    gateway.reset();
    // Each process posts to its own path: the gateway tells which one sent.
    const servers = [1, 2].map((n) =>
      startServer({ ...env(keyA), SMS_HTTP_URL: gateway.url(`/sms/${n}`) }),
    );
    children.push(...servers.map((server) => server.child));
    const ports = await Promise.all(
      servers.map(async (server) => Number((await server.said(/^listening /)).split(' ')[1])),
    );
    const origin = `http://127.0.0.1:${ports[0]}`;

    // A patient asks for a login code; a process claims it and hangs on the gateway.
    const health = await fetch(`${origin}/api/health`);
    const cookie = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const login = await fetch(`${origin}/api/patient-auth/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `XSRF-TOKEN=${cookie}`,
        'x-xsrf-token': cookie,
      },
      body: JSON.stringify({ clinicId: 1, idNumber: '039845128', phone: '0501234567' }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    await waitFor(() => gateway.requests.length === 1, 20_000);
    const held = gateway.requests[0];
    const holder = held?.path === '/sms/1' ? 0 : 1;
    const other = `/sms/${2 - holder}`;

    // Killed while it waits on the gateway (within the gateway's 10-second timeout).
    answer = true;
    const killedAt = Date.now();
    await killed(servers[holder]?.child as ChildProcess);
    await waitFor(() => gateway.requests.some((r) => r.path === other), 60_000);
    const tookMs = Date.now() - killedAt;
    console.log(`login code sent by the other process ${tookMs} ms after SIGKILL`);
    expect(tookMs).toBeLessThan(12_000);
    // The same message, to the same phone, once more.
    expect(gateway.requests).toHaveLength(2);
    expect(gateway.requests[1]?.body).toBe(held?.body);
    await waitFor(async () => {
      const [row] = await database.handle.db
        .select({ status: outbox.status, attempts: outbox.attempts })
        .from(outbox)
        .where(eq(outbox.lane, 'codes'));
      return row?.status === 'sent' && row.attempts === 2;
    }, 10_000);
  }, 180_000);
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
