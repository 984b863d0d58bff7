import type { IntegrationAppointment } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Often enough that a patient's online booking shows up without a reload. */
export const DIARY_REFRESH_MS = 30_000;

export const appointmentsKey = (fromDate: string, toDate: string) =>
  ['diary', 'appointments', fromDate, toDate] as const;

/** The booked appointments starting on the dates shown (clinic time). */
export const useDiaryAppointments = (fromDate: string, toDate: string, enabled: boolean) =>
  useQuery({
    queryKey: appointmentsKey(fromDate, toDate),
    queryFn: ({ signal }) =>
      api<IntegrationAppointment[]>(
        `/api/integration/appointments?${new URLSearchParams({
          from: fromDate,
          to: toDate,
          status: 'booked',
        })}`,
        { signal },
      ),
    enabled,
    refetchInterval: DIARY_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
    placeholderData: (previous) => previous,
  });
