// `npm run marpe -- <command> …`: operator commands on the configured database (DATABASE_URL, or
// the embedded one in DATA_DIR, which must not be open in a running server).
import { MAX_PAYMENTS } from '@marpe/shared';
import { UsageError } from './args.js';
import { parseFormLinkArgs } from './form-link-args.js';
import { parsePaymentLinkArgs } from './payment-link-args.js';
import {
  formatWebhookDeliveries,
  listWebhookDeliveries,
  parseWebhookDeliveriesArgs,
  WEBHOOK_DELIVERIES_USAGE,
} from './webhook-deliveries.js';
import { CLINIC_COMMANDS_USAGE, clinicCommands } from './clinic-commands.js';
import { createFormsRepository } from '../modules/forms/forms-repository.js';
import { DEFAULT_LINK_DAYS, MAX_LINK_DAYS } from '../modules/forms/form-links.js';
import { createFormsService } from '../modules/forms/forms-service.js';
import { createPaymentsRepository } from '../modules/payments/payments-repository.js';
import {
  DEFAULT_PAYMENT_LINK_DAYS,
  MAX_PAYMENT_LINK_DAYS,
} from '../modules/payments/create-payment-link.js';
import { createPaymentsService } from '../modules/payments/payments-service.js';
import { ConfigError } from '../platform/config.js';
import { deriveKey, loadDataKey, sealingKey } from '../platform/crypto.js';
import { DataDirLockedError } from '../platform/data-dir-lock.js';
import { isStoredId } from '../platform/db/schema.js';
import { isAppError } from '../platform/errors.js';
import { rotateDataKey } from '../platform/key-rotation.js';
import { withDatabase } from './open-database.js';

const USAGE = `Usage: npm run marpe -- <command> [options]

Commands:
  form-link --clinic <id> --template <id> [--init key=value …] [--days <n>]
      Prints a new intake-form link for one patient. --init fills {{initData.key}} in the
      form (repeat it, or list several pairs after one --init). The link works once, for
      ${DEFAULT_LINK_DAYS} days unless --days says otherwise (1-${MAX_LINK_DAYS}).
  payment-link --clinic <id> --amount <shekels> [--payments <max>] [--terminal <name>]
               [--patient-id <id>] [--remarks <text>] [--email <addr>] [--description <text>]
               [--purpose <text>] [--days <n>]
      Prints a new payment link: --amount in shekels with up to 2 decimals (1250.50), payable
      in 1 to --payments instalments (default 1, at most ${MAX_PAYMENTS}), on the clinic's card
      terminal unless --terminal names another. --patient-id, --remarks (usually the patient's
      name) and --email go to the card frame; --description is the clinic's own note, and
      --purpose what the payment is for, shown to the patient on the payment page. The link
      works until paid, for ${DEFAULT_PAYMENT_LINK_DAYS} days unless --days says otherwise (1-${MAX_PAYMENT_LINK_DAYS}).
  rotate-data-key
      Re-encrypts everything stored encrypted with DATA_KEY, reading what older keys wrote
      through DATA_KEY_PREVIOUS; prints what it rotated per column. Run it after moving the old
      key to DATA_KEY_PREVIOUS and the new one to DATA_KEY; then drop DATA_KEY_PREVIOUS.
${WEBHOOK_DELIVERIES_USAGE}
${CLINIC_COMMANDS_USAGE}`;

async function formLink(args: readonly string[]): Promise<void> {
  const options = parseFormLinkArgs(args);
  await withDatabase(async (database, config) => {
    const dataKey = await loadDataKey(config);
    const forms = createFormsService({
      repository: createFormsRepository(database.db),
      clock: Date.now,
      formsKey: deriveKey(dataKey, 'forms'),
      sealKey: sealingKey({ current: dataKey, previous: config.previousDataKeys }, 'forms'),
      publicOrigin: config.publicOrigin,
    });
    if (!isStoredId(options.clinicId) || !isStoredId(options.templateId)) {
      throw new UsageError('no such clinic or template');
    }
    try {
      const { days, ...input } = options;
      const link = await forms.createLink({ ...input, expiresInDays: days });
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
  });
}

async function paymentLink(args: readonly string[]): Promise<void> {
  const options = parsePaymentLinkArgs(args);
  await withDatabase(async (database, config) => {
    const payments = createPaymentsService({
      repository: createPaymentsRepository(database.db),
      clock: Date.now,
      publicOrigin: config.publicOrigin,
      requireProviderCredentials: !config.demo,
    });
    try {
      const { days, ...input } = options;
      const link = await payments.createLink({ ...input, expiresInDays: days });
      console.log(link.url);
      console.error(`Valid until ${link.expiresAt.toISOString()}, or until paid.`);
    } catch (error) {
      if (isAppError(error) && error.status === 404) {
        throw new UsageError(`there is no clinic ${options.clinicId}`);
      }
      // The service names the bad value (a missing terminal, a bad email…).
      if (isAppError(error) && error.status === 400) throw new UsageError(error.message);
      throw error;
    }
  });
}

async function webhookDeliveries(args: readonly string[]): Promise<void> {
  const options = parseWebhookDeliveriesArgs(args);
  if (options === 'help') {
    console.log(WEBHOOK_DELIVERIES_USAGE);
    return;
  }
  await withDatabase(async (database) => {
    console.log(formatWebhookDeliveries(await listWebhookDeliveries(database.db, options)));
  });
}

async function rotateKey(args: readonly string[]): Promise<void> {
  if (args.length > 0) throw new UsageError('rotate-data-key takes no options');
  await withDatabase(async (database, config) => {
    const current = await loadDataKey(config);
    const results = await rotateDataKey(database.db, {
      current,
      previous: config.previousDataKeys,
    });
    for (const r of results) {
      console.log(
        `${r.table}.${r.column}: ${r.rotated} re-encrypted, ${r.current} already current`,
      );
    }
  });
}

const commands: Record<string, (args: readonly string[]) => Promise<void>> = {
  'rotate-data-key': rotateKey,
  'form-link': formLink,
  'payment-link': paymentLink,
  'webhook-deliveries': webhookDeliveries,
  ...clinicCommands(withDatabase),
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
