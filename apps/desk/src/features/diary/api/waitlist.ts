import type { IntegrationWaitlistEntry } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { DIARY_REFRESH_MS } from './appointments';

/** Who waits for a date (and a caregiver). */
export const useWaitlistForDay = (date: string, caregiverId: number | null, enabled: boolean) =>
  useQuery({
    queryKey: ['diary', 'waitlist', date, caregiverId] as const,
    queryFn: ({ signal }) =>
      api<IntegrationWaitlistEntry[]>(
        `/api/integration/waitlist/entries?${new URLSearchParams({
          date,
          ...(caregiverId === null ? {} : { caregiver_id: String(caregiverId) }),
        })}`,
        { signal },
      ),
    enabled,
    refetchInterval: DIARY_REFRESH_MS,
  });
