import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { randomToken, safeEqual, sha256Hex } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/client.js';
import type { CalendarSyncState } from '../../platform/db/schema.js';
import { formatZonedIso } from '../../platform/zoned-time.js';
import { calendarEventText } from './calendar-event-text.js';
import type { Webhooks } from '../webhooks/webhooks-service.js';
import { MARPE_APPOINTMENT_PROPERTY, mirrorRowOf, type MirrorRow } from './calendar-events.js';
import type { CalendarSyncRepository, CalendarSyncRow } from './calendar-sync-repository.js';
import {
  GoogleApiError,
  type EventWrite,
  type GoogleCalendarApi,
  type GoogleEvent,
} from './google-calendar-api.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The poll that catches what push notifications missed: every 5 minutes (ADR 031). */
const CALENDAR_POLL_MS = 5 * MINUTE;
/** A pass holds its calendar this long at most (pages of events, then one transaction). */
const LEASE_MS = 2 * MINUTE;
/** Push channels live a week and are renewed a day before they end. */
const CHANNEL_LIFETIME_MS = 7 * DAY;
const CHANNEL_RENEW_BEFORE_MS = DAY;
/** A failing calendar is tried again after 1, 2, 4… minutes, at most every 30. */
const MAX_RETRY_MS = 30 * MINUTE;
/** Events that ended this long ago are of no use to availability. */
const KEEP_PAST_MS = DAY;
/** The outbox topic of the write-back (one row per appointment change). */
export const CALENDAR_WRITE_TOPIC = 'calendar.write';
/** Where Google sends push notifications. */
export const CALENDAR_NOTIFY_PATH = '/api/calendar-sync/google/notify';
/** Past events are pruned from the mirror this often, not on every pass of the worker. */
const PRUNE_EVERY_MS = 60 * MINUTE;

/** The event id Marpe writes an appointment under: derived, so a retried insert never makes two. */
export const marpeEventId = (appointmentId: number): string => `marpe${appointmentId}`;

export interface CalendarSyncDeps {
  repository: CalendarSyncRepository;
  /** Null when no service account is configured: nothing syncs, bookings skip the last check. */
  api: GoogleCalendarApi | null;
  clock: () => number;
  log: FastifyBaseLogger;
  /** `${publicOrigin}${CALENDAR_NOTIFY_PATH}` receives Google's push notifications. */
  publicOrigin: string;
  webhooks: Pick<Webhooks, 'emit' | 'emitAppointmentConflict' | 'kick'>;
  /** The clinic page's first free slots change with the calendar. */
  invalidateClinic: (clinicId: number) => void;
  /** Queues CALENDAR_WRITE_TOPIC for an appointment in the caller's transaction (the outbox). */
  enqueueWrite: (ex: Executor, appointmentId: number) => Promise<void>;
  /** How long the last check before a booking waits for Google's freeBusy (the config's). */
  freeBusyTimeoutMs: number;
  /** How often the worker looks for due calendars (default 15 s). */
  tickMs?: number;
  /** The clinics the operator opened the service account to (GOOGLE_SERVICE_ACCOUNT_CLINICS). */
  allowedClinics: 'all' | readonly number[];
  /** Counts passes failed for the server's own reason (metrics); none without metrics. */
  onServerFault?: () => void;
}

/** After a last check without an answer, the calendar's next pass: well after the booking commits. */
const RECHECK_AFTER_UNKNOWN_MS = 5_000;

/** What a clinic reads of a calendar shared for reading only. */
const READ_ONLY_MESSAGE =
  'The calendar is shared with "See all event details" only: Marpe reads it but cannot write its bookings into it. Share it with "Make changes to events".';

/** The state a failed pass leaves, from Google's answer. */
function failureState(error: unknown): Exclude<CalendarSyncState, 'pending' | 'syncing'> {
  if (error instanceof GoogleApiError && !error.serverWide) {
    if (error.rateLimited) return 'error';
    if (error.status === 403 || error.status === 401) return 'no_access';
    if (error.status === 404) return 'not_found';
  }
  return 'error';
}

/**
 * What the clinic is shown of a failure. A fault of the server's own (its key refused) is the
 * operator's to see, in the logs and metrics, not every clinic's as if its calendar had failed.
 */
const describe = (error: unknown): string =>
  error instanceof GoogleApiError && !error.serverWide
    ? `${error.status === 0 ? 'no answer' : `HTTP ${error.status}`}: ${error.message}`.slice(0, 300)
    : 'Marpe could not reach Google Calendar; its operator is told. Nothing to do: Marpe retries.';

/**
 * 1, 2, 4… minutes up to 30, each cut by up to half at random: calendars that failed together
 * (a rate limit, an outage) do not all come back to Google in the same second.
 */
const retryDelay = (failures: number) =>
  Math.min(MINUTE * 2 ** Math.min(Math.max(failures - 1, 0), 10), MAX_RETRY_MS) *
  (0.5 + Math.random() / 2);

/** The poll, spread over 30 seconds so calendars connected together are not read together. */
const pollDelay = () => CALENDAR_POLL_MS + Math.floor(Math.random() * 30_000);

/**
 * A full read a day: incremental reads cannot clear everything (a series split with "this and
 * following events" gives its instances new ids, and a missed cancellation would block for good).
 */
const FULL_RESYNC_MS = DAY;

/** Whether [start, end) lies inside one of `cover` (merged intervals). */
function covered(
  interval: { start: number; end: number },
  cover: { start: number; end: number }[],
) {
  return cover.some((c) => c.start <= interval.start && interval.end <= c.end);
}

function merge(intervals: { start: number; end: number }[]) {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

export function createCalendarSync(deps: CalendarSyncDeps) {
  const { repository, api, clock, log, webhooks } = deps;
  const { freeBusyTimeoutMs } = deps;
  const notifyAddress = `${deps.publicOrigin}${CALENDAR_NOTIFY_PATH}`;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let prunedAt = Number.NEGATIVE_INFINITY;

  /**
   * A push channel that lives a week, stored as soon as Google opens it; the old one is stopped
   * once the new one is in place. At most one channel per calendar is live: a pass that fails
   * after this keeps the stored one for the next pass instead of opening another.
   */
  async function ensureChannel(row: CalendarSyncRow, now: number): Promise<void> {
    if (!api) return;
    if (
      row.channelId &&
      row.channelExpiresAt &&
      row.channelExpiresAt.getTime() - now > CHANNEL_RENEW_BEFORE_MS
    ) {
      return;
    }
    const channel = { id: randomUUID(), token: randomToken(32) };
    let answer: { resourceId: string; expiration: number };
    try {
      answer = await api.watch(row.calendarId, {
        ...channel,
        address: notifyAddress,
        expiration: now + CHANNEL_LIFETIME_MS,
      });
    } catch (error) {
      // No access or no calendar: the pass fails with it. Anything else (Google refusing our
      // address, say): the poll still keeps the mirror fresh.
      if (failureState(error) !== 'error') throw error;
      log.warn(
        { caregiverId: row.caregiverId, error: describe(error) },
        'calendar push channel not opened; polling',
      );
      return;
    }
    const saved = await repository.saveChannel(row.caregiverId, row.calendarId, {
      channelId: channel.id,
      channelResourceId: answer.resourceId,
      channelTokenHash: sha256Hex(channel.token),
      channelExpiresAt: new Date(answer.expiration),
    });
    if (!saved) {
      // The caregiver's calendar changed meanwhile: this channel watches one nobody syncs.
      await stopChannel({
        channelId: channel.id,
        resourceId: answer.resourceId,
        calendarId: row.calendarId,
      });
      return;
    }
    if (row.channelId && row.channelResourceId) {
      await stopChannel({
        channelId: row.channelId,
        resourceId: row.channelResourceId,
        calendarId: row.calendarId,
      });
    }
  }

  async function stopChannel(channel: {
    channelId: string;
    resourceId: string;
    calendarId: string;
  }) {
    if (!api) return;
    try {
      await api.stopChannel({
        id: channel.channelId,
        resourceId: channel.resourceId,
        calendarId: channel.calendarId,
      });
    } catch (error) {
      // It expires by itself within a week; its notifications are refused meanwhile.
      log.warn({ error: describe(error) }, 'calendar push channel not stopped');
    }
  }

  /** Every changed event since the sync token (all of them without one); 410 starts over. */
  async function pull(row: CalendarSyncRow) {
    if (!api) throw new Error('calendar sync without an API');
    let syncToken = row.syncToken;
    for (;;) {
      const items: GoogleEvent[] = [];
      let pageToken: string | undefined;
      try {
        for (;;) {
          const page = await api.listEvents(row.calendarId, {
            syncToken,
            ...(pageToken ? { pageToken } : {}),
          });
          items.push(...page.items);
          if (page.nextPageToken) {
            pageToken = page.nextPageToken;
            continue;
          }
          return {
            full: syncToken === null,
            items,
            nextSyncToken: page.nextSyncToken ?? null,
            // Google says on every list what the service account may do with the calendar.
            readOnly: page.accessRole === 'reader' || page.accessRole === 'freeBusyReader',
          };
        }
      } catch (error) {
        if (error instanceof GoogleApiError && error.status === 410 && syncToken !== null) {
          syncToken = null;
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Applies a pass to the mirror in one transaction, and reports what now clashes with Marpe's
   * bookings: Marpe's event deleted in the calendar, or a busy event over a booked appointment.
   */
  async function apply(
    tx: Executor,
    row: CalendarSyncRow & { timezone: string; allDayEventsBlock: boolean },
    pass: { full: boolean; items: GoogleEvent[] },
    now: number,
  ) {
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
    const kept: MirrorRow[] = [];
    const conflicts: {
      appointmentId: number;
      clinicId: number;
      kind: 'event_deleted' | 'overlap';
      eventId: string;
    }[] = [];
    for (const event of pass.items) {
      const mirror = mirrorRowOf(event, row.timezone);
      if (event.status === 'cancelled') {
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

  /** One pass over one claimed calendar; never throws (the state records what went wrong). */
  async function syncOne(
    row: CalendarSyncRow & { timezone: string; allDayEventsBlock: boolean },
  ): Promise<void> {
    const started = clock();
    let reported = false;
    try {
      await ensureChannel(row, started);
      const fullDue =
        row.fullSyncedAt === null || started - row.fullSyncedAt.getTime() >= FULL_RESYNC_MS;
      const pass = await pull(fullDue ? { ...row, syncToken: null } : row);
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
            syncToken: pass.nextSyncToken,
            ...(pass.full ? { fullSyncedAt: new Date(now) } : {}),
            failures: 0,
            nextSyncAt: new Date(now + pollDelay()),
          },
          tx,
        );
        if (state === 'read_only' && row.state !== 'read_only') {
          await reportReadOnly(tx, row);
          reported = true;
        }
      });
      deps.invalidateClinic(row.clinicId);
    } catch (error) {
      if (!(error instanceof GoogleApiError)) {
        log.error({ err: error }, 'calendar sync pass failed');
      } else if (error.serverWide) {
        log.error(
          { status: error.status, error: error.message },
          "calendar sync: Google refused or did not answer the server's token request (check GOOGLE_SERVICE_ACCOUNT_KEY)",
        );
        deps.onServerFault?.();
      }
      const state = failureState(error);
      const failures = row.failures + 1;
      const message = describe(error);
      await repository.db.transaction(async (tx) => {
        await repository.release(
          row.caregiverId,
          row.calendarId,
          {
            state,
            lastError: message,
            failures,
            nextSyncAt: new Date(clock() + retryDelay(failures)),
          },
          tx,
        );
        // Once per change of state: a calendar failing the same way is not reported every pass.
        // A fault of the server's own is not the clinic's to act on: no webhook.
        const serverWide = error instanceof GoogleApiError && error.serverWide;
        if (row.state !== state && !serverWide) {
          await webhooks.emit(tx, {
            clinicId: row.clinicId,
            type: 'calendar.sync_failed',
            data: { caregiver_id: row.caregiverId, state, error: message, failures },
          });
          reported = true;
        }
      });
      log.warn({ caregiverId: row.caregiverId, state, error: message }, 'calendar sync failed');
    }
    if (reported) webhooks.kick();
  }

  async function markReadOnly(caregiverId: number, calendarId: string): Promise<void> {
    const entered = await repository.db.transaction(async (tx) => {
      const row = await repository.findSync(caregiverId, tx);
      if (!row || row.calendarId !== calendarId || row.state === 'read_only') return false;
      await repository.setState(tx, caregiverId, calendarId, {
        state: 'read_only',
        lastError: READ_ONLY_MESSAGE,
      });
      await reportReadOnly(tx, row);
      return true;
    });
    if (entered) webhooks.kick();
  }

  /** `calendar.sync_failed` for a calendar Marpe reads but may not write. */
  async function reportReadOnly(
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

  /** Brings the syncs in step with the caregivers, then works every due calendar. */
  async function runOnce(): Promise<number> {
    if (!api) return 0;
    const stale = await repository.reconcile(new Date(clock()), deps.allowedClinics);
    for (const channel of stale) await stopChannel(channel);
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

  /** Runs now, or once more right after the run under way. */
  function run(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        try {
          total += await runOnce();
        } catch (error) {
          log.error({ err: error }, 'calendar sync worker failed');
        }
      } while (again && !stopped);
      running = null;
      return total;
    })();
    return running;
  }

  return {
    /** Whether calendars can be synced at all (a service account is configured). */
    enabled: api !== null,
    serviceAccountEmail: api?.serviceAccountEmail ?? null,

    /** Works every due calendar now (tests and the demo call it; the worker polls). */
    runOnce: run,

    /** Starts the worker: a look every `tickMs`, and one now. */
    start(): void {
      if (!api || timer || stopped) return;
      timer = setInterval(() => void run(), deps.tickMs ?? 15_000);
      timer.unref();
      void run();
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },

    /** A calendar id was set or changed (the integration API): sync without waiting for the poll. */
    kick(): void {
      if (api && !stopped) void run();
    },

    /**
     * A push notification (the `X-Goog-*` headers): true when it is one of our channels with its
     * token, and then the calendar is synced at once; false otherwise, and nothing happens.
     */
    async notify(headers: {
      channelId: string;
      token: string;
      resourceState: string;
      resourceId: string;
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
      // 'sync' only says the channel is open; 'exists' and 'not_exists' say something changed.
      if (headers.resourceState !== 'sync') {
        await repository.markDue(row.caregiverId, new Date(clock()));
        if (!stopped) void run();
      }
      return true;
    },

    /**
     * An appointment was booked, moved or cancelled: its calendar event follows, through the
     * outbox, in the change's transaction (retried until Google takes it).
     */
    async queueWrite(ex: Executor, appointmentId: number): Promise<void> {
      if (api && (await repository.touchesCalendar(ex, appointmentId))) {
        await deps.enqueueWrite(ex, appointmentId);
      }
    },

    /**
     * The last check before a booking: Google's freeBusy for this one interval, with a short
     * timeout. Busy intervals that Marpe's own booked appointments cover are Marpe's own events
     * (the moved appointment, say) and do not count. No usable answer (a timeout, a rate limit,
     * an `errors` entry for the calendar): 'unknown', the booking goes ahead on the mirror, and the
     * calendar is read again a few seconds later, after the booking is in: an event the mirror
     * lacked then becomes an `overlap` conflict in the desk and a webhook (ADR 040).
     */
    async lastCheck(
      caregiverId: number,
      start: number,
      end: number,
    ): Promise<'busy' | 'free' | 'unknown'> {
      if (!api) return 'free';
      const sync = await repository.findSync(caregiverId);
      // A calendar Marpe cannot read (not shared, not found) would fail this too: the booking
      // does not wait on it, and its state already tells the clinic. One failing for a while
      // (a rate limit, an outage) is still asked: its last answer may be the only one.
      if (!sync || !['syncing', 'read_only', 'error'].includes(sync.state)) return 'free';
      let busy: { start: number; end: number }[];
      try {
        busy = await api.freeBusy(
          sync.calendarId,
          { from: start, to: end },
          AbortSignal.timeout(freeBusyTimeoutMs),
        );
      } catch (error) {
        log.warn(
          { caregiverId, error: describe(error) },
          'calendar freeBusy unanswered before a booking; booked on the mirror, calendar read again',
        );
        // Not at once: the pass must come after the booking's transaction, or it would mirror
        // the event before the appointment exists and never see the two overlap.
        await repository.markDue(caregiverId, new Date(clock() + RECHECK_AFTER_UNKNOWN_MS));
        return 'unknown';
      }
      const own = merge(
        (await repository.bookedIntervals(caregiverId, new Date(start), new Date(end))).map(
          (b) => ({
            start: b.startAt.getTime(),
            end: b.endAt.getTime(),
          }),
        ),
      );
      return busy.some((b) => b.start < end && start < b.end && !covered(b, own)) ? 'busy' : 'free';
    },

    /**
     * The `calendar.write` outbox handler: makes the caregiver's calendar show the appointment as
     * it now stands. Booked: the event under its derived id, patched or inserted (a retry finds
     * it and patches); cancelled, or moved to another caregiver's calendar: the event deleted
     * there. Google unreachable or refusing: throws, and the outbox tries again with backoff.
     */
    async write(appointmentId: number): Promise<void> {
      if (!api) return;
      const appointment = await repository.findForWrite(appointmentId);
      if (!appointment) return;
      const link = await repository.findLink(appointmentId);
      const eventId = marpeEventId(appointmentId);
      const wanted =
        appointment.status === 'booked' && appointment.calendarId !== null
          ? appointment.calendarId
          : null;
      if (link?.present && link.calendarId !== wanted) {
        try {
          await api.deleteEvent(link.calendarId, link.eventId);
        } catch (error) {
          // Gone already (deleted by the caregiver): nothing left to delete.
          if (!(error instanceof GoogleApiError && (error.status === 404 || error.status === 410)))
            throw error;
        }
        await repository.saveLink({ ...link, present: false, writtenAt: new Date(clock()) });
      }
      if (wanted === null) return;
      const text = calendarEventText(appointment.detail, {
        typeName: appointment.typeName,
        patient: appointment,
        source: appointment.source,
      });
      const event: EventWrite = {
        id: eventId,
        summary: text.summary,
        description: text.description,
        start: {
          dateTime: formatZonedIso(appointment.startAt.getTime(), appointment.timezone),
          timeZone: appointment.timezone,
        },
        end: {
          dateTime: formatZonedIso(appointment.endAt.getTime(), appointment.timezone),
          timeZone: appointment.timezone,
        },
        status: 'confirmed',
        transparency: 'opaque',
        extendedProperties: { private: { [MARPE_APPOINTMENT_PROPERTY]: String(appointmentId) } },
      };
      try {
        await api.patchEvent(wanted, eventId, event);
      } catch (error) {
        if (error instanceof GoogleApiError && error.reason === 'requiredAccessLevel') {
          // Shared for reading since the last pass: said now, not after 48 h of retries. The
          // outbox keeps trying, so the booking is written once the share is fixed.
          await markReadOnly(appointment.caregiverId, wanted);
          throw error;
        }
        if (!(error instanceof GoogleApiError && error.status === 404)) throw error;
        try {
          await api.insertEvent(wanted, event);
        } catch (insertError) {
          // Inserted meanwhile (another worker, or a try whose answer was lost): patch it.
          if (!(insertError instanceof GoogleApiError && insertError.status === 409))
            throw insertError;
          await api.patchEvent(wanted, eventId, event);
        }
      }
      await repository.saveLink({
        appointmentId,
        caregiverId: appointment.caregiverId,
        calendarId: wanted,
        eventId,
        present: true,
        writtenAt: new Date(clock()),
      });
    },

    /** `GET /api/integration/calendar-sync`: whom to share with, and each caregiver's state. */
    async status(clinicId: number) {
      const rows = await repository.listClinicSyncs(clinicId);
      return {
        service_account_email: api?.serviceAccountEmail ?? null,
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
