import type { QueryClient } from '@tanstack/react-query';
import { browserToday, isDiaryView, parseDate, visibleDates, widestWindow } from '../clinic-time';
import { appointmentsQuery } from './appointments';
import { busyTimesQuery } from './busy-times';
import { diarySetupQueries } from './diary-setup';

/**
 * Asks for everything the diary's first picture needs, as soon as the desk knows who is signed
 * in, while the router still loads the page's code: the set-up and the shown days' appointments
 * and busy times, with the keys the page's own queries use (they find the answers waiting).
 */
export function prefetchDiary(queryClient: QueryClient, search: URLSearchParams): void {
  const view = isDiaryView(search.get('view')) ? search.get('view') : 'day';
  const date = parseDate(search.get('date')) ?? browserToday();
  const dates = visibleDates(view === 'week' ? 'week' : 'day', date);
  void queryClient.prefetchQuery(diarySetupQueries.clinic);
  void queryClient.prefetchQuery(diarySetupQueries.caregivers);
  void queryClient.prefetchQuery(diarySetupQueries.types);
  void queryClient.prefetchQuery(diarySetupQueries.closures);
  void queryClient.prefetchQuery(
    appointmentsQuery(dates[0] ?? date, dates[dates.length - 1] ?? date),
  );
  void queryClient.prefetchQuery(busyTimesQuery(widestWindow(dates), null));
}
