import { and, asc, eq, gt, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointments,
  calendarEvents,
  caregiverBreaks,
  caregiverBusyTimes,
  caregivers,
  caregiverScheduleExceptionHours,
  caregiverScheduleExceptions,
  caregiverWorkingHours,
  clinicClosures,
  clinics,
  isStoredId,
} from '../../platform/db/schema.js';
import type { Interval } from './availability-engine.js';
import type {
  BookingRuleDefaults,
  BookingRuleOverrides,
  BreakRow,
  ExceptionRow,
  ScheduleRows,
  WorkingHoursRow,
} from './marpe-rules.js';

/** What the availability calls need to know about a clinic and one of its caregivers. */
export interface BookingContext {
  clinic: { id: number; timezone: string; defaults: BookingRuleDefaults };
  /** null when the caregiver is not one of this clinic's. */
  caregiver: { id: number; isActive: boolean; rules: BookingRuleOverrides } | null;
}

/** Whose schedules to read: a clinic's active caregivers, or one caregiver. */
export type ScheduleOwners = { clinicId: number } | { caregiverId: number };

/**
 * A caregiver's exceptions with the clinic's closures laid over them: a closed date is a day off
 * whatever the caregiver's own exception for it says (one exception a date: the engine adds up the
 * hours of exceptions sharing one). By date.
 */
export function withClosures(
  exceptions: readonly ExceptionRow[],
  closedDates: ReadonlySet<string>,
): ExceptionRow[] {
  if (closedDates.size === 0) return [...exceptions];
  return [
    ...exceptions.filter((e) => !closedDates.has(e.date)),
    ...[...closedDates].map((date) => ({ date, hours: [] })),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The first key of the caregivers' diary advisory locks (two-key form): "MB", Marpe bookings. */
const DIARY_LOCK_SPACE = 0x4d42;

/**
 * Queues the writes of one caregiver's diary until the transaction ends: bookings and moves
 * (appointments-repository) and busy-times replacements take it, so a booking's busy check and a
 * busy-times write never pass each other.
 */
export async function lockCaregiverDiary(tx: Executor, caregiverId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${DIARY_LOCK_SPACE}, ${caregiverId})`);
}

type BusyRow = { caregiverId: number; startAt: Date; endAt: Date };

/**
 * Per caregiver, the intervals of several sources each sorted by (caregiver, start), merged into
 * one list sorted by start: what the engine's single pass needs. Overlaps stay (the engine joins
 * them).
 */
export function mergeBusy(sources: readonly (readonly BusyRow[])[]): Map<number, Interval[]> {
  const busy = new Map<number, Interval[]>();
  const push = (row: BusyRow) => {
    let list = busy.get(row.caregiverId);
    if (!list) {
      list = [];
      busy.set(row.caregiverId, list);
    }
    list.push({ start: row.startAt.getTime(), end: row.endAt.getTime() });
  };
  const nonEmpty = sources.filter((rows) => rows.length > 0);
  if (nonEmpty.length <= 1) {
    for (const row of nonEmpty[0] ?? []) push(row);
    return busy;
  }
  const cursors = nonEmpty.map(() => 0);
  for (;;) {
    let best = -1;
    let bestRow: BusyRow | undefined;
    nonEmpty.forEach((rows, s) => {
      const row = rows[cursors[s] as number];
      if (
        row !== undefined &&
        (bestRow === undefined ||
          row.caregiverId < bestRow.caregiverId ||
          (row.caregiverId === bestRow.caregiverId && row.startAt < bestRow.startAt))
      ) {
        best = s;
        bestRow = row;
      }
    });
    if (bestRow === undefined) return busy;
    push(bestRow);
    cursors[best] = (cursors[best] as number) + 1;
  }
}

/**
 * The mirrored calendar events that block these caregivers in [from, to): busy ones, never
 * Marpe's own (their appointments already count). An all-day event marked "Free" blocks only
 * while its clinic's `calendar_all_day_events_block` is on (docs/calendar-sync.md, "What blocks a
 * slot"): asked here, at read time, so a change of the setting holds at once.
 */
export const mirrorBusy = (caregiverIds: number[], from: Date, to: Date) =>
  and(
    inArray(calendarEvents.caregiverId, caregiverIds),
    eq(calendarEvents.busy, true),
    isNull(calendarEvents.appointmentId),
    gt(calendarEvents.endAt, from),
    lt(calendarEvents.startAt, to),
    sql`(NOT ${calendarEvents.allDayFree} OR EXISTS (SELECT 1 FROM ${caregivers} JOIN ${clinics} ON ${clinics.id} = ${caregivers.clinicId} WHERE ${caregivers.id} = ${calendarEvents.caregiverId} AND ${clinics.calendarAllDayEventsBlock}))`,
  );

export function createAvailabilityRepository(db: Database) {
  const ownedBy = (owners: ScheduleOwners): SQL | undefined =>
    'clinicId' in owners
      ? and(eq(caregivers.clinicId, owners.clinicId), eq(caregivers.isActive, true))
      : eq(caregivers.id, owners.caregiverId);

  return {
    /** One query; null when the clinic does not exist. */
    async findBookingContext(
      clinicId: number,
      caregiverId: number,
    ): Promise<BookingContext | null> {
      if (!isStoredId(clinicId)) return null;
      const [row] = await db
        .select({
          clinicId: clinics.id,
          timezone: clinics.timezone,
          defaultSlotStepMinutes: clinics.defaultSlotStepMinutes,
          defaultMinNoticeMinutes: clinics.defaultMinNoticeMinutes,
          defaultBookingHorizonDays: clinics.defaultBookingHorizonDays,
          caregiverId: caregivers.id,
          isActive: caregivers.isActive,
          slotStepMinutes: caregivers.slotStepMinutes,
          minNoticeMinutes: caregivers.minNoticeMinutes,
          bookingHorizonDays: caregivers.bookingHorizonDays,
        })
        .from(clinics)
        .leftJoin(
          caregivers,
          and(
            eq(caregivers.clinicId, clinics.id),
            eq(caregivers.id, isStoredId(caregiverId) ? caregiverId : 0),
          ),
        )
        .where(eq(clinics.id, clinicId));
      if (!row) return null;
      return {
        clinic: {
          id: row.clinicId,
          timezone: row.timezone,
          defaults: {
            slotStepMinutes: row.defaultSlotStepMinutes,
            minNoticeMinutes: row.defaultMinNoticeMinutes,
            bookingHorizonDays: row.defaultBookingHorizonDays,
          },
        },
        caregiver:
          row.caregiverId === null
            ? null
            : {
                id: row.caregiverId,
                isActive: row.isActive ?? false,
                rules: {
                  slotStepMinutes: row.slotStepMinutes,
                  minNoticeMinutes: row.minNoticeMinutes,
                  bookingHorizonDays: row.bookingHorizonDays,
                },
              },
      };
    },

    /**
     * Working hours, breaks and the exceptions dated `fromDate` or later, per caregiver, in four
     * queries whatever the number of caregivers. The clinic's closures (dated `fromDate` or later)
     * are days off among every caregiver's exceptions. Caregivers without any row are absent.
     */
    async listSchedules(
      owners: ScheduleOwners,
      fromDate: string,
    ): Promise<Map<number, ScheduleRows>> {
      const where = ownedBy(owners);
      const closuresFrom = gte(clinicClosures.date, fromDate);
      const closures =
        'clinicId' in owners
          ? db
              .select({ date: clinicClosures.date })
              .from(clinicClosures)
              .where(and(eq(clinicClosures.clinicId, owners.clinicId), closuresFrom))
          : db
              .select({ date: clinicClosures.date })
              .from(clinicClosures)
              .innerJoin(caregivers, eq(caregivers.clinicId, clinicClosures.clinicId))
              .where(and(eq(caregivers.id, owners.caregiverId), closuresFrom));
      const [hours, breaks, exceptions, closed] = await Promise.all([
        db
          .select({
            caregiverId: caregiverWorkingHours.caregiverId,
            weekDay: caregiverWorkingHours.weekDay,
            startTime: caregiverWorkingHours.startTime,
            endTime: caregiverWorkingHours.endTime,
          })
          .from(caregiverWorkingHours)
          .innerJoin(caregivers, eq(caregivers.id, caregiverWorkingHours.caregiverId))
          .where(where)
          .orderBy(
            asc(caregiverWorkingHours.caregiverId),
            asc(caregiverWorkingHours.weekDay),
            asc(caregiverWorkingHours.startTime),
          ),
        db
          .select({
            caregiverId: caregiverBreaks.caregiverId,
            weekDay: caregiverBreaks.weekDay,
            startTime: caregiverBreaks.startTime,
            endTime: caregiverBreaks.endTime,
          })
          .from(caregiverBreaks)
          .innerJoin(caregivers, eq(caregivers.id, caregiverBreaks.caregiverId))
          .where(where),
        db
          .select({
            caregiverId: caregiverScheduleExceptions.caregiverId,
            date: caregiverScheduleExceptions.date,
            startTime: caregiverScheduleExceptionHours.startTime,
            endTime: caregiverScheduleExceptionHours.endTime,
          })
          .from(caregiverScheduleExceptions)
          .innerJoin(caregivers, eq(caregivers.id, caregiverScheduleExceptions.caregiverId))
          .leftJoin(
            caregiverScheduleExceptionHours,
            eq(caregiverScheduleExceptionHours.exceptionId, caregiverScheduleExceptions.id),
          )
          .where(and(where, gte(caregiverScheduleExceptions.date, fromDate)))
          .orderBy(
            asc(caregiverScheduleExceptions.caregiverId),
            asc(caregiverScheduleExceptions.date),
            asc(caregiverScheduleExceptionHours.startTime),
          ),
        closures,
      ]);

      const schedules = new Map<
        number,
        { workingHours: WorkingHoursRow[]; breaks: BreakRow[]; exceptions: ExceptionRow[] }
      >();
      const of = (caregiverId: number) => {
        let schedule = schedules.get(caregiverId);
        if (!schedule) {
          schedule = { workingHours: [], breaks: [], exceptions: [] };
          schedules.set(caregiverId, schedule);
        }
        return schedule;
      };
      for (const { caregiverId, ...row } of hours) of(caregiverId).workingHours.push(row);
      for (const { caregiverId, ...row } of breaks) of(caregiverId).breaks.push(row);
      for (const { caregiverId, date, startTime, endTime } of exceptions) {
        const list = of(caregiverId).exceptions;
        let exception = list[list.length - 1];
        if (exception?.date !== date) {
          exception = { date, hours: [] };
          list.push(exception);
        }
        // A day off has no hours row: the left join gives nulls.
        if (startTime !== null && endTime !== null) exception.hours.push({ startTime, endTime });
      }
      if (closed.length > 0) {
        const closedDates = new Set(closed.map((row) => row.date));
        for (const schedule of schedules.values()) {
          schedule.exceptions = withClosures(schedule.exceptions, closedDates);
        }
      }
      return schedules;
    },

    /**
     * What makes these caregivers busy in [from, to) (epoch ms), per caregiver, sorted by start:
     * booked appointments, the clinic's busy times (caregiver_busy_times) and the busy events of
     * the caregiver's synced calendar (its mirror, calendar_events: a slot query never waits on
     * Google), one query per source, each bounded by the window (indexes
     * appointments_caregiver_busy_idx, caregiver_busy_times_window_idx, calendar_events_window_idx).
     */
    async listBusy(
      caregiverIds: readonly number[],
      window: { from: number; to: number },
    ): Promise<Map<number, Interval[]>> {
      if (caregiverIds.length === 0 || window.to <= window.from) return new Map();
      const ids = [...caregiverIds];
      const from = new Date(window.from);
      const to = new Date(window.to);
      const [booked, external, mirrored] = await Promise.all([
        db
          .select({
            caregiverId: appointments.caregiverId,
            startAt: appointments.startAt,
            endAt: appointments.endAt,
          })
          .from(appointments)
          .where(
            and(
              inArray(appointments.caregiverId, ids),
              eq(appointments.status, 'booked'),
              gt(appointments.endAt, from),
              lt(appointments.startAt, to),
            ),
          )
          .orderBy(asc(appointments.caregiverId), asc(appointments.startAt)),
        db
          .select({
            caregiverId: caregiverBusyTimes.caregiverId,
            startAt: caregiverBusyTimes.startAt,
            endAt: caregiverBusyTimes.endAt,
          })
          .from(caregiverBusyTimes)
          .where(
            and(
              inArray(caregiverBusyTimes.caregiverId, ids),
              gt(caregiverBusyTimes.endAt, from),
              lt(caregiverBusyTimes.startAt, to),
            ),
          )
          .orderBy(asc(caregiverBusyTimes.caregiverId), asc(caregiverBusyTimes.startAt)),
        db
          .select({
            caregiverId: calendarEvents.caregiverId,
            startAt: calendarEvents.startAt,
            endAt: calendarEvents.endAt,
          })
          .from(calendarEvents)
          .where(mirrorBusy(ids, from, to))
          .orderBy(asc(calendarEvents.caregiverId), asc(calendarEvents.startAt)),
      ]);
      return mergeBusy([booked, external, mirrored]);
    },

    /**
     * Whether anything outside Marpe's own appointments makes the caregiver busy in [start, end):
     * the clinic's busy times, or a busy event of the caregiver's synced calendar (its mirror). Booking and reschedule ask it inside their transaction, after
     * `lockCaregiverDiary`, so a busy-times write cannot slip in between.
     */
    async overlapsExternalBusy(
      ex: Executor,
      caregiverId: number,
      start: Date,
      end: Date,
    ): Promise<boolean> {
      const [row] = await ex
        .select({ id: caregiverBusyTimes.id })
        .from(caregiverBusyTimes)
        .where(
          and(
            eq(caregiverBusyTimes.caregiverId, caregiverId),
            gt(caregiverBusyTimes.endAt, start),
            lt(caregiverBusyTimes.startAt, end),
          ),
        )
        .limit(1);
      if (row) return true;
      const [event] = await ex
        .select({ id: calendarEvents.eventId })
        .from(calendarEvents)
        .where(mirrorBusy([caregiverId], start, end))
        .limit(1);
      return event !== undefined;
    },

    lockCaregiverDiary,
  };
}

export type AvailabilityRepository = ReturnType<typeof createAvailabilityRepository>;
