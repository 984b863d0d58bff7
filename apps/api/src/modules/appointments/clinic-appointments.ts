import { and, asc, eq, gte, lt } from 'drizzle-orm';
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
  type AppointmentStatus,
} from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { addDaysToLocalDate, startOfZonedDay } from '../../platform/zoned-time.js';
import type { Writer } from '../integration/integration-auth.js';
import { selectAppointmentViews, toAppointmentView } from './appointment-view.js';
import type { AppointmentsService } from './appointments-service.js';

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

    /** The clinic's appointments starting in [from, to), or the one asked for, by start. */
    async listAppointments(
      ex: Executor,
      clinicId: number,
      filter: { from: Date; to: Date; status?: AppointmentStatus } | { id: number },
    ) {
      if ('id' in filter && !isStoredId(filter.id)) return [];
      const where =
        'id' in filter
          ? and(eq(appointments.clinicId, clinicId), eq(appointments.id, filter.id))
          : and(
              eq(appointments.clinicId, clinicId),
              gte(appointments.startAt, filter.from),
              lt(appointments.startAt, filter.to),
              filter.status ? eq(appointments.status, filter.status) : undefined,
            );
      return selectAppointmentViews(ex)
        .where(where)
        .orderBy(asc(appointments.startAt), asc(appointments.id));
    },
  };

  return {
    /** Appointments starting on the dates asked (clinic time), by start. */
    async listAppointments(
      clinicId: number,
      query: IntegrationAppointmentsQuery,
    ): Promise<IntegrationAppointment[]> {
      const clinic = await repository.findClinic(db, clinicId);
      // The key's clinic exists while the key does (ON DELETE CASCADE); a deleted one is a 404.
      if (!clinic) throw new AppError('clinic_not_found', 404, `No clinic ${clinicId}`);
      const rows = await repository.listAppointments(db, clinicId, {
        from: new Date(startOfZonedDay(query.from, clinic.timezone)),
        to: new Date(startOfZonedDay(addDaysToLocalDate(query.to, 1), clinic.timezone)),
        status: query.status,
      });
      return rows.map(toAppointmentView);
    },

    /** Books on the clinic's behalf and answers the booked appointment. */
    async bookAppointment(writer: Writer, body: ClinicBookingBody) {
      const { id } = await service.bookForClinic(writer, body);
      const [row] = await repository.listAppointments(db, writer.clinicId, { id });
      if (!row) throw new AppError('appointment_not_found', 404, 'Appointment not found');
      return toAppointmentView(row);
    },

    /** Moves on the clinic's behalf and answers the appointment at its new time. */
    async rescheduleAppointment(writer: Writer, appointmentId: number, body: ClinicRescheduleBody) {
      await service.rescheduleForClinic(writer, appointmentId, body);
      const [row] = await repository.listAppointments(db, writer.clinicId, { id: appointmentId });
      if (!row) throw new AppError('appointment_not_found', 404, 'Appointment not found');
      return toAppointmentView(row);
    },

    /** Cancels on the clinic's behalf and answers the cancelled appointment. */
    async cancelAppointment(writer: Writer, appointmentId: number, body?: ClinicCancelBody) {
      await service.cancelForClinic(writer.clinicId, appointmentId, writer.actor, {
        reason: body?.reason ?? null,
        sendSms: body?.send_sms === true,
      });
      const [row] = await repository.listAppointments(db, writer.clinicId, { id: appointmentId });
      if (!row) throw new AppError('appointment_not_found', 404, 'Appointment not found');
      return toAppointmentView(row);
    },
  };
}

export type ClinicAppointments = ReturnType<typeof createClinicAppointments>;
