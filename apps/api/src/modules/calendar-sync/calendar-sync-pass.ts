import { backoffDelayMs } from '../../platform/backoff.js';
import type { Executor } from '../../platform/db/client.js';
import { mirrorRowOf, type MirrorRow } from './calendar-events.js';
import {
  CalendarProviderError,
  type ProviderChanges,
  type ProviderEvent,
} from './calendar-provider.js';
import type { createPushChannels } from './calendar-push-channels.js';
import {
  DAY,
  clinicErrorText,
  failureState,
  isServerWide,
  MINUTE,
  READ_ONLY_MESSAGE,
  reportReadOnly,
  type CalendarSyncDeps,
} from './calendar-sync-deps.js';
import type { ClaimedSync } from './calendar-sync-repository.js';

/** The poll that catches what push notifications missed: every 5 minutes (ADR 031). */
const CALENDAR_POLL_MS = 5 * MINUTE;
/** A failing calendar is tried again after 1, 2, 4… minutes, at most every 30. */
const MAX_RETRY_MS = 30 * MINUTE;
/** Events that ended this long ago are of no use to availability. */
export const KEEP_PAST_MS = DAY;
/** How far ahead a full read looks, where the provider needs a window (Graph's calendarView). */
const READ_AHEAD_MS = 400 * DAY;
/**
 * A full read a day: incremental reads cannot clear everything (a series split with "this and
 * following events" gives its instances new ids, and a missed cancellation would block for good).
 */
const FULL_RESYNC_MS = DAY;

/**
 * The one backoff (ADR 044) below 1, 2, 4… minutes up to 30: calendars that failed together (a
 * rate limit, an outage) do not all come back to the provider in the same second. A provider's
 * `Retry-After` is never undercut.
 */
const retryDelay = (failures: number, error: unknown) =>
  Math.max(
    backoffDelayMs({ firstMs: MINUTE, maxMs: MAX_RETRY_MS }, failures),
    error instanceof CalendarProviderError ? (error.retryAfter ?? 0) : 0,
  );

/** The poll, spread over 30 seconds so calendars connected together are not read together. */
const pollDelay = () => CALENDAR_POLL_MS + Math.floor(Math.random() * 30_000);

/** One pass over one claimed calendar: its changes read, mirrored, and clashes reported. */
export function createSyncPass(
  deps: CalendarSyncDeps,
  channels: ReturnType<typeof createPushChannels>,
) {
  const { repository, api, clock, log, webhooks } = deps;

  /** Every change since the cursor (all of it without one); a stale cursor starts over. */
  async function pull(row: ClaimedSync, cursor: string | null, now: number) {
    if (!api) throw new Error('calendar sync without an API');
    const options = {
      zone: row.timezone,
      window: { from: now - KEEP_PAST_MS, to: now + READ_AHEAD_MS },
    };
    try {
      return await api.listChanges(row.calendarId, cursor, options);
    } catch (error) {
      if (!(error instanceof CalendarProviderError && error.kind === 'stale_cursor' && cursor)) {
        throw error;
      }
      return api.listChanges(row.calendarId, null, options);
    }
  }

  /**
   * Applies a pass to the mirror in one transaction, and reports what now clashes with Marpe's
   * bookings: Marpe's event deleted in the calendar, or a busy event over a booked appointment.
   */
  async function apply(tx: Executor, row: ClaimedSync, pass: ProviderChanges, now: number) {
    const keepFrom = now - KEEP_PAST_MS;
    // The caregiver's future bookings, read once a pass and only if a busy event came (most
    // polls bring nothing).
    let booked: { start: number; end: number; id: number; clinicId: number }[] | null = null;
    const bookedNow = async () =>
      (booked ??= (
        await repository.bookedIntervals(
          row.caregiverId,
          new Date(now),
          new Date(now + 3650 * DAY),
          tx,
        )
      ).map((b) => ({
        start: b.startAt.getTime(),
        end: b.endAt.getTime(),
        id: b.id,
        clinicId: b.clinicId,
      })));
    // Marpe's own events, known by their property or else by the link the write-back kept.
    let linked: Map<string, number> | null = null;
    const appointmentOf = async (event: ProviderEvent) =>
      event.appointmentId ??
      (linked ??= await repository.linkedEvents(tx, row.caregiverId)).get(event.id) ??
      null;
    const kept: MirrorRow[] = [];
    const conflicts: {
      appointmentId: number;
      clinicId: number;
      kind: 'event_deleted' | 'overlap';
      eventId: string;
    }[] = [];
    for (const event of pass.events) {
      const mirror = mirrorRowOf({ ...event, appointmentId: await appointmentOf(event) });
      if (event.cancelled) {
        const link = await repository.findLinkByEvent(tx, row.caregiverId, event.id);
        if (link) {
          const appointment = await repository.findAppointment(tx, link.appointmentId);
          if (appointment?.status === 'booked') {
            conflicts.push({
              appointmentId: appointment.id,
              clinicId: appointment.clinicId,
              kind: 'event_deleted',
              eventId: event.id,
            });
          }
        }
      }
      // A "Free" all-day event over a booking clashes only while such events block.
      const blocks = mirror?.busy === true && (!mirror.allDayFree || row.allDayEventsBlock);
      if (mirror && blocks && mirror.appointmentId === null) {
        const start = mirror.startAt.getTime();
        const end = mirror.endAt.getTime();
        for (const b of await bookedNow()) {
          if (b.start < end && start < b.end) {
            conflicts.push({
              appointmentId: b.id,
              clinicId: b.clinicId,
              kind: 'overlap',
              eventId: event.id,
            });
          }
        }
      }
      const keep = mirror !== null && mirror.endAt.getTime() > keepFrom;
      if (pass.full) {
        if (keep) kept.push(mirror);
      } else if (keep) {
        await repository.upsertMirror(tx, row.caregiverId, mirror);
      } else {
        await repository.deleteMirror(tx, row.caregiverId, event.id);
      }
    }
    if (pass.full) {
      // One instance per id: a page may repeat an event that changed while listing.
      const byId = new Map(kept.map((r) => [r.eventId, r]));
      await repository.replaceMirror(tx, row.caregiverId, [...byId.values()]);
    }
    let reported = false;
    for (const conflict of conflicts) {
      const detectedAt = new Date(now);
      const fresh = await repository.addConflict(tx, {
        ...conflict,
        caregiverId: row.caregiverId,
        detectedAt,
      });
      if (!fresh) continue;
      await webhooks.emitAppointmentConflict(
        tx,
        { id: conflict.appointmentId, clinicId: conflict.clinicId },
        { kind: conflict.kind, event_id: conflict.eventId, detected_at: detectedAt.toISOString() },
      );
      reported = true;
    }
    return reported;
  }

  /** Records a failed pass: its state, when to try again, and the webhook once per state. */
  async function fail(row: ClaimedSync, error: unknown): Promise<boolean> {
    if (!(error instanceof CalendarProviderError)) {
      log.error({ err: error }, 'calendar sync pass failed');
    } else if (isServerWide(error)) {
      log.error(
        { status: error.status, error: error.message },
        "calendar sync: the provider refused or did not answer the server's token request (check GOOGLE_SERVICE_ACCOUNT_KEY)",
      );
      deps.onServerFault?.();
    }
    const state = failureState(error);
    const failures = row.failures + 1;
    const message = clinicErrorText(error);
    let reported = false;
    await repository.db.transaction(async (tx) => {
      await repository.release(
        row.caregiverId,
        row.calendarId,
        {
          state,
          lastError: message,
          failures,
          nextSyncAt: new Date(clock() + retryDelay(failures, error)),
        },
        tx,
      );
      // Once per change of state: a calendar failing the same way is not reported every pass.
      // A fault of the server's own is not the clinic's to act on: no webhook.
      if (row.state !== state && !isServerWide(error)) {
        await webhooks.emit(tx, {
          clinicId: row.clinicId,
          type: 'calendar.sync_failed',
          data: { caregiver_id: row.caregiverId, state, error: message, failures },
        });
        reported = true;
      }
    });
    log.warn({ caregiverId: row.caregiverId, state, error: message }, 'calendar sync failed');
    return reported;
  }

  /** One pass over one claimed calendar; never throws (the state records what went wrong). */
  async function syncOne(row: ClaimedSync): Promise<void> {
    const started = clock();
    let reported = false;
    try {
      await channels.ensureChannel(row, started);
      const fullDue =
        row.fullSyncedAt === null || started - row.fullSyncedAt.getTime() >= FULL_RESYNC_MS;
      const pass = await pull(row, fullDue ? null : row.syncToken, started);
      const now = clock();
      await repository.db.transaction(async (tx) => {
        reported = await apply(tx, row, pass, now);
        const state = pass.readOnly ? 'read_only' : 'syncing';
        await repository.release(
          row.caregiverId,
          row.calendarId,
          {
            state,
            lastError: pass.readOnly ? READ_ONLY_MESSAGE : null,
            lastSyncedAt: new Date(now),
            syncToken: pass.cursor,
            ...(pass.full ? { fullSyncedAt: new Date(now) } : {}),
            failures: 0,
            nextSyncAt: new Date(now + pollDelay()),
          },
          tx,
        );
        if (state === 'read_only' && row.state !== 'read_only') {
          await reportReadOnly(webhooks, tx, row);
          reported = true;
        }
      });
      deps.invalidateClinic(row.clinicId);
    } catch (error) {
      reported = await fail(row, error);
    }
    if (reported) webhooks.kick();
  }

  return { syncOne };
}
