import type { IntegrationWaitlistEntry } from '@marpe/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Entries a page of the list holds; "more" asks for the next. */
export const WAITLIST_PAGE_SIZE = 50;
/** How often the open page asks again (offers by others, patients joining or booking). */
export const WAITLIST_REFRESH_MS = 3000;

export interface WaitlistFilter {
  caregiverId: number | null;
  /** YYYY-MM-DD: entries whose dates include it. */
  date: string | null;
}

export const waitlistEntriesKey = ['waitlist', 'entries'] as const;

/** Who waits, in the order they joined, a page at a time (the server's `after` cursor). */
export const useWaitlistEntries = (filter: WaitlistFilter) =>
  useInfiniteQuery({
    queryKey: [...waitlistEntriesKey, filter] as const,
    queryFn: ({ pageParam, signal }) =>
      api<IntegrationWaitlistEntry[]>(
        `/api/integration/waitlist/entries?${new URLSearchParams({
          limit: String(WAITLIST_PAGE_SIZE),
          ...(filter.caregiverId === null ? {} : { caregiver_id: String(filter.caregiverId) }),
          ...(filter.date === null ? {} : { date: filter.date }),
          ...(pageParam === null ? {} : { after: String(pageParam) }),
        })}`,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) =>
      last.length < WAITLIST_PAGE_SIZE ? null : (last[last.length - 1]?.id ?? null),
    refetchInterval: WAITLIST_REFRESH_MS,
  });
