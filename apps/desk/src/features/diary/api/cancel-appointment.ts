import type { ClinicCancelBody, IntegrationAppointment } from '@marpe/shared';
import { api } from '../../../lib/api';

export const cancelAppointment = (id: number, body: NonNullable<ClinicCancelBody>) =>
  api<IntegrationAppointment>(`/api/integration/appointments/${id}/cancel`, {
    method: 'POST',
    body,
  });
