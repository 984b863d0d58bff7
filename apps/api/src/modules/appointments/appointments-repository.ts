import { and, asc, count, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../platform/db/client.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { lockCaregiverDiary } from '../availability/availability-repository.js';
import { createBookingSubjects } from '../availability/booking-subject.js';
import {
  appointments,
  appointmentTypes,
  caregivers,
  clinics,
  isStoredId,
  patients,
  reminderSettings,
} from '../../platform/db/schema.js';

/** What an appointment's details SMS names. */
export interface AppointmentDetails {
  clinicName: string;
  street: string;
  homeNumber: string;
  city: string;
  timezone: string;
  caregiverName: string;
  typeName: string;
}

export type NewAppointment = Pick<
  typeof appointments.$inferInsert,
  | 'clinicId'
  | 'caregiverId'
  | 'patientId'
  | 'appointmentTypeId'
  | 'startAt'
  | 'endAt'
  | 'localDate'
  | 'detailsSmsCount'
  | 'language'
  | 'source'
>;

const detailsColumns = {
  clinicName: clinics.name,
  street: clinics.street,
  homeNumber: clinics.homeNumber,
  city: clinics.city,
  timezone: clinics.timezone,
  caregiverName: caregivers.name,
  typeName: appointmentTypes.name,
};

export function createAppointmentsRepository(db: Database) {
  /** Booked, not yet ended appointments of every patient of the clinic with this phone. */
  async function countUpcomingOfPhone(
    ex: Executor,
    clinicId: number,
    phone: string,
    now: Date,
  ): Promise<number> {
    const [row] = await ex
      .select({ count: count() })
      .from(appointments)
      .innerJoin(patients, eq(patients.id, appointments.patientId))
      .where(
        and(
          eq(patients.clinicId, clinicId),
          eq(patients.phone, phone),
          eq(appointments.status, 'booked'),
          gt(appointments.endAt, now),
        ),
      );
    return row?.count ?? 0;
  }

  return {
    db,

    /** Who may book whom for what: asked the same way as the waitlist asks it. */
    findBookingSubject: createBookingSubjects(db).findBookingSubject,

    /** How many booked appointments of the patient have not ended. */
    async countUpcoming(ex: Executor, patientId: number, now: Date): Promise<number> {
      const [row] = await ex
        .select({ count: count() })
        .from(appointments)
        .where(
          and(
            eq(appointments.patientId, patientId),
            eq(appointments.status, 'booked'),
            gt(appointments.endAt, now),
          ),
        );
      return row?.count ?? 0;
    },

    /**
     * Booked, not yet ended appointments of every patient of the clinic with this phone, after
     * taking a lock that serialises their bookings (the cap holds per phone too: ADR 027).
     */
    async lockAndCountUpcomingOfPhone(
      tx: Executor,
      clinicId: number,
      phone: string,
      now: Date,
    ): Promise<number> {
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(hashtext(${`upcoming:${clinicId}:${phone}`}))`,
      );
      return countUpcomingOfPhone(tx, clinicId, phone, now);
    },

    countUpcomingOfPhone,

    /** The clinic's cap on a patient's upcoming appointments; null when there is no clinic. */
    async findMaxUpcoming(clinicId: number): Promise<number | null> {
      const [row] = await db
        .select({ max: clinics.maxUpcomingAppointments })
        .from(clinics)
        .where(eq(clinics.id, clinicId));
      return row?.max ?? null;
    },

    /** The patient's booked appointment on that date (clinic time), if any: one per date. */
    async findBookingOnDate(ex: Executor, clinicId: number, patientId: number, localDate: string) {
      const [row] = await ex
        .select({ id: appointments.id })
        .from(appointments)
        .where(
          and(
            eq(appointments.clinicId, clinicId),
            eq(appointments.patientId, patientId),
            eq(appointments.localDate, localDate),
            eq(appointments.status, 'booked'),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    /**
     * Queues the bookings of one caregiver until the transaction ends. Without it, concurrent
     * inserts of overlapping intervals wait on each other inside the EXCLUDE check and deadlock
     * in chains that PostgreSQL breaks one per deadlock_timeout (figures in docs/booking.md
     * "Booking"). Queued, each later booking sees the earlier one committed and is refused at
     * once. The constraint still guards every other path into the table.
     */
    async lockCaregiverBookings(tx: Executor, caregiverId: number) {
      // The diary's lock: busy-times writes take it too (availability-repository).
      await lockCaregiverDiary(tx, caregiverId);
    },

    /** A booked appointment of the caregiver overlapping [start, end), other than `except`, if any. */
    async findOverlapping(
      ex: Executor,
      caregiverId: number,
      start: Date,
      end: Date,
      except?: number,
    ) {
      const [row] = await ex
        .select({ id: appointments.id })
        .from(appointments)
        .where(
          and(
            eq(appointments.caregiverId, caregiverId),
            eq(appointments.status, 'booked'),
            gt(appointments.endAt, start),
            lt(appointments.startAt, end),
            except === undefined ? undefined : ne(appointments.id, except),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    /**
     * Moves a booked appointment in place (one UPDATE: the old slot is freed and the new one taken
     * together). Throws the database's refusal as is, like `insertAppointment`.
     */
    async moveAppointment(
      tx: Executor,
      appointmentId: number,
      values: Pick<
        NewAppointment,
        | 'caregiverId'
        | 'appointmentTypeId'
        | 'startAt'
        | 'endAt'
        | 'localDate'
        | 'language'
        | 'detailsSmsCount'
      >,
    ) {
      await tx.update(appointments).set(values).where(eq(appointments.id, appointmentId));
    },

    /** Throws the database's refusal as is; see `bookingConflictOf`. */
    async insertAppointment(ex: Executor, values: NewAppointment) {
      const [row] = await ex
        .insert(appointments)
        .values({ ...values, status: 'booked' })
        .returning({ id: appointments.id });
      if (!row) throw new Error('insertAppointment: no row returned');
      return row;
    },

    /** The patient's booked appointments ending after `now`, by start, with what the list shows. */
    async listUpcoming(patientId: number, clinicId: number, now: Date) {
      return db
        .select({
          id: appointments.id,
          caregiverId: appointments.caregiverId,
          appointmentTypeId: appointments.appointmentTypeId,
          startAt: appointments.startAt,
          endAt: appointments.endAt,
          caregiverName: caregivers.name,
          typeName: appointmentTypes.name,
          timezone: clinics.timezone,
          cancelNoticeMinutes: clinics.cancelNoticeMinutes,
        })
        .from(appointments)
        .innerJoin(caregivers, eq(caregivers.id, appointments.caregiverId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, appointments.appointmentTypeId))
        .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
        .where(
          and(
            eq(appointments.patientId, patientId),
            eq(appointments.clinicId, clinicId),
            eq(appointments.status, 'booked'),
            gt(appointments.endAt, now),
          ),
        )
        .orderBy(asc(appointments.startAt), asc(appointments.id));
    },

    /** The patient's own appointment, locked until the transaction ends; null if not theirs. */
    async lockOwnAppointment(tx: Executor, appointmentId: number, patientId: number) {
      if (!isStoredId(appointmentId)) return null;
      const [row] = await tx
        .select({
          id: appointments.id,
          clinicId: appointments.clinicId,
          status: appointments.status,
          caregiverId: appointments.caregiverId,
          appointmentTypeId: appointments.appointmentTypeId,
          startAt: appointments.startAt,
          endAt: appointments.endAt,
          cancelNoticeMinutes: clinics.cancelNoticeMinutes,
          timezone: clinics.timezone,
        })
        .from(appointments)
        .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
        .where(and(eq(appointments.id, appointmentId), eq(appointments.patientId, patientId)))
        .for('update', { of: appointments });
      return row ?? null;
    },

    /**
     * The clinic's appointment with its patient's phone and the clinic's zone, locked until the
     * transaction ends (without a transaction: as it stands); null if not the clinic's.
     */
    async lockClinicAppointment(
      ex: Executor,
      appointmentId: number,
      clinicId: number,
      lock = true,
    ) {
      if (!isStoredId(appointmentId)) return null;
      const query = ex
        .select({
          id: appointments.id,
          status: appointments.status,
          caregiverId: appointments.caregiverId,
          appointmentTypeId: appointments.appointmentTypeId,
          patientId: appointments.patientId,
          startAt: appointments.startAt,
          endAt: appointments.endAt,
          language: appointments.language,
          phone: patients.phone,
          timezone: clinics.timezone,
        })
        .from(appointments)
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
        .where(and(eq(appointments.id, appointmentId), eq(appointments.clinicId, clinicId)));
      const [row] = lock ? await query.for('update', { of: appointments }) : await query;
      return row ?? null;
    },

    /** `reason`: the clinic's, when it cancels (kept for its eyes). */
    async cancelAppointment(tx: Executor, appointmentId: number, at: Date, reason?: string | null) {
      await tx
        .update(appointments)
        .set({ status: 'cancelled', cancelledAt: at, cancelReason: reason ?? null })
        .where(eq(appointments.id, appointmentId));
    },

    /** The patient's booked appointment of exactly this interval that has not ended, with its details. */
    async findOwnUpcoming(
      patientId: number,
      match: {
        clinicId: number;
        caregiverId: number;
        appointmentTypeId: number;
        start: Date;
        end: Date;
      },
      now: Date,
    ): Promise<
      | ({ id: number; startAt: Date; endAt: Date; language: MessageLanguage } & AppointmentDetails)
      | null
    > {
      const [row] = await db
        .select({
          id: appointments.id,
          startAt: appointments.startAt,
          endAt: appointments.endAt,
          language: appointments.language,
          ...detailsColumns,
        })
        .from(appointments)
        .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
        .innerJoin(caregivers, eq(caregivers.id, appointments.caregiverId))
        .innerJoin(appointmentTypes, eq(appointmentTypes.id, appointments.appointmentTypeId))
        .where(
          and(
            eq(appointments.patientId, patientId),
            eq(appointments.clinicId, match.clinicId),
            eq(appointments.caregiverId, match.caregiverId),
            eq(appointments.appointmentTypeId, match.appointmentTypeId),
            eq(appointments.startAt, match.start),
            eq(appointments.endAt, match.end),
            eq(appointments.status, 'booked'),
            gt(appointments.endAt, now),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    /**
     * What a change notice of the appointment needs, as it stands in the transaction: the patient's
     * phone and language, the clinic's notice settings and quiet hours (null: never set), the
     * caregiver's name. null when there is no such appointment.
     */
    async findNoticeSubject(ex: Executor, appointmentId: number) {
      const [row] = await ex
        .select({
          clinicId: appointments.clinicId,
          startAt: appointments.startAt,
          language: appointments.language,
          phone: patients.phone,
          clinicName: clinics.name,
          timezone: clinics.timezone,
          cancelNoticeMinutes: clinics.cancelNoticeMinutes,
          notifyBooked: clinics.notifyBooked,
          notifyMoved: clinics.notifyMoved,
          notifyCancelled: clinics.notifyCancelled,
          caregiverName: caregivers.name,
          quietStart: reminderSettings.quietStart,
          quietEnd: reminderSettings.quietEnd,
          observeRestDays: reminderSettings.observeRestDays,
        })
        .from(appointments)
        .innerJoin(patients, eq(patients.id, appointments.patientId))
        .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
        .innerJoin(caregivers, eq(caregivers.id, appointments.caregiverId))
        .leftJoin(reminderSettings, eq(reminderSettings.clinicId, appointments.clinicId))
        .where(eq(appointments.id, appointmentId));
      return row ?? null;
    },

    async findCaregiverName(ex: Executor, caregiverId: number): Promise<string | null> {
      const [row] = await ex
        .select({ name: caregivers.name })
        .from(caregivers)
        .where(eq(caregivers.id, caregiverId));
      return row?.name ?? null;
    },

    /** Counts one more details SMS unless `limit` were sent already; false when refused. */
    async takeSmsAllowance(ex: Executor, appointmentId: number, limit: number): Promise<boolean> {
      const rows = await ex
        .update(appointments)
        .set({ detailsSmsCount: sql`${appointments.detailsSmsCount} + 1` })
        .where(and(eq(appointments.id, appointmentId), lt(appointments.detailsSmsCount, limit)))
        .returning({ id: appointments.id });
      return rows.length > 0;
    },
  };
}

export type AppointmentsRepository = ReturnType<typeof createAppointmentsRepository>;
