import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../platform/db/client.js';
import type { CalendarProviderName, CalendarSyncState } from '../../platform/db/schema.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { CalendarProviderError, type CalendarProvider } from './calendar-provider.js';
import type { CalendarSyncRepository } from './calendar-sync-repository.js';

// What the sync's use cases (the pass, the push channels, the last check, the write-back) share:
// their dependencies and how a provider's failure reads to the clinic.

export const MINUTE = 60_000;
export const DAY = 86_400_000;

export interface CalendarSyncDeps {
  repository: CalendarSyncRepository;
  /** Null when no calendar can be reached: nothing syncs, bookings skip the last check. */
  api: CalendarProvider | null;
  clock: () => number;
  log: FastifyBaseLogger;
  /** The server's public origin: providers push notifications to its notify routes. */
  publicOrigin: string;
  webhooks: Pick<Webhooks, 'emit' | 'emitAppointmentConflict' | 'kick'>;
  /** The clinic page's first free slots change with the calendar. */
  invalidateClinic: (clinicId: number) => void;
  /** Queues CALENDAR_WRITE_TOPIC for an appointment in the caller's transaction (the outbox). */
  enqueueWrite: (ex: Executor, appointmentId: number) => Promise<void>;
  /** How long the last check before a booking waits for the provider (the config's). */
  freeBusyTimeoutMs: number;
  /** How often the worker looks for due calendars (default 15 s). */
  tickMs?: number;
  /** The clinics the operator opened the service account to (GOOGLE_SERVICE_ACCOUNT_CLINICS). */
  allowedClinics: 'all' | readonly number[];
  /** The providers a connection link can be made for (each has its OAuth client). */
  connectProviders?: readonly CalendarProviderName[];
  /** Counts passes failed for the server's own reason (metrics); none without metrics. */
  onServerFault?: () => void;
}

/**
 * What a clinic reads of a calendar shared for reading only: in Google's words (a share "See all
 * event details"), and for a calendar connected by consent, whichever the provider, a new link.
 */
export const READ_ONLY_MESSAGE =
  'The calendar is shared with "See all event details" only: Marpe reads it but cannot write its bookings into it. Share it with "Make changes to events" (for a calendar the caregiver connected: send a new link and choose one they can edit).';

/** The state a failed pass leaves, from the provider's answer. */
export function failureState(error: unknown): Exclude<CalendarSyncState, 'pending' | 'syncing'> {
  if (!(error instanceof CalendarProviderError)) return 'error';
  switch (error.kind) {
    case 'no_access':
    case 'read_only':
      return 'no_access';
    case 'not_found':
      return 'not_found';
    default:
      return 'error';
  }
}

/** Marpe's own credentials failed: the operator's to fix, not the clinic's. */
export const isServerWide = (error: unknown): boolean =>
  error instanceof CalendarProviderError && error.kind === 'server_wide';

/**
 * What the clinic is shown of a failure. A fault of the server's own (its key refused) is the
 * operator's to see, in the logs and metrics, not every clinic's as if its calendar had failed.
 */
export const clinicErrorText = (error: unknown): string =>
  error instanceof CalendarProviderError && !isServerWide(error)
    ? `${error.status === 0 ? 'no answer' : `HTTP ${error.status}`}: ${error.message}`.slice(0, 300)
    : 'Marpe could not reach the calendar provider; its operator is told. Nothing to do: Marpe retries.';

/** `calendar.sync_failed` for a calendar Marpe reads but may not write. */
export async function reportReadOnly(
  webhooks: CalendarSyncDeps['webhooks'],
  tx: Executor,
  row: { clinicId: number; caregiverId: number; failures: number },
): Promise<void> {
  await webhooks.emit(tx, {
    clinicId: row.clinicId,
    type: 'calendar.sync_failed',
    data: {
      caregiver_id: row.caregiverId,
      state: 'read_only',
      error: READ_ONLY_MESSAGE,
      failures: row.failures,
    },
  });
}
