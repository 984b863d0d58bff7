import { AppError } from '../../platform/errors.js';
import type { SessionPatient } from '../patient-auth/patient-auth-repository.js';

export const MINUTE = 60_000;

/** The clinic's cancellation notice has not begun: start − now ≥ notice. */
export function isCancellable(startMs: number, cancelNoticeMinutes: number, now: number): boolean {
  return startMs - now >= cancelNoticeMinutes * MINUTE;
}

export const otherClinic = () =>
  new AppError('forbidden', 403, "Appointments are booked at the patient's own clinic only");

export const slotTaken = () =>
  new AppError('slot_taken', 409, 'The slot was taken meanwhile; choose another one');

export const existingAppointment = () =>
  new AppError(
    'existingAppointment',
    409,
    'It is not possible to book more than one appointment on the same date',
  );

export const tooManyUpcoming = (max: number) =>
  new AppError(
    'too_many_upcoming',
    409,
    `A patient may hold ${max} upcoming appointments at this clinic; cancel one or contact the clinic`,
    { max },
  );

export const appointmentNotFound = () =>
  new AppError('appointment_not_found', 404, 'Appointment not found');

export const alreadyCancelled = () =>
  new AppError('not_cancellable', 409, 'The appointment is already cancelled');

/** The subject of a patient's per-patient limits (platform/limits.ts). */
export const patientSubject = (patient: SessionPatient) => `patient:${patient.id}`;
