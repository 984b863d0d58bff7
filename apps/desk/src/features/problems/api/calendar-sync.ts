import type { CalendarConflict, IntegrationCaregiver } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { PROBLEMS_REFRESH_MS } from './message-failures';

/** Conflicts the page shows: the newest (the API's own maximum is 200). */
export const CONFLICTS_SHOWN = 50;

export const problemsKeys = {
  conflicts: ['problems', 'calendar-conflicts'] as const,
  caregivers: ['problems', 'caregivers'] as const,
};

/** Clashes between caregivers' calendars and the clinic's bookings, newest first. */
export const useCalendarConflicts = () =>
  useQuery({
    queryKey: problemsKeys.conflicts,
    queryFn: ({ signal }) =>
      api<CalendarConflict[]>(`/api/integration/calendar-sync/conflicts?limit=${CONFLICTS_SHOWN}`, {
        signal,
      }),
    refetchInterval: PROBLEMS_REFRESH_MS,
  });

/** The caregivers' names, for the calendars and conflicts. */
export const useCaregivers = () =>
  useQuery({
    queryKey: problemsKeys.caregivers,
    queryFn: ({ signal }) => api<IntegrationCaregiver[]>('/api/integration/caregivers', { signal }),
    staleTime: 60_000,
  });
