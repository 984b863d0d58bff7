import {
  APPOINTMENT_SMS_LIMIT,
  type PatientAppointment,
  type SendAppointmentSmsBody,
  type UpcomingCap,
} from '@marpe/shared';
import { AppError, clinicNotFound } from '../../platform/errors.js';
import { limits } from '../../platform/limits.js';
import { formatZonedIso } from '../../platform/zoned-time.js';
import { messageCapError, takeMessageCap } from '../integration/message-caps.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import { appointmentSmsMessage } from './appointment-sms.js';
import {
  appointmentNotFound,
  isCancellable,
  otherClinic,
  patientSubject,
} from './appointment-rules.js';
import type { AppointmentsContext } from './appointments-context.js';

/** `GET /api/appointment/patient-appointments`: booked, not yet ended, by start. */
export function listUpcoming(ctx: AppointmentsContext) {
  return async function listUpcoming(patient: SessionPatient): Promise<PatientAppointment[]> {
    const now = ctx.clock();
    const rows = await ctx.repository.listUpcoming(patient.id, patient.clinicId, new Date(now));
    return rows.map((row) => ({
      id: row.id,
      caregiver_id: row.caregiverId,
      appointment_type_id: row.appointmentTypeId,
      caregiver_name: row.caregiverName,
      type_name: row.typeName,
      start_date: formatZonedIso(row.startAt.getTime(), row.timezone),
      end_date: formatZonedIso(row.endAt.getTime(), row.timezone),
      is_marpe_cancellable: isCancellable(row.startAt.getTime(), row.cancelNoticeMinutes, now),
    }));
  };
}

/**
 * `GET /api/appointment/upcoming-cap`: the count the booking's cap check compares (the
 * patient's own, or the phone's when more), without its lock: the booking still decides.
 */
export function upcomingCap(ctx: AppointmentsContext) {
  return async function upcomingCap(patient: SessionPatient): Promise<UpcomingCap> {
    const { repository } = ctx;
    const now = new Date(ctx.clock());
    const [max, own, ofPhone] = await Promise.all([
      repository.findMaxUpcoming(patient.clinicId),
      repository.countUpcoming(repository.db, patient.id, now),
      repository.countUpcomingOfPhone(repository.db, patient.clinicId, patient.phone, now),
    ]);
    if (max === null) throw clinicNotFound(patient.clinicId);
    return { max, held: Math.max(own, ofPhone) };
  };
}

/** `POST /api/appointment/send-sms`: the details of the patient's own upcoming appointment. */
export function sendDetailsSms(ctx: AppointmentsContext) {
  return async function sendSms(
    patient: SessionPatient,
    body: SendAppointmentSmsBody,
  ): Promise<void> {
    const { repository, messaging } = ctx;
    if (body.clinicId !== patient.clinicId) throw otherClinic();
    const now = ctx.clock();
    const appointment = await repository.findOwnUpcoming(
      patient.id,
      {
        clinicId: body.clinicId,
        caregiverId: body.caregiverId,
        appointmentTypeId: body.appointmentTypeId,
        start: new Date(Date.parse(body.startDate)),
        end: new Date(Date.parse(body.endDate)),
      },
      new Date(now),
    );
    if (!appointment) throw appointmentNotFound();
    const message = appointmentSmsMessage(
      { ...appointment, start: appointment.startAt.getTime() },
      appointment.language,
    );
    const refused = await repository.db.transaction(async (tx) => {
      // Counted by the clinic's message caps like every message to a patient; refused, only
      // the refusal's audit entry is committed.
      const cap = await takeMessageCap(tx, {
        clinicId: patient.clinicId,
        to: patient.phone,
        kind: 'appointment_details',
        actor: patientSubject(patient),
        now,
      });
      if (cap) return cap;
      await ctx.takeLimit(tx, limits.detailsMessage, patientSubject(patient), now);
      if (!(await repository.takeSmsAllowance(tx, appointment.id, APPOINTMENT_SMS_LIMIT))) {
        throw new AppError(
          'too_many_requests',
          429,
          `The details of this appointment were sent ${APPOINTMENT_SMS_LIMIT} times already`,
        );
      }
      await messaging.queueMessage(tx, {
        clinicId: patient.clinicId,
        to: patient.phone,
        body: message,
        expiresAt: appointment.endAt,
        kind: 'appointment_details',
      });
      return null;
    });
    if (refused) throw messageCapError(refused);
    messaging.kick();
  };
}
