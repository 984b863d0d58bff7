import { and, asc, eq, gte, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.js';
import {
  caregiverAppointmentTypes,
  caregiverBreaks,
  caregivers,
  caregiverScheduleExceptionHours,
  caregiverScheduleExceptions,
  caregiverWorkingHours,
  calendarConnections,
  isStoredId,
} from '../../platform/db/schema.js';

export type CaregiverRow = typeof caregivers.$inferSelect;
export type CaregiverValues = Partial<
  Omit<typeof caregivers.$inferInsert, 'id' | 'clinicId' | 'createdAt' | 'updatedAt'>
>;

/** Times as written: 'HH:mm'. weekDay 0 = Sunday … 6 = Saturday; null (breaks) every day. */
export interface HoursRow {
  weekDay: number;
  startTime: string;
  endTime: string;
}
export interface BreakRow {
  weekDay: number | null;
  startTime: string;
  endTime: string;
}
export interface ExceptionInput {
  date: string;
  note: string | null;
  hours: { startTime: string; endTime: string }[];
}

/** A caregiver's schedule rows, as the integration API shows them. */
export interface CaregiverSchedule {
  hours: HoursRow[];
  breaks: BreakRow[];
  exceptions: ExceptionInput[];
  typeIds: number[];
}

/** Each caregiver's schedule rows (exceptions dated `fromDate` or later) and offered types. */
async function listSchedules(
  ex: Executor,
  caregiverIds: readonly number[],
  fromDate: string,
): Promise<Map<number, CaregiverSchedule>> {
  const schedules = new Map<number, CaregiverSchedule>(
    caregiverIds.map((id) => [id, { hours: [], breaks: [], exceptions: [], typeIds: [] }]),
  );
  if (caregiverIds.length === 0) return schedules;
  const ids = [...caregiverIds];
  const [hours, breaks, exceptions, links] = await Promise.all([
    ex
      .select({
        caregiverId: caregiverWorkingHours.caregiverId,
        weekDay: caregiverWorkingHours.weekDay,
        startTime: caregiverWorkingHours.startTime,
        endTime: caregiverWorkingHours.endTime,
      })
      .from(caregiverWorkingHours)
      .where(inArray(caregiverWorkingHours.caregiverId, ids))
      .orderBy(asc(caregiverWorkingHours.weekDay), asc(caregiverWorkingHours.startTime)),
    ex
      .select({
        caregiverId: caregiverBreaks.caregiverId,
        weekDay: caregiverBreaks.weekDay,
        startTime: caregiverBreaks.startTime,
        endTime: caregiverBreaks.endTime,
      })
      .from(caregiverBreaks)
      .where(inArray(caregiverBreaks.caregiverId, ids))
      .orderBy(asc(caregiverBreaks.weekDay), asc(caregiverBreaks.startTime)),
    ex
      .select({
        caregiverId: caregiverScheduleExceptions.caregiverId,
        date: caregiverScheduleExceptions.date,
        note: caregiverScheduleExceptions.note,
        startTime: caregiverScheduleExceptionHours.startTime,
        endTime: caregiverScheduleExceptionHours.endTime,
      })
      .from(caregiverScheduleExceptions)
      .leftJoin(
        caregiverScheduleExceptionHours,
        eq(caregiverScheduleExceptionHours.exceptionId, caregiverScheduleExceptions.id),
      )
      .where(
        and(
          inArray(caregiverScheduleExceptions.caregiverId, ids),
          gte(caregiverScheduleExceptions.date, fromDate),
        ),
      )
      .orderBy(
        asc(caregiverScheduleExceptions.caregiverId),
        asc(caregiverScheduleExceptions.date),
        asc(caregiverScheduleExceptionHours.startTime),
      ),
    ex
      .select({
        caregiverId: caregiverAppointmentTypes.caregiverId,
        typeId: caregiverAppointmentTypes.appointmentTypeId,
      })
      .from(caregiverAppointmentTypes)
      .where(inArray(caregiverAppointmentTypes.caregiverId, ids))
      .orderBy(asc(caregiverAppointmentTypes.appointmentTypeId)),
  ]);
  for (const { caregiverId, ...row } of hours) schedules.get(caregiverId)?.hours.push(row);
  for (const { caregiverId, ...row } of breaks) schedules.get(caregiverId)?.breaks.push(row);
  for (const { caregiverId, typeId } of links) schedules.get(caregiverId)?.typeIds.push(typeId);
  for (const { caregiverId, date, note, startTime, endTime } of exceptions) {
    const list = schedules.get(caregiverId)?.exceptions;
    if (!list) continue;
    let exception = list[list.length - 1];
    if (exception?.date !== date) {
      exception = { date, note, hours: [] };
      list.push(exception);
    }
    // A day off has no hours row: the left join gives nulls.
    if (startTime !== null && endTime !== null) exception.hours.push({ startTime, endTime });
  }
  return schedules;
}

/** The setup's caregiver reads and writes: the caregivers, their schedules and offered types. */
export const caregiverQueries = {
  listSchedules,

  /** The clinic's caregivers in page order, or the one asked for. */
  async listCaregivers(
    ex: Executor,
    clinicId: number,
    caregiverId?: number,
  ): Promise<CaregiverRow[]> {
    if (caregiverId !== undefined && !isStoredId(caregiverId)) return [];
    const where: SQL | undefined =
      caregiverId === undefined
        ? eq(caregivers.clinicId, clinicId)
        : and(eq(caregivers.clinicId, clinicId), eq(caregivers.id, caregiverId));
    return ex
      .select()
      .from(caregivers)
      .where(where)
      .orderBy(asc(caregivers.sortOrder), asc(caregivers.id));
  },

  /** The calendar the caregiver connected by consent, or null when none is. */
  async connectedCalendar(ex: Executor, caregiverId: number): Promise<string | null> {
    const [row] = await ex
      .select({ calendarId: calendarConnections.calendarId })
      .from(calendarConnections)
      .where(eq(calendarConnections.caregiverId, caregiverId));
    return row?.calendarId ?? null;
  },

  /** Whether another caregiver, of any clinic, has this calendar (ids compared case-blind). */
  async calendarTaken(ex: Executor, calendarId: string, exceptCaregiverId: number | null) {
    const [row] = await ex
      .select({ id: caregivers.id })
      .from(caregivers)
      .where(
        and(
          sql`lower(${caregivers.googleCalendarSyncCalendarId}) = lower(${calendarId})`,
          exceptCaregiverId === null ? undefined : ne(caregivers.id, exceptCaregiverId),
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  async insertCaregiver(
    tx: Executor,
    clinicId: number,
    values: CaregiverValues & { name: string; licenseNumber: string },
  ): Promise<number> {
    const [row] = await tx
      .insert(caregivers)
      .values({ ...values, clinicId })
      .returning({ id: caregivers.id });
    if (!row) throw new Error('insertCaregiver: no row returned');
    return row.id;
  },

  async updateCaregiver(tx: Executor, caregiverId: number, values: CaregiverValues) {
    await tx.update(caregivers).set(values).where(eq(caregivers.id, caregiverId));
  },

  async replaceWorkingHours(tx: Executor, caregiverId: number, rows: readonly HoursRow[]) {
    await tx
      .delete(caregiverWorkingHours)
      .where(eq(caregiverWorkingHours.caregiverId, caregiverId));
    if (rows.length > 0) {
      await tx.insert(caregiverWorkingHours).values(rows.map((r) => ({ ...r, caregiverId })));
    }
  },

  async replaceBreaks(tx: Executor, caregiverId: number, rows: readonly BreakRow[]) {
    await tx.delete(caregiverBreaks).where(eq(caregiverBreaks.caregiverId, caregiverId));
    if (rows.length > 0) {
      await tx.insert(caregiverBreaks).values(rows.map((r) => ({ ...r, caregiverId })));
    }
  },

  /** Replaces the exceptions dated `fromDate` or later; earlier ones are history and stay. */
  async replaceExceptionsFrom(
    tx: Executor,
    caregiverId: number,
    fromDate: string,
    exceptions: readonly ExceptionInput[],
  ) {
    await tx
      .delete(caregiverScheduleExceptions)
      .where(
        and(
          eq(caregiverScheduleExceptions.caregiverId, caregiverId),
          gte(caregiverScheduleExceptions.date, fromDate),
        ),
      );
    if (exceptions.length === 0) return;
    const inserted = await tx
      .insert(caregiverScheduleExceptions)
      .values(exceptions.map((e) => ({ caregiverId, date: e.date, note: e.note })))
      .returning({ id: caregiverScheduleExceptions.id, date: caregiverScheduleExceptions.date });
    const idOf = new Map(inserted.map((row) => [row.date, row.id]));
    const hours = exceptions.flatMap((e) =>
      e.hours.map((h) => ({ ...h, exceptionId: idOf.get(e.date) as number })),
    );
    if (hours.length > 0) await tx.insert(caregiverScheduleExceptionHours).values(hours);
  },

  async replaceCaregiverTypes(tx: Executor, caregiverId: number, typeIds: readonly number[]) {
    await tx
      .delete(caregiverAppointmentTypes)
      .where(eq(caregiverAppointmentTypes.caregiverId, caregiverId));
    if (typeIds.length > 0) {
      await tx
        .insert(caregiverAppointmentTypes)
        .values(typeIds.map((appointmentTypeId) => ({ caregiverId, appointmentTypeId })));
    }
  },

  /** Which of these ids are the clinic's caregivers. */
  async findClinicCaregiverIds(ex: Executor, clinicId: number, ids: readonly number[]) {
    const stored = ids.filter(isStoredId);
    if (stored.length === 0) return new Set<number>();
    const rows = await ex
      .select({ id: caregivers.id })
      .from(caregivers)
      .where(and(eq(caregivers.clinicId, clinicId), inArray(caregivers.id, stored)));
    return new Set(rows.map((r) => r.id));
  },
};
