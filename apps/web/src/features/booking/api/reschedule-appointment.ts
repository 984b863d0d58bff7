import type { BookedAppointment, RescheduleAppointmentBody } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/appointment/patient-appointments/:id/reschedule` (docs/booking.md): moves the
 * appointment to the chosen slot in one step; 409 slot_taken keeps the old one.
 */
export function rescheduleAppointment(
  appointmentId: number,
  body: RescheduleAppointmentBody,
): Promise<BookedAppointment> {
  return apiRequest('POST', `/appointment/patient-appointments/${appointmentId}/reschedule`, {
    body,
  });
}
