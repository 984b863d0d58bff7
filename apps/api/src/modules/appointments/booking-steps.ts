import type { BookAppointmentBody, BookedAppointment, ClinicBookingBody } from '@marpe/shared';
import type { Transaction } from '../../platform/db/client.js';
import { AppError, clinicNotFound, invalidField } from '../../platform/errors.js';
import type { MessageLanguage } from '../../platform/http/message-language.js';
import { formatZonedIso, zonedDate } from '../../platform/zoned-time.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';
import { appointmentSmsMessage } from './appointment-sms.js';
import {
  alreadyCancelled,
  appointmentNotFound,
  isCancellable,
  MINUTE,
  otherClinic,
  slotTaken,
} from './appointment-rules.js';
import type { AppointmentsContext } from './appointments-context.js';

/**
 * The clinic, caregiver and type a booking names exist and fit, and the interval has the
 * type's length. `fields` names the body's fields in the 400s (the patient's and the clinic's
 * bodies spell them differently).
 */
export async function loadSlot(
  ctx: AppointmentsContext,
  wanted: { clinicId: number; caregiverId: number; appointmentTypeId: number; start: number },
  fields: { type: string; start: string },
) {
  const subject = await ctx.repository.findBookingSubject(
    wanted.clinicId,
    wanted.caregiverId,
    wanted.appointmentTypeId,
  );
  if (!subject) throw clinicNotFound(wanted.clinicId);
  const { clinic, caregiver, type } = subject;
  if (!caregiver?.isActive) {
    throw new AppError(
      'caregiver_not_found',
      404,
      `Caregiver ${wanted.caregiverId} not found in clinic ${clinic.id}`,
    );
  }
  if (!type) {
    throw new AppError(
      'appointment_type_not_found',
      404,
      `Appointment type ${wanted.appointmentTypeId} not found in clinic ${clinic.id}`,
    );
  }
  if (!subject.offersType) {
    throw invalidField(fields.type, 'The caregiver does not offer this appointment type');
  }
  const localDate = zonedDate(wanted.start, clinic.timezone);
  return { clinic, caregiver, type, localDate };
}

export type BookingSlot = Awaited<ReturnType<typeof loadSlot>>;

/** Whether the engine offers exactly [start, end) now: 400 naming `field` otherwise. */
export async function checkOffered(
  ctx: AppointmentsContext,
  slot: Pick<BookingSlot, 'clinic' | 'caregiver' | 'type'>,
  start: number,
  end: number,
  field: string,
  hint: string,
) {
  const { offered } = await ctx.availability.isOfferedSlot({
    clinicId: slot.clinic.id,
    caregiverId: slot.caregiver.id,
    durationMinutes: slot.type.durationMinutes,
    start,
    end,
  });
  if (!offered) throw invalidField(field, `Not a slot the caregiver offers now; ${hint}`);
}

/**
 * The last check before a booking: the clinic's diary may have given the time away since the
 * mirror last heard from the calendar (a phone booking a moment ago), so the calendar is asked
 * itself, briefly; no answer in time books on the mirror (checked in the transaction).
 */
export async function checkCalendar(
  ctx: AppointmentsContext,
  caregiverId: number,
  start: number,
  end: number,
): Promise<void> {
  if ((await ctx.calendar.lastCheck(caregiverId, start, end)) === 'busy') throw slotTaken();
}

/**
 * A time the clinic books or moves to: one the engine offers unless outside_working_hours, and
 * free in the caregiver's calendar unless ignore_busy_times.
 */
export async function checkClinicSlot(
  ctx: AppointmentsContext,
  slot: Pick<BookingSlot, 'clinic' | 'caregiver' | 'type'>,
  start: number,
  end: number,
  body: Pick<ClinicBookingBody, 'outside_working_hours' | 'ignore_busy_times'>,
): Promise<void> {
  if (body.outside_working_hours !== true) {
    await checkOffered(
      ctx,
      slot,
      start,
      end,
      'start_date',
      'choose one from available-slots, or send outside_working_hours: true',
    );
  }
  if (body.ignore_busy_times !== true) await checkCalendar(ctx, slot.caregiver.id, start, end);
}

/** The details SMS of a booking, in the patient's language. */
export function detailsMessage(
  slot: Pick<BookingSlot, 'clinic' | 'caregiver' | 'type'>,
  start: number,
  language: MessageLanguage,
): string {
  const { clinic, caregiver, type } = slot;
  return appointmentSmsMessage(
    {
      clinicName: clinic.name,
      street: clinic.street,
      homeNumber: clinic.homeNumber,
      city: clinic.city,
      timezone: clinic.timezone,
      caregiverName: caregiver.name,
      typeName: type.name,
      start,
    },
    language,
  );
}

export type PreparedBooking = BookingSlot & {
  start: number;
  end: number;
  sms: string | null;
};

/**
 * Everything about a patient's wanted slot that needs no lock: the clinic, caregiver and type
 * exist and fit, the interval is one the engine offers now, and the details SMS text when the
 * clinic sends it.
 */
export async function prepareBooking(
  ctx: AppointmentsContext,
  patient: SessionPatient,
  body: BookAppointmentBody,
  language: MessageLanguage,
): Promise<PreparedBooking> {
  if (body.clinicId !== patient.clinicId) throw otherClinic();
  const start = Date.parse(body.startDate);
  const end = Date.parse(body.endDate);
  const slot = await loadSlot(
    ctx,
    {
      clinicId: body.clinicId,
      caregiverId: body.caregiverId,
      appointmentTypeId: body.appointmentTypeId,
      start,
    },
    { type: 'appointmentTypeId', start: 'startDate' },
  );
  if (end - start !== slot.type.durationMinutes * MINUTE) {
    throw invalidField(
      'endDate',
      `This appointment type lasts ${slot.type.durationMinutes} minutes: endDate must be startDate plus that`,
    );
  }
  await checkOffered(ctx, slot, start, end, 'startDate', 'choose one from available-slots');
  const sms = slot.clinic.isAutoSmsEnabled ? detailsMessage(slot, start, language) : null;
  return { ...slot, start, end, sms };
}

/**
 * The patient's own booked appointment, locked, while its cancellation notice has not begun:
 * what may be cancelled or moved online. 404 when it is not theirs, 409 otherwise.
 */
export async function lockChangeable(
  ctx: AppointmentsContext,
  tx: Transaction,
  patient: SessionPatient,
  appointmentId: number,
  now: number,
  change: 'cancelled' | 'changed',
) {
  const row = await ctx.repository.lockOwnAppointment(tx, appointmentId, patient.id);
  if (!row) throw appointmentNotFound();
  if (row.status !== 'booked') throw alreadyCancelled();
  if (!isCancellable(row.startAt.getTime(), row.cancelNoticeMinutes, now)) {
    throw new AppError(
      'not_cancellable',
      409,
      `The appointment can no longer be ${change} online; please contact the clinic`,
    );
  }
  return row;
}

export function bookedView(
  id: number,
  slot: Pick<PreparedBooking, 'clinic' | 'caregiver' | 'type'> & {
    start: number;
    end: number;
    /** The appointment's details went to the patient's phone with the change. */
    detailsSent: boolean;
  },
): BookedAppointment {
  return {
    id,
    clinic_id: slot.clinic.id,
    caregiver_id: slot.caregiver.id,
    appointment_type_id: slot.type.id,
    start_date: formatZonedIso(slot.start, slot.clinic.timezone),
    end_date: formatZonedIso(slot.end, slot.clinic.timezone),
    sms_sent: slot.detailsSent,
  };
}
