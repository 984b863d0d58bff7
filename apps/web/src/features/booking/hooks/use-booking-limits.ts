import type { PatientAppointment } from '@marpe/shared';
import { useMemo } from 'react';
import { formatClinicTime } from '../../../lib/clinic-time';
import { usePatientAppointments, useUpcomingCap } from '../../../lib/patient-appointments';

/** The dates (clinic time) of the patient's appointments, but for the one being moved. */
export function bookedDatesOf(
  appointments: readonly PatientAppointment[] | undefined,
  rescheduleId: number | null,
  timeZone: string,
): Set<string> {
  return new Set(
    (appointments ?? [])
      // The moved appointment's own date is free to it (the API counts it as itself).
      .filter((a) => a.id !== rescheduleId)
      .map((a) => formatClinicTime(a.start_date, timeZone, 'YYYY-MM-DD')),
  );
}

/**
 * What the rules allow, told before the last step: one appointment per date, and the clinic's cap
 * on upcoming ones (the booking's 409 answers stay for races).
 */
export function useBookingLimits(patientId: number, rescheduleId: number | null, timeZone: string) {
  const { data: ownAppointments } = usePatientAppointments(patientId);
  const { data: cap } = useUpcomingCap(patientId);
  const moving = ownAppointments?.find((a) => a.id === rescheduleId) ?? null;
  const bookedDates = useMemo(
    () => bookedDatesOf(ownAppointments, rescheduleId, timeZone),
    [ownAppointments, rescheduleId, timeZone],
  );
  const atCap = rescheduleId === null && cap !== undefined && cap.held >= cap.max;
  return { cap, moving, bookedDates, atCap };
}
