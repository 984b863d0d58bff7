import type { CalendarFeedCreated, CalendarFeedState, IntegrationCaregiver } from '@marpe/shared';
import { useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const caregiversQueryKey = ['integrations', 'caregivers'] as const;
export const calendarFeedsQueryKey = ['integrations', 'calendar-feeds'] as const;

export const useCaregivers = () =>
  useQuery({
    queryKey: caregiversQueryKey,
    queryFn: () => api<IntegrationCaregiver[]>('/api/integration/caregivers'),
  });

/** Each caregiver's feed: whether one is live and since when (never its URL). */
export const useCalendarFeeds = (caregiverIds: readonly number[]) =>
  useQueries({
    queries: caregiverIds.map((id) => ({
      queryKey: [...calendarFeedsQueryKey, id],
      queryFn: () => api<CalendarFeedState>(`/api/integration/caregivers/${id}/calendar-feed`),
    })),
  });

/** A new feed URL, shown this once; an earlier one stops working at once. */
export const createCalendarFeed = (caregiverId: number) =>
  api<CalendarFeedCreated>(`/api/integration/caregivers/${caregiverId}/calendar-feed`, {
    method: 'POST',
  });

/** Revokes the caregiver's feed URL: its subscribers get nothing from now on. */
export const revokeCalendarFeed = (caregiverId: number) =>
  api<undefined>(`/api/integration/caregivers/${caregiverId}/calendar-feed`, {
    method: 'DELETE',
  });
