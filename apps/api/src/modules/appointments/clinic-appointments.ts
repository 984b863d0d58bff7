import { and, asc, desc, eq, gte, lt } from 'drizzle-orm';
import type {
  ClinicBookingBody,
  ClinicCancelBody,
  ClinicRescheduleBody,
  IntegrationAppointment,
  IntegrationAppointmentsQuery,
} from '@marpe/shared';
import type { Database, Executor } from '../../platform/db/client.js';
import {
  appointments,
  clinics,
  isStoredId,
  patients,
  type AppointmentStatus,
} from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { addDaysToLocalDate, startOfZonedDay } from '../../platform/zoned-time.js';
import type { ClinicActor } from '../../platform/http/integration-routes.js';
import { selectAppointmentViews, toAppointmentView } from '../webhooks/appointment-view.js';
import type { AppointmentsService } from './appointments-service.js';

/** How many of one patient's appointments a list answers unless `limit` says. */
export const DEFAULT_PATIENT_APPOINTMENTS_LIMIT = 100;

export interface ClinicAppointmentsDeps {
  db: Database;
  appointments: Pick<
    AppointmentsService,
    'cancelForClinic' | 'bookForClinic' | 'rescheduleForClinic'
  >;
}

/** The integration API's view of a clinic's appointments: the list by dates, and cancelling. */
export function createClinicAppointments({ db, appointments: service }: ClinicAppointmentsDeps) {
  const repository = {
    async findClinic(ex: Executor, clinicId: number) {
      if (!isStoredId(clinicId)) return null;
      const [row] = await ex.select().from(clinics).where(eq(clinics.id, clinicId));
      return row ?? null;
    },

    /**
     * The clinic's appointments starting in [from, to) (either end may be open for one patient's),
     * or the one asked for, by start.
     */
    async listAppointments(
      ex: Executor,
      clinicId: number,
      filter:
        | {
            from?: Date;
            to?: Date;
            status?: AppointmentStatus;
            /** One patient's, by their ID number. */
            idNumber?: string;
            order?: 'asc' | 'desc';
            limit?: number;
          }
        | { id: number },
    ) {
      if ('id' in filter) {
        if (!isStoredId(filter.id)) return [];
        return selectAppointmentViews(ex).where(
          and(eq(appointments.clinicId, clinicId), eq(appointments.id, filter.id)),
        );
      }
      const byStart = filter.order === 'desc' ? desc : asc;
      const query = selectAppointmentViews(ex)
        .where(
          and(
            eq(appointments.clinicId, clinicId),
            filter.from ? gte(appointments.startAt, filter.from) : undefined,
            filter.to ? lt(appointments.startAt, filter.to) : undefined,
            filter.status ? eq(appointments.status, filter.status) : undefined,
            // The joined patient row is the clinic's (unique per clinic and ID number): the
            // appointments_patient_idx serves the rest.
            filter.idNumber !== undefined
              ? and(eq(patients.clinicId, clinicId), eq(patients.idNumber, filter.idNumber))
              : undefined,
          ),
        )
        .orderBy(byStart(appointments.startAt), byStart(appointments.id));
      return filter.limit === undefined ? query : query.limit(filter.limit);
    },
  };

  return {
    /** Appointments starting on the dates asked (clinic time), or one patient's, by start. */
    async listAppointments(
      clinicId: number,
      query: IntegrationAppointmentsQuery,
    ): Promise<IntegrationAppointment[]> {
      const clinic = await repository.findClinic(db, clinicId);
      // The key's clinic exists while the key does (ON DELETE CASCADE); a deleted one is a 404.
      if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
      const patient = query.patient_id_number;
      const rows = await repository.listAppointments(db, clinicId, {
        from: query.from ? new Date(startOfZonedDay(query.from, clinic.timezone)) : undefined,
        to: query.to
          ? new Date(startOfZonedDay(addDaysToLocalDate(query.to, 1), clinic.timezone))
          : undefined,
        status: query.status,
        idNumber: patient,
        order: query.order,
        // One patient's whole history is bounded; a range of the diary is bounded by its dates.
        limit:
          query.limit ?? (patient === undefined ? undefined : DEFAULT_PATIENT_APPOINTMENTS_LIMIT),
      });
      return rows.map(toAppointmentView);
    },

    /** Books on the clinic's behalf and answers the booked appointment. */
    async bookAppointment(clinicActor: ClinicActor, body: ClinicBookingBody) {
      const { id } = await service.bookForClinic(clinicActor, body);
      const [row] = await repository.listAppointments(db, clinicActor.clinicId, { id });
      if (!row) throw new AppError('appointment_not_found', 404, 'Appointment not found');
      return toAppointmentView(row);
    },

    /** Moves on the clinic's behalf and answers the appointment at its new time. */
    async rescheduleAppointment(
      clinicActor: ClinicActor,
      appointmentId: number,
      body: ClinicRescheduleBody,
    ) {
      await service.rescheduleForClinic(clinicActor, appointmentId, body);
      const [row] = await repository.listAppointments(db, clinicActor.clinicId, {
        id: appointmentId,
      });
      if (!row) throw new AppError('appointment_not_found', 404, 'Appointment not found');
      return toAppointmentView(row);
    },

    /** Cancels on the clinic's behalf and answers the cancelled appointment. */
    async cancelAppointment(
      clinicActor: ClinicActor,
      appointmentId: number,
      body?: ClinicCancelBody,
    ) {
      await service.cancelForClinic(clinicActor.clinicId, appointmentId, clinicActor.actor, {
        reason: body?.reason ?? null,
        sendSms: body?.send_sms,
      });
      const [row] = await repository.listAppointments(db, clinicActor.clinicId, {
        id: appointmentId,
      });
      if (!row) throw new AppError('appointment_not_found', 404, 'Appointment not found');
      return toAppointmentView(row);
    },
  };
}

export type ClinicAppointments = ReturnType<typeof createClinicAppointments>;
