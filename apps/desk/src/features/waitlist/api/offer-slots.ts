import type { WaitlistSlots } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { WAITLIST_REFRESH_MS } from './list-entries';

/** The free times to offer an entry with a caregiver (its own by default), kept fresh while open. */
export const useOfferSlots = (entryId: number, caregiverId: number, enabled: boolean) =>
  useQuery({
    queryKey: ['waitlist', 'slots', entryId, caregiverId] as const,
    queryFn: ({ signal }) =>
      api<WaitlistSlots>(
        `/api/integration/waitlist/entries/${entryId}/slots?${new URLSearchParams({
          caregiver_id: String(caregiverId),
        })}`,
        { signal },
      ),
    enabled,
    refetchInterval: WAITLIST_REFRESH_MS,
  });
