import type { ClinicRescheduleBody, IntegrationAppointment } from '@marpe/shared';
import { api } from '../../../lib/api';

export const rescheduleAppointment = (id: number, body: ClinicRescheduleBody) =>
  api<IntegrationAppointment>(`/api/integration/appointments/${id}/reschedule`, {
    method: 'POST',
    body,
  });
