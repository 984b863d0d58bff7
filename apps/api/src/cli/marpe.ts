// `npm run marpe -- <command> …`: operator commands on the configured database (DATABASE_URL, or
// the embedded one in DATA_DIR, which must not be open in a running server).
import { parseFormLinkArgs, UsageError } from './form-link-args.js';
import { createFormsRepository } from '../modules/forms/forms-repository.js';
import {
  createFormsService,
  DEFAULT_LINK_DAYS,
  MAX_LINK_DAYS,
} from '../modules/forms/forms-service.js';
import { ConfigError, loadConfig } from '../platform/config.js';
import { deriveKey, loadDataKey } from '../platform/crypto.js';
import { acquireDataDirLock, DataDirLockedError } from '../platform/data-dir-lock.js';
import { openDatabase } from '../platform/db/client.js';
import { isStoredId } from '../platform/db/schema.js';
import { isAppError } from '../platform/errors.js';

const USAGE = `Usage: npm run marpe -- <command> [options]

Commands:
  form-link --clinic <id> --template <id> [--init key=value …] [--days <n>]
      Prints a new intake-form link for one patient. --init fills {{initData.key}} in the
      form (repeat it, or list several pairs after one --init). The link works once, for
      ${DEFAULT_LINK_DAYS} days unless --days says otherwise (1-${MAX_LINK_DAYS}).`;

async function formLink(args: readonly string[]): Promise<void> {
  const options = parseFormLinkArgs(args);
  const config = loadConfig();
  // Same rule as the server: one process at a time on an embedded database.
  const lock = config.databaseUrl ? null : acquireDataDirLock(config.dataDir);
  try {
    const dataKey = await loadDataKey(config);
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    try {
      await database.migrate();
      const forms = createFormsService({
        repository: createFormsRepository(database.db),
        clock: Date.now,
        formsKey: deriveKey(dataKey, 'forms'),
        publicOrigin: config.publicOrigin,
      });
      if (!isStoredId(options.clinicId) || !isStoredId(options.templateId)) {
        throw new UsageError('no such clinic or template');
      }
      try {
        const link = await forms.createLink({
          clinicId: options.clinicId,
          templateId: options.templateId,
          initData: options.initData,
          expiresInDays: options.days,
        });
        console.log(link.url);
        console.error(`Valid until ${link.expiresAt.toISOString()}; it works for one submit.`);
      } catch (error) {
        if (isAppError(error) && error.status === 404) {
          throw new UsageError(
            `clinic ${options.clinicId} has no form template ${options.templateId}`,
          );
        }
        throw error;
      }
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

const commands: Record<string, (args: readonly string[]) => Promise<void>> = {
  'form-link': formLink,
};

async function run(argv: readonly string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    if (name === undefined) process.exitCode = 2;
    return;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  await command(args);
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`marpe: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(`marpe: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
});
