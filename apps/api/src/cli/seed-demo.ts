// `npm run seed:demo -w @marpe/api`: (re)creates demo clinics 1 and 2 in the configured database.
import { DEMO_CLINIC_ID, DEMO_SETUP_CLINIC_ID } from '../demo/demo-clinic.js';
import { seedDemoClinic } from '../demo/seed-demo-clinic.js';
import { ConfigError, loadConfig } from '../platform/config.js';
import { DataDirLockedError } from '../platform/data-dir-lock.js';
import { withDatabase } from './open-database.js';

async function run(): Promise<void> {
  const config = loadConfig();
  if (!config.demo) {
    throw new Error('the demo clinic is for demo databases only (demo mode is off)');
  }
  await withDatabase(
    async (database) => {
      await seedDemoClinic(database.db);
      const where = config.databaseUrl ? 'the PostgreSQL database' : config.dataDir;
      console.log(
        `Demo clinics ${DEMO_CLINIC_ID} and ${DEMO_SETUP_CLINIC_ID} are ready in ${where}.`,
      );
    },
    { config, claimKeys: false },
  );
}

run().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
