import type { Executor } from '../../platform/db/client.js';
import { safeEqual, sha256Hex } from '../../platform/crypto.js';
import { createWorkerLoop } from '../../platform/worker-loop.js';
import { createLastCheck } from './calendar-last-check.js';
import { createPushChannels } from './calendar-push-channels.js';
import { MINUTE, type CalendarSyncDeps } from './calendar-sync-deps.js';
import { createSyncPass, KEEP_PAST_MS } from './calendar-sync-pass.js';
import { createWriteBack } from './calendar-write-back.js';

// Caregivers' external calendars (docs/calendar-sync.md, ADR 031, ADR 043): the worker that keeps
// the mirror, push notifications, the last check and the write-back, over one CalendarProvider.

/** A pass holds its calendar this long at most (pages of events, then one transaction). */
const LEASE_MS = 2 * MINUTE;
/** The outbox topic of the write-back (one row per appointment change). */
export const CALENDAR_WRITE_TOPIC = 'calendar.write';
/** Past events are pruned from the mirror this often, not on every pass of the worker. */
const PRUNE_EVERY_MS = 60 * MINUTE;

export type { CalendarSyncDeps } from './calendar-sync-deps.js';

export function createCalendarSync(deps: CalendarSyncDeps) {
  const { repository, api, clock, log } = deps;
  let prunedAt = Number.NEGATIVE_INFINITY;
  const channels = createPushChannels(deps);
  const { syncOne } = createSyncPass(deps, channels);

  /** Brings the syncs in step with the caregivers, then works every due calendar. */
  async function syncDueCalendars(): Promise<number> {
    if (!api) return 0;
    const stale = await repository.reconcile(new Date(clock()), deps.allowedClinics);
    for (const channel of stale) {
      await channels.stopChannel({
        id: channel.channelId,
        resourceId: channel.resourceId,
        calendarId: channel.calendarId,
      });
    }
    if (clock() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = clock();
      await repository.pruneMirror(new Date(prunedAt - KEEP_PAST_MS));
    }
    let passes = 0;
    for (;;) {
      const row = await repository.claimDue(new Date(clock()), LEASE_MS);
      if (!row) break;
      await syncOne(row);
      passes++;
    }
    return passes;
  }

  const loop = createWorkerLoop({
    name: 'calendar sync',
    run: syncDueCalendars,
    everyMs: deps.tickMs ?? 15_000,
    log,
  });

  return {
    /** Whether calendars can be synced at all (a service account is configured). */
    enabled: api !== null,
    serviceAccountEmail: api?.serviceAccountEmail ?? null,

    /** Works every due calendar now, after the run under way (tests and the demo call it). */
    runOnce: loop.runOnce,

    /** Starts the worker: a look every `tickMs`, and one now. */
    start(): void {
      if (api) loop.start();
    },

    stop: loop.stop,

    /** A calendar id was set or changed (the integration API): sync without waiting for the poll. */
    kick: loop.kick,

    /**
     * A push notification (Google's `X-Goog-*` headers, or a Graph notification): true when it
     * is one of our channels with its token, and then the calendar is synced at once; false
     * otherwise, and nothing happens. A Graph lifecycle event that the subscription was removed
     * or needs reauthorizing also has the pass renew or replace it.
     */
    async notify(headers: {
      channelId: string;
      token: string;
      resourceState: string;
      resourceId: string;
      lifecycle?: string;
    }): Promise<boolean> {
      if (headers.channelId === '' || headers.token === '') return false;
      const row = await repository.findByChannel(headers.channelId);
      if (
        !row?.channelTokenHash ||
        !safeEqual(sha256Hex(headers.token), row.channelTokenHash) ||
        (headers.resourceId !== '' && row.channelResourceId !== headers.resourceId)
      ) {
        return false;
      }
      if (
        headers.lifecycle === 'subscriptionRemoved' ||
        headers.lifecycle === 'reauthorizationRequired'
      ) {
        await repository.markChannelStale(row.caregiverId, headers.channelId, new Date(clock()));
      }
      // 'sync' only says the channel is open; 'exists' and 'not_exists' say something changed.
      if (headers.resourceState !== 'sync') {
        await repository.markDue(row.caregiverId, new Date(clock()));
        loop.kick();
      }
      return true;
    },

    /**
     * An appointment was booked, moved or cancelled: its calendar event follows, through the
     * outbox, in the change's transaction (retried until the provider takes it).
     */
    async queueWrite(ex: Executor, appointmentId: number): Promise<void> {
      if (api && (await repository.touchesCalendar(ex, appointmentId))) {
        await deps.enqueueWrite(ex, appointmentId);
      }
    },

    /** The last check before a booking (ADR 040). */
    lastCheck: createLastCheck(deps),

    /** The `calendar.write` outbox handler. */
    write: createWriteBack(deps),

    /** `GET /api/integration/calendar-sync`: whom to share with, and each caregiver's state. */
    async status(clinicId: number) {
      const rows = await repository.listClinicSyncs(clinicId);
      return {
        service_account_email: api?.serviceAccountEmail ?? null,
        connect_providers: [...(deps.connectProviders ?? [])],
        caregivers: rows.map((row) => ({
          caregiver_id: row.caregiverId,
          calendar_id: row.calendarId ?? '',
          state: row.state ?? ('pending' as const),
          last_error: row.lastError ?? null,
          last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
          push:
            row.channelExpiresAt !== null &&
            row.channelExpiresAt !== undefined &&
            row.channelExpiresAt.getTime() > clock(),
          connection: row.accountEmail ? ('oauth' as const) : ('service_account' as const),
          account_email: row.accountEmail ?? null,
          provider: row.provider ?? ('google' as const),
        })),
      };
    },

    /** The clinic's calendar conflicts, newest first. */
    async conflicts(clinicId: number, limit: number) {
      const rows = await repository.listConflicts(clinicId, limit);
      return rows.map((row) => ({
        id: row.id,
        appointment_id: row.appointmentId,
        caregiver_id: row.caregiverId,
        kind: row.kind,
        event_id: row.eventId,
        detected_at: row.detectedAt.toISOString(),
      }));
    },
  };
}

export type CalendarSync = ReturnType<typeof createCalendarSync>;
