import type { AvailableDatesQuery } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * `GET /api/appointment/available-dates` (docs/product/booking.md#calls): bookable dates,
 * `YYYY-MM-DD` clinic time.
 */
export async function getAvailableDates(
  query: AvailableDatesQuery,
  signal?: AbortSignal,
): Promise<string[]> {
  const dates = await apiRequest<string[]>('GET', '/appointment/available-dates', {
    query: { ...query },
    signal,
  });
  // Merged without duplicates (docs/product/booking.md#availability).
  return [...new Set(dates)];
}
