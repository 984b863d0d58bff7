import type { IntegrationAppointment } from '@marpe/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client.js';
import {
  appointments,
  appointmentTypes,
  caregivers,
  clinics,
  patients,
} from '../../platform/db/schema.js';
import { formatZonedIso } from '../../platform/zoned-time.js';

/**
 * Appointments as a clinic sees them (the integration API's list and the appointment webhooks):
 * one query shape and one mapping, so an event's `data` always equals what `GET /appointments`
 * answers. Add `.where(…)` and an order.
 */
export function selectAppointmentViews(ex: Executor) {
  return ex
    .select({
      id: appointments.id,
      clinicId: appointments.clinicId,
      timezone: clinics.timezone,
      status: appointments.status,
      source: appointments.source,
      startAt: appointments.startAt,
      endAt: appointments.endAt,
      createdAt: appointments.createdAt,
      cancelledAt: appointments.cancelledAt,
      cancelReason: appointments.cancelReason,
      caregiverId: caregivers.id,
      caregiverName: caregivers.name,
      typeId: appointmentTypes.id,
      typeName: appointmentTypes.name,
      patientId: patients.id,
      idNumber: patients.idNumber,
      firstName: patients.firstName,
      lastName: patients.lastName,
      phone: patients.phone,
    })
    .from(appointments)
    .innerJoin(clinics, eq(clinics.id, appointments.clinicId))
    .innerJoin(caregivers, eq(caregivers.id, appointments.caregiverId))
    .innerJoin(appointmentTypes, eq(appointmentTypes.id, appointments.appointmentTypeId))
    .innerJoin(patients, eq(patients.id, appointments.patientId));
}

export type AppointmentViewRow = Awaited<ReturnType<typeof selectAppointmentViews>>[number];

/** Times with the clinic's offset, as every clinic-facing answer gives them. */
export function toAppointmentView(row: AppointmentViewRow): IntegrationAppointment {
  return {
    id: row.id,
    status: row.status,
    start_date: formatZonedIso(row.startAt.getTime(), row.timezone),
    end_date: formatZonedIso(row.endAt.getTime(), row.timezone),
    caregiver: { id: row.caregiverId, name: row.caregiverName },
    appointment_type: { id: row.typeId, name: row.typeName },
    patient: {
      id: row.patientId,
      id_number: row.idNumber,
      first_name: row.firstName,
      last_name: row.lastName,
      phone: row.phone,
    },
    source: row.source,
    created_at: row.createdAt.toISOString(),
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    cancel_reason: row.cancelReason,
  };
}
