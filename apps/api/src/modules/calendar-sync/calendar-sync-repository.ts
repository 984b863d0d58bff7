import { and, asc, eq, getTableColumns, gt, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  calendarConflicts,
  calendarConnections,
  calendarEventLinks,
  calendarEvents,
  calendarSyncs,
  caregivers,
  clinics,
  isStoredId,
  patients,
  type CalendarProviderName,
} from '../../platform/db/schema.js';
import type { MirrorRow } from './calendar-events.js';

// The sync's tables (calendar_syncs, calendar_events, calendar_event_links, calendar_conflicts)
// and the appointments it compares with them. Over 400 lines: one repository a module, as the
// other modules keep theirs; each query is small and named for its one use.

export type CalendarSyncRow = typeof calendarSyncs.$inferSelect;
/** A claimed calendar with what its pass needs: the clinic's zone and setting, its provider. */
export type ClaimedSync = CalendarSyncRow & {
  timezone: string;
  allDayEventsBlock: boolean;
  /** The connection's provider; a calendar reached through the service account is Google's. */
  provider: CalendarProviderName;
};

export function createCalendarSyncRepository(db: Database) {
  return {
    db,

    /**
     * Brings `calendar_syncs` in step with the caregivers' calendar ids: a new or changed id
     * starts over (full sync due now), a removed one goes with its mirror. Only calendars
     * connected by consent and those of the clinics the operator opened the service account to
     * sync, and a calendar syncs for one caregiver only
     * (the first to name it: the API refuses a second, this holds even if two raced). Returns the
     * push channels of the rows that went, to be stopped with Google.
     */
    async reconcile(now: Date, allowedClinics: 'all' | readonly number[]) {
      return db.transaction(async (tx) => {
        const wanted = await tx
          .select({
            caregiverId: caregivers.id,
            clinicId: caregivers.clinicId,
            calendarId: caregivers.googleCalendarSyncCalendarId,
            connected: calendarConnections.caregiverId,
          })
          .from(caregivers)
          .leftJoin(
            calendarConnections,
            and(
              eq(calendarConnections.caregiverId, caregivers.id),
              eq(calendarConnections.calendarId, caregivers.googleCalendarSyncCalendarId),
            ),
          )
          .where(
            and(isNotNull(caregivers.googleCalendarSyncCalendarId), eq(caregivers.isActive, true)),
          )
          .orderBy(asc(caregivers.id));
        const have = await tx.select().from(calendarSyncs);
        const claimed = new Set<string>();
        const byCaregiver = new Map(have.map((row) => [row.caregiverId, row]));
        const stale: { channelId: string; resourceId: string; calendarId: string }[] = [];
        const keep = new Set<number>();
        for (const w of wanted) {
          const calendarId = (w.calendarId ?? '').trim();
          if (calendarId === '') continue;
          // A calendar connected by consent syncs with its own token; the service account only
          // for the clinics the operator named.
          const allowed =
            w.connected !== null || allowedClinics === 'all' || allowedClinics.includes(w.clinicId);
          if (!allowed) continue;
          if (claimed.has(calendarId.toLowerCase())) continue;
          claimed.add(calendarId.toLowerCase());
          keep.add(w.caregiverId);
          const row = byCaregiver.get(w.caregiverId);
          if (row?.calendarId === calendarId) continue;
          if (row?.channelId && row.channelResourceId) {
            stale.push({
              channelId: row.channelId,
              resourceId: row.channelResourceId,
              calendarId: row.calendarId,
            });
          }
          await tx.delete(calendarEvents).where(eq(calendarEvents.caregiverId, w.caregiverId));
          const fresh = {
            clinicId: w.clinicId,
            calendarId,
            state: 'pending' as const,
            lastError: null,
            lastSyncedAt: null,
            syncToken: null,
            fullSyncedAt: null,
            failures: 0,
            nextSyncAt: now,
            leaseUntil: null,
            channelId: null,
            channelResourceId: null,
            channelTokenHash: null,
            channelExpiresAt: null,
          };
          await tx
            .insert(calendarSyncs)
            .values({ caregiverId: w.caregiverId, ...fresh })
            .onConflictDoUpdate({ target: calendarSyncs.caregiverId, set: fresh });
        }
        for (const row of have) {
          if (keep.has(row.caregiverId)) continue;
          if (row.channelId && row.channelResourceId) {
            stale.push({
              channelId: row.channelId,
              resourceId: row.channelResourceId,
              calendarId: row.calendarId,
            });
          }
          await tx.delete(calendarEvents).where(eq(calendarEvents.caregiverId, row.caregiverId));
          await tx.delete(calendarSyncs).where(eq(calendarSyncs.caregiverId, row.caregiverId));
        }
        return stale;
      });
    },

    /**
     * Takes one due calendar for `leaseMs`: due now, not held by another worker. Several API
     * processes share the work; a worker that dies frees its lease when it runs out.
     */
    async claimDue(now: Date, leaseMs: number): Promise<ClaimedSync | null> {
      const [row] = await db
        .update(calendarSyncs)
        .set({ leaseUntil: new Date(now.getTime() + leaseMs) })
        .where(
          eq(
            calendarSyncs.caregiverId,
            sql`(SELECT caregiver_id FROM calendar_syncs
                 WHERE next_sync_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
                 ORDER BY next_sync_at LIMIT 1 FOR UPDATE SKIP LOCKED)`,
          ),
        )
        .returning();
      if (!row) return null;
      const [clinic] = await db
        .select({
          timezone: clinics.timezone,
          allDayEventsBlock: clinics.calendarAllDayEventsBlock,
        })
        .from(clinics)
        .where(eq(clinics.id, row.clinicId));
      const [connection] = await db
        .select({ provider: calendarConnections.provider })
        .from(calendarConnections)
        .where(eq(calendarConnections.caregiverId, row.caregiverId));
      return {
        ...row,
        timezone: clinic?.timezone ?? 'Asia/Jerusalem',
        allDayEventsBlock: clinic?.allDayEventsBlock ?? true,
        provider: connection?.provider ?? 'google',
      };
    },

    async release(
      caregiverId: number,
      calendarId: string,
      values: Partial<Omit<CalendarSyncRow, 'caregiverId' | 'clinicId' | 'calendarId'>>,
      ex: Executor = db,
    ) {
      await ex
        .update(calendarSyncs)
        .set({ ...values, leaseUntil: null })
        // A calendar id changed meanwhile: that row is another sync now.
        .where(
          and(eq(calendarSyncs.caregiverId, caregiverId), eq(calendarSyncs.calendarId, calendarId)),
        );
    },

    /**
     * A newly opened push channel, kept at once (before the pass reads the calendar): a pass that
     * then fails leaves it stored, to be used or stopped, never open and forgotten. False when the
     * calendar id changed meanwhile.
     */
    async saveChannel(
      caregiverId: number,
      calendarId: string,
      channel: Pick<
        CalendarSyncRow,
        'channelId' | 'channelResourceId' | 'channelTokenHash' | 'channelExpiresAt'
      >,
    ): Promise<boolean> {
      const saved = await db
        .update(calendarSyncs)
        .set(channel)
        .where(
          and(eq(calendarSyncs.caregiverId, caregiverId), eq(calendarSyncs.calendarId, calendarId)),
        )
        .returning({ caregiverId: calendarSyncs.caregiverId });
      return saved.length > 0;
    },

    /** A state learnt outside a pass (a write refused); the pass's lease is left alone. */
    async setState(
      tx: Executor,
      caregiverId: number,
      calendarId: string,
      values: Pick<CalendarSyncRow, 'state' | 'lastError'>,
    ) {
      await tx
        .update(calendarSyncs)
        .set(values)
        .where(
          and(eq(calendarSyncs.caregiverId, caregiverId), eq(calendarSyncs.calendarId, calendarId)),
        );
    },

    /** The sync whose push channel this is; null when unknown. */
    async findByChannel(channelId: string) {
      const [row] = await db
        .select()
        .from(calendarSyncs)
        .where(eq(calendarSyncs.channelId, channelId));
      return row ?? null;
    },

    /** A pass due now (a push notification said the calendar changed). */
    /** The provider asked for this channel to be renewed or replaced: the next pass does it. */
    async markChannelStale(caregiverId: number, channelId: string, now: Date) {
      await db
        .update(calendarSyncs)
        .set({ channelExpiresAt: now })
        .where(
          and(eq(calendarSyncs.caregiverId, caregiverId), eq(calendarSyncs.channelId, channelId)),
        );
    },

    async markDue(caregiverId: number, now: Date) {
      await db
        .update(calendarSyncs)
        .set({ nextSyncAt: now })
        .where(and(eq(calendarSyncs.caregiverId, caregiverId), gt(calendarSyncs.nextSyncAt, now)));
    },

    /** The caregiver's sync, with its clinic's zone (where all-day dates fall). */
    async findSync(caregiverId: number, ex: Executor = db) {
      const [row] = await ex
        .select({ ...getTableColumns(calendarSyncs), timezone: clinics.timezone })
        .from(calendarSyncs)
        .innerJoin(clinics, eq(clinics.id, calendarSyncs.clinicId))
        .where(eq(calendarSyncs.caregiverId, caregiverId));
      return row ?? null;
    },

    async listClinicSyncs(clinicId: number) {
      return db
        .select({
          caregiverId: caregivers.id,
          calendarId: caregivers.googleCalendarSyncCalendarId,
          state: calendarSyncs.state,
          lastError: calendarSyncs.lastError,
          lastSyncedAt: calendarSyncs.lastSyncedAt,
          channelExpiresAt: calendarSyncs.channelExpiresAt,
          accountEmail: calendarConnections.accountEmail,
          provider: calendarConnections.provider,
        })
        .from(caregivers)
        .leftJoin(calendarSyncs, eq(calendarSyncs.caregiverId, caregivers.id))
        .leftJoin(
          calendarConnections,
          and(
            eq(calendarConnections.caregiverId, caregivers.id),
            eq(calendarConnections.calendarId, caregivers.googleCalendarSyncCalendarId),
          ),
        )
        .where(
          and(
            eq(caregivers.clinicId, clinicId),
            isNotNull(caregivers.googleCalendarSyncCalendarId),
          ),
        )
        .orderBy(asc(caregivers.id));
    },

    /** A full pass: the mirror becomes exactly these rows. */
    async replaceMirror(tx: Executor, caregiverId: number, rows: readonly MirrorRow[]) {
      await tx.delete(calendarEvents).where(eq(calendarEvents.caregiverId, caregiverId));
      for (let i = 0; i < rows.length; i += 500) {
        await tx
          .insert(calendarEvents)
          .values(rows.slice(i, i + 500).map((row) => ({ caregiverId, ...row })));
      }
    },

    async upsertMirror(tx: Executor, caregiverId: number, row: MirrorRow) {
      await tx
        .insert(calendarEvents)
        .values({ caregiverId, ...row })
        .onConflictDoUpdate({
          target: [calendarEvents.caregiverId, calendarEvents.eventId],
          set: {
            startAt: row.startAt,
            endAt: row.endAt,
            appointmentId: row.appointmentId,
            busy: row.busy,
            allDayFree: row.allDayFree,
          },
        });
    },

    /** Drops an event from the mirror; what it was (Marpe's own: its appointment), if known. */
    async deleteMirror(tx: Executor, caregiverId: number, eventId: string) {
      const [row] = await tx
        .delete(calendarEvents)
        .where(
          and(eq(calendarEvents.caregiverId, caregiverId), eq(calendarEvents.eventId, eventId)),
        )
        .returning();
      return row ?? null;
    },

    /** Past events are of no use to availability. */
    async pruneMirror(before: Date) {
      await db.delete(calendarEvents).where(lt(calendarEvents.endAt, before));
    },

    /** Intervals of the caregiver's booked appointments overlapping [from, to). */
    async bookedIntervals(caregiverId: number, from: Date, to: Date, ex: Executor = db) {
      return ex
        .select({
          id: appointments.id,
          clinicId: appointments.clinicId,
          startAt: appointments.startAt,
          endAt: appointments.endAt,
        })
        .from(appointments)
        .where(
          and(
            eq(appointments.caregiverId, caregiverId),
            eq(appointments.status, 'booked'),
            gt(appointments.endAt, from),
            lt(appointments.startAt, to),
          ),
        );
    },

    async findAppointment(ex: Executor, appointmentId: number) {
      const [row] = await ex
        .select({
          id: appointments.id,
          clinicId: appointments.clinicId,
          status: appointments.status,
        })
        .from(appointments)
        .where(eq(appointments.id, appointmentId));
      return row ?? null;
    },

    /** Records a clash once; true when it is new. */
    async addConflict(
      ex: Executor,
      conflict: {
        clinicId: number;
        appointmentId: number;
        caregiverId: number;
        kind: 'event_deleted' | 'overlap';
        eventId: string;
        detectedAt: Date;
      },
    ) {
      const rows = await ex
        .insert(calendarConflicts)
        .values(conflict)
        .onConflictDoNothing()
        .returning({ id: calendarConflicts.id });
      return rows.length > 0;
    },

    async listConflicts(clinicId: number, limit: number) {
      return db
        .select()
        .from(calendarConflicts)
        .where(eq(calendarConflicts.clinicId, clinicId))
        .orderBy(sql`${calendarConflicts.detectedAt} DESC`, sql`${calendarConflicts.id} DESC`)
        .limit(limit);
    },

    /** What the write-back needs of an appointment. */
    async findForWrite(appointmentId: number) {
      if (!isStoredId(appointmentId)) return null;
      const [row] = await db
        .select({
          id: appointments.id,
          clinicId: appointments.clinicId,
          caregiverId: appointments.caregiverId,
          status: appointments.status,
          startAt: appointments.startAt,
          endAt: appointments.endAt,
          timezone: clinics.timezone,
          detail: clinics.calendarEventDetail,
          source: appointments.source,
          typeName: appointmentTypes.name,
          firstName: patients.firstName,
          lastName: patients.lastName,
          phone: patients.phone,
          calendarId: calendarSyncs.calendarId,
        })
        .from(appointments)
        .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, appointments.appointmentTypeId))
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .leftJoin(calendarSyncs, eq(calendarSyncs.caregiverId, appointments.caregiverId))
        .where(eq(appointments.id, appointmentId));
      return row ?? null;
    },

    /**
     * Whether an appointment's change concerns a calendar: its caregiver's is synced, or Marpe
     * wrote its event in one (a move away from a synced caregiver deletes it there).
     */
    async touchesCalendar(ex: Executor, appointmentId: number): Promise<boolean> {
      const [row] = await ex
        .select({ synced: calendarSyncs.caregiverId, linked: calendarEventLinks.appointmentId })
        .from(appointments)
        .leftJoin(calendarSyncs, eq(calendarSyncs.caregiverId, appointments.caregiverId))
        .leftJoin(
          calendarEventLinks,
          and(
            eq(calendarEventLinks.appointmentId, appointments.id),
            eq(calendarEventLinks.present, true),
          ),
        )
        .where(eq(appointments.id, appointmentId));
      return row !== undefined && (row.synced !== null || row.linked !== null);
    },

    async findLink(appointmentId: number) {
      const [row] = await db
        .select()
        .from(calendarEventLinks)
        .where(eq(calendarEventLinks.appointmentId, appointmentId));
      return row ?? null;
    },

    async saveLink(link: typeof calendarEventLinks.$inferInsert) {
      await db
        .insert(calendarEventLinks)
        .values(link)
        .onConflictDoUpdate({ target: calendarEventLinks.appointmentId, set: link });
    },

    /**
     * Marpe's events in the caregiver's calendar by event id, with the appointment each shows:
     * how an event is known as Marpe's where the provider's changes do not carry Marpe's
     * property (Graph's delta brings no extended properties).
     */
    async linkedEvents(ex: Executor, caregiverId: number): Promise<Map<string, number>> {
      const rows = await ex
        .select({
          eventId: calendarEventLinks.eventId,
          appointmentId: calendarEventLinks.appointmentId,
        })
        .from(calendarEventLinks)
        .where(eq(calendarEventLinks.caregiverId, caregiverId));
      return new Map(rows.map((r) => [r.eventId, r.appointmentId]));
    },

    /** The appointment whose event Marpe wrote under this id in this calendar, if any. */
    async findLinkByEvent(ex: Executor, caregiverId: number, eventId: string) {
      const [row] = await ex
        .select()
        .from(calendarEventLinks)
        .where(
          and(
            eq(calendarEventLinks.caregiverId, caregiverId),
            eq(calendarEventLinks.eventId, eventId),
            eq(calendarEventLinks.present, true),
          ),
        );
      return row ?? null;
    },
  };
}

export type CalendarSyncRepository = ReturnType<typeof createCalendarSyncRepository>;
