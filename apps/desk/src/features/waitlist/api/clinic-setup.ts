import type { IntegrationCaregiver, IntegrationClinic } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The clinic (its time zone: every time is shown in it). */
export const useWaitlistClinic = () =>
  useQuery({
    queryKey: ['waitlist', 'clinic'] as const,
    queryFn: () => api<IntegrationClinic>('/api/integration/clinic'),
    staleTime: 5 * 60_000,
  });

/** The caregivers: the filter's choices, and who else offers an entry's type. */
export const useWaitlistCaregivers = () =>
  useQuery({
    queryKey: ['waitlist', 'caregivers'] as const,
    queryFn: () => api<IntegrationCaregiver[]>('/api/integration/caregivers'),
    staleTime: 60_000,
  });
