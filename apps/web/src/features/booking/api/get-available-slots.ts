import type { AvailableSlotsQuery, Slot } from '@marpe/shared';
import { apiRequest } from '../../../lib/api-client';

/** The slot request of one clinic-time date: that day's start to its end (SPEC § 5). */
export function dayRange(
  date: string,
): Required<Pick<AvailableSlotsQuery, 'startDate' | 'endDate'>> {
  return { startDate: `${date} 00:00`, endDate: `${date} 23:59` };
}

/** `GET /api/appointment/available-slots` (SPEC § 7): bookable intervals in a clinic-time range. */
export async function getAvailableSlots(
  query: AvailableSlotsQuery,
  signal?: AbortSignal,
): Promise<Slot[]> {
  const slots = await apiRequest<Slot[]>('GET', '/appointment/available-slots', {
    query: { ...query },
    signal,
  });
  // SPEC § 7: merged by start without duplicates.
  const byStart = new Map<string, Slot>();
  for (const slot of slots) if (!byStart.has(slot.start)) byStart.set(slot.start, slot);
  return [...byStart.values()];
}
