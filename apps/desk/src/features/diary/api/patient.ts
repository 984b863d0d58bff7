import type { IntegrationPatient } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The patient a booking is for (`/diary?patient=<idNumber>`, from their page). */
export const useBookingPatient = (idNumber: string | null) =>
  useQuery({
    queryKey: ['diary', 'patient', idNumber] as const,
    queryFn: ({ signal }) =>
      api<IntegrationPatient>(`/api/integration/patients/${encodeURIComponent(idNumber ?? '')}`, {
        signal,
      }),
    enabled: idNumber !== null && idNumber !== '',
    retry: false,
    staleTime: 60_000,
  });
