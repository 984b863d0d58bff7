import type { AppointmentActionResponse, CancelAppointmentBody } from '@marpe/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { patientAppointmentsKey } from '../../../lib/patient-appointments';

/**
 * `PUT /api/appointment/patient-appointments` (docs/product/appointments.md#calls). 404
 * appointment_not_found, 409 not_cancellable (the clinic's notice period began since the list
 * loaded).
 */
export function cancelAppointment(body: CancelAppointmentBody): Promise<AppointmentActionResponse> {
  return apiRequest('PUT', '/appointment/patient-appointments', { body });
}

/** Cancels, then reloads the list whatever the outcome: a failure may mean the list is stale. */
export function useCancelAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (appointmentId: number) => cancelAppointment({ appointmentId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: patientAppointmentsKey }),
  });
}
