import type { PatientAppointment } from '@marpe/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export type { PatientAppointment };

/** `GET /api/appointment/patient-appointments` (SPEC § 7): the patient's upcoming appointments. */
export function getPatientAppointments(signal?: AbortSignal): Promise<PatientAppointment[]> {
  return apiRequest('GET', '/appointment/patient-appointments', {
    signal,
  });
}

/** Invalidating this key reloads every patient's list. */
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
