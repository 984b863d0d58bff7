import type { IntegrationClinic, UpdateClinicBody } from '@marpe/shared';
import { api } from '../../../lib/api';

/** The clinic's profile, hours and rules, as the set-up forms edit them. */
export const clinicQueryKey = ['setup', 'clinic'] as const;

export const getClinic = () => api<IntegrationClinic>('/api/integration/clinic');

export const updateClinic = (body: UpdateClinicBody) =>
  api<IntegrationClinic>('/api/integration/clinic', { method: 'PATCH', body });
