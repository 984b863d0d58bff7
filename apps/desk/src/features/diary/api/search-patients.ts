import type { IntegrationPatient } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The clinic's patients matching what was typed (name, ID number or phone). */
export const usePatientSearch = (q: string) =>
  useQuery({
    queryKey: ['diary', 'patients', q] as const,
    queryFn: ({ signal }) =>
      api<IntegrationPatient[]>(
        `/api/integration/patients?${new URLSearchParams({ q, limit: '10' })}`,
        { signal },
      ),
    enabled: q.trim().length >= 2,
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
