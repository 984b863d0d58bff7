// `npm run seed:demo -w @marpe/api`: (re)creates demo clinics 1 and 2 in the configured database.
import { DEMO_CLINIC_ID, DEMO_SETUP_CLINIC_ID } from '../demo/demo-clinic.js';
import { seedDemoClinic } from '../demo/seed-demo-clinic.js';
import { ConfigError, loadConfig } from '../platform/config.js';
import { openDatabase } from '../platform/db/client.js';
import { acquireDataDirLock, DataDirLockedError } from '../platform/data-dir-lock.js';

async function run(): Promise<void> {
  const config = loadConfig();
  if (!config.demo) {
    throw new Error('the demo clinic is for demo databases only (demo mode is off)');
  }
  // Same rule as the server: one process at a time on an embedded database.
  const lock = config.databaseUrl ? null : await acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    try {
      await database.migrate();
      await seedDemoClinic(database.db);
      const where = config.databaseUrl ? 'the PostgreSQL database' : config.dataDir;
      console.log(
        `Demo clinics ${DEMO_CLINIC_ID} and ${DEMO_SETUP_CLINIC_ID} are ready in ${where}.`,
      );
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

run().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
