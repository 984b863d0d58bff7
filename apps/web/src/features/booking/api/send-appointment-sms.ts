import type { AppointmentActionResponse, SendAppointmentSmsBody } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/appointment/send-sms` (docs/product/booking.md#calls): the booked appointment's
 * details by SMS (429 after 3).
 */
export function sendAppointmentSms(
  body: SendAppointmentSmsBody,
): Promise<AppointmentActionResponse> {
  return apiRequest('POST', '/appointment/send-sms', { body });
}
