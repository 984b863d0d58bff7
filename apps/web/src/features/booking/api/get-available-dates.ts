import type { AvailableDatesQuery } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/** `GET /api/appointment/available-dates` (SPEC § 7): bookable dates, `YYYY-MM-DD` clinic time. */
export async function getAvailableDates(
  query: AvailableDatesQuery,
  signal?: AbortSignal,
): Promise<string[]> {
  const dates = await apiRequest<string[]>('GET', '/appointment/available-dates', {
    query: { ...query },
    signal,
  });
  // SPEC § 7: merged without duplicates.
  return [...new Set(dates)];
}
