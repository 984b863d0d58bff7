import type { WaitlistEntry } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export type { WaitlistEntry };

/** `GET /api/waitlist`: the patient's active waitlist entries, in the order they joined. */
export function getWaitlist(signal?: AbortSignal): Promise<WaitlistEntry[]> {
  return apiRequest('GET', '/waitlist', { signal });
}

/** Invalidating this key reloads every patient's entries. */
export const waitlistKey = ['waitlist'] as const;

/** Per patient, like the appointments: another patient on the same tab must not see these. */
export function useWaitlist(patientId: number) {
  return useQuery({
    queryKey: [...waitlistKey, patientId],
    queryFn: ({ signal }) => getWaitlist(signal),
  });
}
