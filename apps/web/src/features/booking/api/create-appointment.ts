import type { BookAppointmentBody, BookedAppointment } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/appointment` (docs/product/booking.md#calls): books the slot; 409 existingAppointment
 * or slot_taken.
 */
export function createAppointment(body: BookAppointmentBody): Promise<BookedAppointment> {
  return apiRequest('POST', '/appointment', { body });
}
