import type { ClinicBusyTime } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { DIARY_REFRESH_MS } from './appointments';

/** The caregivers' busy times (pushed, and their calendars') overlapping [from, to). */
export const useDiaryBusyTimes = (
  window: { from: string; to: string },
  caregiverId: number | null,
  enabled: boolean,
) =>
  useQuery({
    queryKey: ['diary', 'busy-times', window.from, window.to, caregiverId] as const,
    queryFn: ({ signal }) =>
      api<ClinicBusyTime[]>(
        `/api/integration/busy-times?${new URLSearchParams({
          from: window.from,
          to: window.to,
          ...(caregiverId === null ? {} : { caregiver_id: String(caregiverId) }),
        })}`,
        { signal },
      ),
    enabled,
    refetchInterval: DIARY_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
    placeholderData: (previous) => previous,
  });
