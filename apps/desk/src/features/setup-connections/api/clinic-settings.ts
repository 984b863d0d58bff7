import type { IntegrationClinic, UpdateClinicBody } from '@marpe/shared';
import { api } from '../../../lib/api';

export const clinicQueryKey = ['setup-connections', 'clinic'] as const;

export const getClinic = () => api<IntegrationClinic>('/api/integration/clinic');

/** Changes the settings given: the messaging channel, the card terminal. */
export const updateClinicSettings = (settings: NonNullable<UpdateClinicBody['settings']>) =>
  api<IntegrationClinic>('/api/integration/clinic', { method: 'PATCH', body: { settings } });
