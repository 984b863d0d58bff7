import type { IntegrationCaregiver } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The caregivers: the filter's choices, and who else offers an entry's type. */
export const useWaitlistCaregivers = () =>
  useQuery({
    queryKey: ['waitlist', 'caregivers'] as const,
    queryFn: () => api<IntegrationCaregiver[]>('/api/integration/caregivers'),
    staleTime: 60_000,
  });
