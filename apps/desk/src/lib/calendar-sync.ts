import type { CalendarSyncStatus } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';

/** One cache for the problems page and the caregiver pages: a change made on one shows on both. */
export const calendarSyncQueryKey = ['calendar-sync'] as const;

/**
 * Each caregiver calendar's sync state and how it is connected (`GET
 * /api/integration/calendar-sync`), asked again every `refreshMs` while shown.
 */
export const useCalendarSync = (refreshMs: number | false) =>
  useQuery({
    queryKey: calendarSyncQueryKey,
    queryFn: ({ signal }) => api<CalendarSyncStatus>('/api/integration/calendar-sync', { signal }),
    refetchInterval: refreshMs,
  });
