import type { PatientAppointment, UpcomingCap } from '@marpe/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';

export type { PatientAppointment };

/**
 * The patient's upcoming appointments, read by "my appointments" (the list) and by the booking
 * page (the dates already taken, the appointment being moved, the cap): one cache for both.
 */

/**
 * `GET /api/appointment/patient-appointments` (docs/product/appointments.md#calls): the patient's
 * upcoming appointments.
 */
export function getPatientAppointments(signal?: AbortSignal): Promise<PatientAppointment[]> {
  return apiRequest('GET', '/appointment/patient-appointments', {
    signal,
  });
}

/** `GET /api/appointment/upcoming-cap`: the clinic's cap and what counts against it now. */
export function getUpcomingCap(signal?: AbortSignal): Promise<UpcomingCap> {
  return apiRequest('GET', '/appointment/upcoming-cap', { signal });
}

/** Invalidating this key reloads every patient's list, and the cap with it. */
export const patientAppointmentsKey = ['patient-appointments'] as const;

export function patientAppointmentsQueryOptions(patientId: number) {
  return queryOptions({
    // Per patient: another patient logging in on the same tab must not see the last one's list.
    queryKey: [...patientAppointmentsKey, patientId],
    queryFn: ({ signal }) => getPatientAppointments(signal),
  });
}

/** `null` (no patient yet) fetches nothing. */
export function usePatientAppointments(patientId: number | null) {
  return useQuery({
    ...patientAppointmentsQueryOptions(patientId ?? 0),
    enabled: patientId !== null,
  });
}

/** `null` (no patient yet) fetches nothing. */
export function useUpcomingCap(patientId: number | null) {
  return useQuery({
    queryKey: [...patientAppointmentsKey, patientId ?? 0, 'cap'],
    queryFn: ({ signal }) => getUpcomingCap(signal),
    enabled: patientId !== null,
  });
}
