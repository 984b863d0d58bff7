import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { buildApp } from './app.js';
import { ensureDemoForm } from './demo/demo-form.js';
import { createDemoFormLink, createDemoPaymentLink } from './demo/demo-links.js';
import { ensureDemoCardTerminal, ensureDemoProviderCredentials } from './demo/demo-payment.js';
import { seedDemoClinic } from './demo/seed-demo-clinic.js';
import { seedDemoCalendars } from './demo/demo-calendar.js';
import { demoBanner } from './demo/demo-banner.js';
import { ConfigError, loadConfig, type Config } from './platform/config.js';
import { loadDataKey } from './platform/crypto.js';
import { openDatabase, type DatabaseHandle } from './platform/db/client.js';
import { claimDataKeys } from './platform/key-rotation.js';
import { startMetricsServer } from './platform/metrics.js';
import { handleStopSignals } from './platform/process-life.js';
import { startTracing, type Tracing } from './platform/telemetry.js';
import {
  acquireDataDirLock,
  DataDirLockedError,
  type DataDirLock,
} from './platform/data-dir-lock.js';

/** How long requests in flight and the background workers get to finish once told to stop. */
const STOP_TIMEOUT_MS = 10_000;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** The embedded database must have exactly one server; a PostgreSQL server can have many. */
async function lockDataDirOrExit(config: Config): Promise<DataDirLock | null> {
  if (config.databaseUrl) return null;
  try {
    const lock = await acquireDataDirLock(config.dataDir);
    process.once('exit', () => lock.release());
    return lock;
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }
}

async function start(): Promise<void> {
  const config = readConfig();
  const lock = await lockDataDirOrExit(config);
  let database: DatabaseHandle | null = null;
  let tracing: Tracing | null = null;

  try {
    // Before the database opens: its first queries are traced too.
    tracing = config.tracing ? startTracing({ export: config.tracing }) : null;
    const dataKey = await loadDataKey(config);
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      onPoolError: (error) => console.error(`PostgreSQL connection error: ${error.message}`),
    });
    await database.migrate();
    // Before anything is sealed or opened: a process whose key cannot read what the database
    // holds (another process's DATA_KEY) stops here, naming the key ids it lacks.
    await claimDataKeys(database.db, { current: dataKey, previous: config.previousDataKeys });
    if (config.demo && (await seedDemoClinic(database.db, { onlyIfEmpty: true }))) {
      console.log('Created the demo clinic.');
    }
    const demoForm = config.demo && (await ensureDemoForm(database.db));
    const demoPayment = config.demo && (await ensureDemoCardTerminal(database.db));

    const app = await buildApp({
      config,
      database,
      dataKey,
      previousDataKeys: config.previousDataKeys,
      tracing,
    });
    const tracer = tracing;
    if (demoPayment) await ensureDemoProviderCredentials(database.db, app.payments);
    if (app.googleStandIn) await seedDemoCalendars(app.googleStandIn, database.db, Date.now());
    const db = database;
    let metricsServer: Server | null = null;
    // Under a process manager (or `npm start`, which forwards the signal): drain, close, exit 0.
    handleStopSignals({
      log: app.log,
      timeoutMs: STOP_TIMEOUT_MS + config.drainSeconds * 1000,
      stop: async () => {
        // Readiness answers 503 from now on; requests are still served while the balancer notices.
        app.health.drain();
        if (config.drainSeconds > 0) await delay(config.drainSeconds * 1000);
        await app.close();
        if (metricsServer) {
          const server = metricsServer;
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
        await db.close();
        await tracer?.shutdown();
        lock?.release();
      },
    });

    try {
      await app.listen({ host: config.host, port: config.port });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        throw new Error(
          `port ${config.port} on ${config.host} is already in use. Stop the other program or set PORT.`,
          { cause: error },
        );
      }
      throw error;
    }

    if (app.metrics && config.metrics.port !== null) {
      metricsServer = await startMetricsServer(app.metrics, {
        host: config.host,
        port: config.metrics.port,
        token: config.metrics.token,
      });
    }

    const origin = config.publicOrigin;
    if (config.demo) console.log(demoBanner(config));
    console.log(`Marpe is running at ${origin}/`);
    console.log(`API docs: ${origin}/api/docs`);
    if (config.demo) console.log(`Demo clinic: ${origin}/clinic/1`);
    if (demoForm) {
      // A fresh link each start: links are used up by a submit.
      const form = await createDemoFormLink(app.forms);
      console.log(`Demo intake form: ${form.url}`);
    }
    if (demoPayment) {
      // A fresh link each start: paid in the built-in card sandbox (no real card is charged).
      const payment = await createDemoPaymentLink(app.payments);
      console.log(`Demo payment link: ${payment.url}`);
    }
  } catch (error) {
    await database?.close().catch(() => {});
    await tracing?.shutdown().catch(() => {});
    lock?.release();
    throw error;
  }
}

start().catch((error: unknown) => {
  const where = error instanceof Error ? error.message : String(error);
  console.error(`Marpe could not start: ${where}`);
  if (error instanceof Error && error.cause instanceof Error) {
    console.error(`  caused by: ${error.cause.message}`);
  }
  process.exit(1);
});
