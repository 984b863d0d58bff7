import type { IntegrationClinic } from '@marpe/shared';
import { api } from '../../../lib/api';

export const clinicQueryKey = ['setup-team', 'clinic'] as const;

/** The clinic's default booking rules (what a caregiver inherits) and its time zone. */
export const getClinic = () => api<IntegrationClinic>('/api/integration/clinic');
