import {
  WEBHOOK_DELIVERIES_DEFAULT_LIMIT,
  WEBHOOK_DELIVERIES_MAX_LIMIT,
  webhookDeliveryStatuses,
  type WebhookDeliveryStatus,
} from '@marpe/shared';
import { eq } from 'drizzle-orm';
import {
  createWebhooksRepository,
  type WebhookDeliveryRow,
} from '../modules/webhooks/webhooks-repository.js';
import type { Database } from '../platform/db/client.js';
import { clinics } from '../platform/db/schema.js';
import { positiveInteger, readArgs, UsageError } from './args.js';

export const WEBHOOK_DELIVERIES_USAGE = `  webhook-deliveries --clinic <id> [--status ${webhookDeliveryStatuses.join('|')}] [--limit <n>]
      Prints the clinic's webhook delivery log, newest first: when, event id and type,
      endpoint, status, attempts, the last HTTP status and error. --limit caps the rows
      (default ${WEBHOOK_DELIVERIES_DEFAULT_LIMIT}, at most ${WEBHOOK_DELIVERIES_MAX_LIMIT}).`;

export interface WebhookDeliveriesArgs {
  clinicId: number;
  status?: WebhookDeliveryStatus;
  limit: number;
}

/** The command's options, or 'help' for --help. */
export function parseWebhookDeliveriesArgs(
  args: readonly string[],
): WebhookDeliveriesArgs | 'help' {
  const { values } = readArgs(args, {
    help: { type: 'boolean', short: 'h' },
    clinic: { type: 'string' },
    status: { type: 'string' },
    limit: { type: 'string' },
  });
  if (values.help) return 'help';
  const clinicId =
    values.clinic === undefined ? undefined : positiveInteger('--clinic', values.clinic);
  const limit =
    values.limit === undefined
      ? WEBHOOK_DELIVERIES_DEFAULT_LIMIT
      : positiveInteger('--limit', values.limit, WEBHOOK_DELIVERIES_MAX_LIMIT);
  let status: WebhookDeliveryStatus | undefined;
  if (values.status !== undefined) {
    status = webhookDeliveryStatuses.find((s) => s === values.status);
    if (!status) throw new UsageError(`--status is one of ${webhookDeliveryStatuses.join(', ')}`);
  }
  if (clinicId === undefined) throw new UsageError('--clinic <id> is required');
  return { clinicId, status, limit };
}

/** The clinic's deliveries, newest first; a UsageError for a clinic that does not exist. */
export async function listWebhookDeliveries(
  db: Database,
  options: WebhookDeliveriesArgs,
): Promise<WebhookDeliveryRow[]> {
  const [clinic] = await db
    .select({ id: clinics.id })
    .from(clinics)
    .where(eq(clinics.id, options.clinicId));
  if (!clinic) throw new UsageError(`there is no clinic ${options.clinicId}`);
  return createWebhooksRepository(db).listDeliveries(options.clinicId, {
    status: options.status,
    limit: options.limit,
  });
}

const columns: [string, (row: WebhookDeliveryRow) => string][] = [
  ['CREATED', (row) => row.createdAt.toISOString()],
  ['EVENT', (row) => row.eventId],
  ['TYPE', (row) => row.eventType],
  ['ENDPOINT', (row) => String(row.endpointId)],
  ['STATUS', (row) => row.status],
  ['ATTEMPTS', (row) => String(row.attempts)],
  ['HTTP', (row) => (row.lastStatusCode === null ? '-' : String(row.lastStatusCode))],
  ['LAST ERROR', (row) => row.lastError ?? '-'],
];

/** A plain-text table, one row per delivery, columns padded to their widest cell. */
export function formatWebhookDeliveries(rows: readonly WebhookDeliveryRow[]): string {
  if (rows.length === 0) return 'No webhook deliveries.';
  const cells = [
    columns.map(([title]) => title),
    ...rows.map((row) => columns.map(([, cell]) => cell(row))),
  ];
  const widths = columns.map((_, c) => Math.max(...cells.map((line) => line[c]?.length ?? 0)));
  return cells
    .map((line) =>
      line
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
