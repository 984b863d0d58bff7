import type { ClinicBookingBody, IntegrationAppointment } from '@marpe/shared';
import { api } from '../../../lib/api';

/** A phone booking: the patient found by ID number, or signed up with these details. */
export const bookAppointment = (body: ClinicBookingBody) =>
  api<IntegrationAppointment>('/api/integration/appointments', { method: 'POST', body });
