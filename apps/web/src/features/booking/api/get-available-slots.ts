import type { AvailableSlotsQuery, Slot } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/**
 * The slot request of one clinic-time date: that day's start to its end
 * (docs/product/booking.md#availability).
 */
export function dayRange(
  date: string,
): Required<Pick<AvailableSlotsQuery, 'startDate' | 'endDate'>> {
  return { startDate: `${date} 00:00`, endDate: `${date} 23:59` };
}

/**
 * `GET /api/appointment/available-slots` (docs/product/booking.md#calls): bookable intervals in a
 * clinic-time range.
 */
export async function getAvailableSlots(
  query: AvailableSlotsQuery,
  signal?: AbortSignal,
): Promise<Slot[]> {
  const slots = await apiRequest<Slot[]>('GET', '/appointment/available-slots', {
    query: { ...query },
    signal,
  });
  // Merged by start without duplicates (docs/product/booking.md#availability).
  const byStart = new Map<string, Slot>();
  for (const slot of slots) if (!byStart.has(slot.start)) byStart.set(slot.start, slot);
  return [...byStart.values()];
}
